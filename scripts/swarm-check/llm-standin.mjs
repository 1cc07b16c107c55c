// The model provider of the swarm check, run as a service of the stack (stack.ci.yml) so that
// workers and runtime replicas on either node reach it by name (http://llm:8090/v1): the agent
// runtime's OpenAI-compatible test server (the real wire protocol, answers computed from the
// prompt), behind a front that can hold embeddings requests. The check holds them to keep a build
// in its embeddings stage while it drains the node running that build:
//   POST /_swarm/hold     embeddings requests wait from now on
//   POST /_swarm/release  they go on (those waiting too)
//   GET  /_swarm/state    {"holding": bool, "held": n, "requests": {"/v1/embeddings": n, …}}
// It runs in the gateway image (node and @agentloom/agent-runtime are there), mounted as a
// Swarm config at /app/swarm-llm-standin.mjs so the package resolves from /app/node_modules.
import { startLlmTestServer } from '@agentloom/agent-runtime/testing';
import { createServer, request } from 'node:http';

const PORT = Number(process.env.LLM_PORT ?? 8090);
const llm = await startLlmTestServer({ host: '127.0.0.1' });
const target = new URL(llm.url);
let holding = false;
const held = [];
const counts = {};

function json(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function forward(incoming, outgoing) {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: incoming.method,
      path: incoming.url,
      headers: incoming.headers,
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on('error', (error) => {
    if (!outgoing.headersSent) json(outgoing, 502, { detail: error.message });
    else outgoing.destroy();
  });
  incoming.pipe(upstream);
}

const front = createServer((incoming, outgoing) => {
  const path = (incoming.url ?? '').split('?')[0];
  if (path === '/_swarm/hold' && incoming.method === 'POST') {
    holding = true;
    return json(outgoing, 200, { holding });
  }
  if (path === '/_swarm/release' && incoming.method === 'POST') {
    holding = false;
    for (const go of held.splice(0)) go();
    return json(outgoing, 200, { holding });
  }
  if (path === '/_swarm/state')
    return json(outgoing, 200, { holding, held: held.length, requests: counts });
  counts[path] = (counts[path] ?? 0) + 1;
  if (holding && path === '/v1/embeddings') {
    // The request body waits in the socket until it is forwarded.
    incoming.pause();
    held.push(() => {
      incoming.resume();
      forward(incoming, outgoing);
    });
    return undefined;
  }
  return forward(incoming, outgoing);
});
front.listen(PORT, '0.0.0.0', () => console.log(`provider stand-in on :${PORT} (${llm.url})`));

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    front.close();
    void llm.close().then(() => process.exit(0));
  });
}

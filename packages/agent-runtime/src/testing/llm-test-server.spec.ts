import { networkInterfaces } from 'node:os';
import { closedPort } from '../fixtures.spec-helper';
import { testEmbedding } from './llm-test-replies';
import { startLlmTestServer, type LlmTestServer } from './llm-test-server';

let server: LlmTestServer;

beforeAll(async () => {
  server = await startLlmTestServer();
});

afterAll(() => server.close());

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, value, i) => sum + value * b[i]!, 0);
}

/** One of this machine's non-loopback IPv4 addresses (every test machine has one). */
function externalAddress(): string {
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  const found = all.find((a) => a.family === 'IPv4' && !a.internal);
  if (!found) throw new Error('no non-loopback IPv4 address on this machine');
  return found.address;
}

const reaches = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(3000) }).then(
    () => true,
    () => false,
  );

describe('startLlmTestServer', () => {
  it('listens on loopback only, unless given a host (for containers to reach it)', async () => {
    const address = externalAddress();
    const port = new URL(server.url).port;
    expect(await reaches(`http://${address}:${port}/v1/models`)).toBe(false);
    const open = await startLlmTestServer({ host: '0.0.0.0' });
    try {
      const openPort = new URL(open.url).port;
      expect(await reaches(`http://${address}:${openPort}/v1/models`)).toBe(true);
      expect(await reaches(`${open.url}/v1/models`)).toBe(true);
    } finally {
      await open.close();
    }
  });

  it('records each request with its time once answered', async () => {
    const response = await fetch(`${server.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-record' },
      body: JSON.stringify({ model: 'text-embedding-ada-002', input: ['red apples'] }),
    });
    const body = (await response.json()) as { data: { embedding: number[] }[] };
    expect(body.data[0]?.embedding).toEqual(testEmbedding('red apples', 1536));
    const request = server.requests.at(-1);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/embeddings',
      body: { input: ['red apples'] },
    });
    expect(request?.headers.authorization).toBe('Bearer sk-record');
    expect(request?.ms).toBeGreaterThan(0);
  });

  it('answers base64 float32 vectors when the request asks for them, as OpenAI does', async () => {
    const response = await fetch(`${server.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-base64' },
      body: JSON.stringify({
        model: 'text-embedding-3-small',
        input: ['red apples', 'green pears'],
        encoding_format: 'base64',
      }),
    });
    const body = (await response.json()) as { data: { index: number; embedding: string }[] };
    body.data.forEach(({ index, embedding }) => {
      const bytes = Buffer.from(embedding, 'base64');
      const decoded = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
      const expected = Float32Array.from(
        testEmbedding(['red apples', 'green pears'][index]!, 1536),
      );
      expect(decoded).toEqual(expected);
    });
  });

  it('embeds texts that share words close together, and unit length', () => {
    const apples = testEmbedding('Red apples grow in the orchard');
    expect(cosine(apples, apples)).toBeCloseTo(1, 10);
    expect(cosine(apples, testEmbedding('apples in an orchard'))).toBeGreaterThan(
      cosine(apples, testEmbedding('quarterly tax filing deadline')),
    );
  });

  it('answers an unknown path with a 404 in the protocol’s error shape', async () => {
    const response = await fetch(`${server.url}/anthropic/v1/complete`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      type: 'error',
      error: {
        type: 'api_error',
        message: 'No route for /anthropic/v1/complete on the LLM test server.',
      },
    });
  });

  it('listens on a fixed port when asked, and refuses one that is taken', async () => {
    const port = Number(new URL(server.url).port);
    await expect(startLlmTestServer({ port })).rejects.toThrow(/EADDRINUSE/);
    const free = await closedPort();
    const fixed = await startLlmTestServer({ port: free });
    try {
      expect(fixed.url).toBe(`http://127.0.0.1:${free}`);
    } finally {
      await fixed.close();
    }
  });
});

// The providers' stand-in for the browser tests: the agent runtime's local server that speaks
// the OpenAI, Anthropic and Gemini protocols and answers from what it is sent.
import { startLlmTestServer } from '@agentloom/agent-runtime/testing';

const server = await startLlmTestServer({ port: Number(process.env.LLM_TEST_SERVER_PORT) });
console.log(`LLM test server listening on ${server.url}`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

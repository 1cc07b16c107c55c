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

describe('startLlmTestServer', () => {
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

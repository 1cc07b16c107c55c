import { randomUUID } from 'node:crypto';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { configureRagAgent, signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { csvChunks, markBuilt } from '../testing/built-agents';
import { createTestApp, type TestApp } from '../testing/test-app';

const HEADER = ['region', 'product', 'units'];
const ROWS = [
  ['Porto', 'Lantern kits', '1204'],
  ['Lisbon', 'Quokka umbrellas', '7342'],
  ['Braga', 'Tide clocks', '518'],
];

/**
 * Where people already work (issue 31): a published agent through the official `openai` client
 * (models.list, chat, stream) and the official MCP client SDK over streamable HTTP, both with the
 * agent's access keys and both refusing a revoked one.
 */
describe('published agents through OpenAI model listing and MCP', () => {
  let llm: LlmTestServer;
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let fixtures: string;
  let csvPath: string;

  beforeAll(async () => {
    llm = await startLlmTestServer();
    fixtures = mkdtempSync(path.join(tmpdir(), 'channels-'));
    csvPath = path.join(fixtures, 'sales.csv');
    writeFileSync(csvPath, [HEADER, ...ROWS].map((row) => row.join(',')).join('\n') + '\n');
    t = await createTestApp({ OPENAI_BASE_URL: llm.baseUrls.openai ?? '' });
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await rm(fixtures, { recursive: true, force: true });
  });

  async function publishedAgent(user: TestUser, name: string, rateLimit?: number) {
    const id = await configureRagAgent(t.url, user, { file: csvPath, name });
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id, userId: user.id, type: 'rag' },
      csvChunks('sales.csv', HEADER, ROWS),
      t.config,
    );
    const publication = await t.http.put(`/agents/${id}/publication`).set(user.auth).expect(200);
    const key = await t.http
      .post(`/agents/${id}/keys`)
      .set(user.auth)
      .send({ name: 'tests', rate_limit_per_minute: rateLimit })
      .expect(201);
    return {
      id,
      key: key.body.secret as string,
      keyId: key.body.id as string,
      mcpUrl: publication.body.mcp_url as string,
    };
  }

  const openai = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${t.url}/v1`, maxRetries: 0 });

  /** The official MCP client, connected (initialize + initialized) with `key` as the bearer. */
  async function mcpClient(agentId: string, key: string): Promise<Client> {
    const client = new Client({ name: 'agentloom-tests', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/agents/${agentId}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    return client;
  }

  it('documents the model listing and the MCP server beside chat completions', async () => {
    const { body } = await t.http.get('/docs-json').expect(200);
    expect(body.paths['/v1/chat/completions'].post).toBeDefined();
    expect(body.paths['/v1/models'].get.summary).toMatch(/OpenAI-compatible model list/);
    expect(
      body.paths['/v1/models/{id}'].get.responses['200'].content['application/json'].schema.$ref,
    ).toBe('#/components/schemas/OpenAiModelDto');
    expect(body.paths['/agents/{id}/mcp'].post.summary).toMatch(/MCP server/);
  });

  it('lists the agent of a key, answers chat and streams through the openai client', async () => {
    const agent = await publishedAgent(alice, 'Sales desk');
    const other = await publishedAgent(bob, 'Bob desk');
    const client = openai(agent.key);

    const models = [];
    for await (const model of client.models.list()) models.push(model);
    expect(models).toEqual([
      expect.objectContaining({
        id: agent.id,
        object: 'model',
        owned_by: 'agentloom',
        name: 'Sales desk',
      }),
    ]);
    expect(typeof models[0]?.created).toBe('number');
    const one = await client.models.retrieve(agent.id);
    expect(one).toMatchObject({ id: agent.id, object: 'model' });
    const foreign = await client.models.retrieve(other.id).catch((error: unknown) => error);
    expect(foreign).toBeInstanceOf(OpenAI.NotFoundError);
    expect((foreign as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      type: 'not_found_error',
      message: expect.stringMatching(/No published agent has this id/),
    });

    const completion = await client.chat.completions.create({
      model: models[0]!.id,
      messages: [{ role: 'user', content: 'How many Quokka umbrellas were sold in Lisbon?' }],
    });
    expect(completion.choices[0]?.message.content).toMatch(/7342/);
    const stream = await client.chat.completions.create({
      model: agent.id,
      stream: true,
      messages: [{ role: 'user', content: 'Which product sold in Porto?' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toMatch(/Lantern kits/);

    // Another agent's id is not a model of this key.
    await expect(client.models.retrieve(randomUUID())).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    // Unpublished: the agent's keys end with its publication, so listing is refused.
    await t.http.delete(`/agents/${agent.id}/publication`).set(alice.auth).expect(200);
    await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('asks the agent through the official MCP client: initialize, tools/list, tools/call', async () => {
    const agent = await publishedAgent(alice, 'Sales analyst');
    expect(agent.mcpUrl).toMatch(new RegExp(`/agents/${agent.id}/mcp$`));
    const client = await mcpClient(agent.id, agent.key);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'Sales analyst' });
      expect(client.getInstructions()).toMatch(/ask_sales_analyst/);
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(1);
      expect(tools[0]).toMatchObject({
        name: 'ask_sales_analyst',
        title: 'Ask Sales analyst',
        description: expect.stringMatching(/Sales analyst.*RAG over sales\.csv/),
        inputSchema: expect.objectContaining({ required: ['question'] }),
      });

      const result = await client.callTool({
        name: 'ask_sales_analyst',
        arguments: { question: 'How many Quokka umbrellas were sold in Lisbon?' },
      });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as {
        answer: string;
        sources: { citation: string }[];
        conversation_id: string;
      };
      expect(structured.answer).toMatch(/7342/);
      expect(structured.sources[0]?.citation).toMatch(/sales\.csv/);
      const [content] = result.content as { type: string; text: string }[];
      expect(content).toMatchObject({ type: 'text' });
      expect(content?.text).toContain(structured.answer);
      expect(content?.text).toMatch(/Sources:\n\[1\] .*sales\.csv/);

      // A follow-up continues the key's conversation; it is stored like the API's.
      const followUp = await client.callTool({
        name: 'ask_sales_analyst',
        arguments: { question: 'And in Braga?', conversation_id: structured.conversation_id },
      });
      expect(followUp.isError).toBeFalsy();
      const conversation = await t.http
        .get(`/agents/${agent.id}/conversations/${structured.conversation_id}`)
        .set(alice.auth)
        .expect(200);
      expect(conversation.body).toMatchObject({ channel: 'api', messages: 4 });

      const unknown = await client.callTool({
        name: 'ask_sales_analyst',
        arguments: { question: 'Hi', conversation_id: '00000000-0000-4000-8000-000000000000' },
      });
      expect(unknown.isError).toBe(true);
      expect(JSON.stringify(unknown.content)).toMatch(/conversation does not exist/);
    } finally {
      await client.close();
    }
  });

  it('speaks the current protocol revision and refuses GET streams and sessions', async () => {
    const agent = await publishedAgent(alice, 'Protocol check');
    const initialize = await t.http
      .post(`/agents/${agent.id}/mcp`)
      .set({ Authorization: `Bearer ${agent.key}`, Accept: 'application/json, text/event-stream' })
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      })
      .expect(200);
    expect(initialize.body.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(initialize.body.result.capabilities.tools).toBeDefined();
    await t.http
      .get(`/agents/${agent.id}/mcp`)
      .set({ Authorization: `Bearer ${agent.key}` })
      .expect(405);
  });

  /** A raw MCP POST (what a client that is not the SDK may send), with the key as the bearer. */
  const rawMcp = (
    agentId: string,
    key: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.http
      .post(`/agents/${agentId}/mcp`)
      .set({
        Authorization: `Bearer ${key}`,
        Accept: 'application/json, text/event-stream',
        'Mcp-Protocol-Version': LATEST_PROTOCOL_VERSION,
        ...headers,
      })
      .send(body as object);
  const toolCall = (id: number, name: string, question: string) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: { question } },
  });
  const chatCalls = () =>
    llm.requests.filter((request) => request.path.includes('/chat/completions')).length;

  // Issue 42, finding 1: one POST of 1 tools/list + 99 tools/call answered 99 questions on the
  // owner's provider key while the key's count, limited to 1 a minute, grew by one.
  it('refuses a JSON-RPC batch with a JSON-RPC error, so every provider call counts against the key', async () => {
    const agent = await publishedAgent(alice, 'Batch desk', 1);
    const chatsBefore = chatCalls();
    const batch = [
      { jsonrpc: '2.0', id: 0, method: 'tools/list' },
      ...Array.from({ length: 99 }, (_, index) =>
        toolCall(index + 1, 'ask_batch_desk', `Question ${index}: how many Quokka umbrellas?`),
      ),
    ];
    const refused = await rawMcp(agent.id, agent.key, batch).expect(400);
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: expect.stringMatching(/batch/i),
      },
    });
    expect(chatCalls()).toBe(chatsBefore);
    expect(await t.prisma.conversation.count({ where: { accessKeyId: agent.keyId } })).toBe(0);

    // One message per POST: the first call is answered, the next is over the key's limit.
    const answered = await rawMcp(
      agent.id,
      agent.key,
      toolCall(1, 'ask_batch_desk', 'How many Quokka umbrellas were sold in Lisbon?'),
    ).expect(200);
    expect(JSON.stringify(answered.body.result)).toMatch(/7342/);
    await rawMcp(agent.id, agent.key, toolCall(2, 'ask_batch_desk', 'And in Braga?')).expect(429);
    expect(chatCalls()).toBe(chatsBefore + 1);
    expect(await t.prisma.conversation.count({ where: { accessKeyId: agent.keyId } })).toBe(1);
  });

  // Issue 42, finding 5: the MCP spec asks servers to check Origin against DNS rebinding.
  it("refuses a browser's request from a foreign origin with 403, before the key is used", async () => {
    const agent = await publishedAgent(alice, 'Origin desk');
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    for (const origin of ['https://evil.example', 'http://localhost:5174', 'null']) {
      const refused = await rawMcp(agent.id, agent.key, list, { Origin: origin }).expect(403);
      expect(refused.body).toEqual({
        detail: expect.stringMatching(/not allowed to call this MCP server/),
      });
    }
    // Agentloom's own origin, and clients that send no Origin at all (every MCP client outside
    // a browser), are served.
    await rawMcp(agent.id, agent.key, list, { Origin: 'http://localhost:5173' }).expect(200);
    const listed = await rawMcp(agent.id, agent.key, list).expect(200);
    expect(listed.body.result.tools[0].name).toBe('ask_origin_desk');
  });

  it("both refuse a revoked key, another user's agent and a key over its rate limit", async () => {
    const agent = await publishedAgent(alice, 'Revoked desk');
    const theirs = await publishedAgent(bob, 'Other desk');
    await expect(mcpClient(theirs.id, agent.key)).rejects.toThrow(/404|No published agent/);

    await t.http.delete(`/agents/${agent.id}/keys/${agent.keyId}`).set(alice.auth).expect(200);
    const listed = await openai(agent.key)
      .models.list()
      .catch((error: unknown) => error);
    expect(listed).toBeInstanceOf(OpenAI.AuthenticationError);
    const retrieved = await openai(agent.key)
      .models.retrieve(agent.id)
      .catch((e: unknown) => e);
    expect(retrieved).toBeInstanceOf(OpenAI.AuthenticationError);
    const chat = await openai(agent.key)
      .chat.completions.create({ model: agent.id, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(chat).toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(mcpClient(agent.id, agent.key)).rejects.toThrow(/401|not valid or was revoked/);
    const raw = await t.http
      .post(`/agents/${agent.id}/mcp`)
      .set({ Authorization: `Bearer ${agent.key}`, Accept: 'application/json, text/event-stream' })
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
      .expect(401);
    expect(raw.body.detail).toMatch(/revoked/);

    const limited = await publishedAgent(alice, 'Busy desk', 3);
    const client = await mcpClient(limited.id, limited.key); // initialize + initialized: 2
    await client.listTools(); // 3
    await expect(client.listTools()).rejects.toThrow(/429|3 a minute/);
    await client.close().catch(() => undefined);
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answerOf, collect } from './fixtures.spec-helper';
import { languageModel } from './providers';
import { SQL_WRITING_INSTRUCTION, SqlAgent } from './sql-agent';
import { fileSqlEngine, mysqlSqlEngine, postgresSqlEngine, type SqlEngine } from './sql-engines';
import {
  MYSQL_URI,
  PEOPLE,
  POSTGRES_URI,
  resetMysqlPeople,
  resetPostgresPeople,
} from './test-databases.spec-helper';
import { startLlmTestServer, type LlmTestServer } from './testing';

let server: LlmTestServer;
let dir: string;

beforeAll(async () => {
  server = await startLlmTestServer();
  dir = await mkdtemp(path.join(tmpdir(), 'agent-runtime-sql-agent-'));
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  server.requests.length = 0;
  server.sqlReplies.length = 0;
});

async function csvEngine(): Promise<SqlEngine> {
  const file = path.join(dir, 'people.csv');
  const lines = PEOPLE.map((person) => person.join(','));
  await writeFile(file, ['id,name,age,city', ...lines].join('\n'));
  return fileSqlEngine({ kind: 'csv', path: file, tableName: 'people.csv' });
}

const ENGINES = [
  { name: 'a CSV file (SQLite)', open: csvEngine, dialect: 'SQLite' },
  {
    name: 'PostgreSQL',
    open: async () => {
      await resetPostgresPeople('people');
      return postgresSqlEngine({ uri: POSTGRES_URI, table: 'people' });
    },
    dialect: 'PostgreSQL',
  },
  {
    name: 'MySQL',
    open: async () => {
      await resetMysqlPeople('people');
      return mysqlSqlEngine({ uri: MYSQL_URI, table: 'people' });
    },
    dialect: 'MySQL',
  },
];

describe.each(ENGINES)('SqlAgent over $name', ({ open, dialect }) => {
  let engine: SqlEngine;
  let agent: SqlAgent;
  const count = async () =>
    (await engine.query('SELECT COUNT(*) FROM people', { timeoutMs: 5000 })).rows[0]?.[0];

  beforeAll(async () => {
    engine = await open();
    const model = languageModel({
      provider: 'openai',
      model: 'gpt-4o-mini',
      apiKey: 'sk-sql-test',
      baseUrls: server.baseUrls,
    });
    agent = new SqlAgent({ model, systemPrompt: 'You answer questions about our people.', engine });
  });

  afterAll(() => engine.close());

  it('runs the SQL the model wrote, capped, and answers with the number', async () => {
    const events = await collect(agent.ask('How many people are there?'));

    expect(events.slice(0, 2)).toEqual([
      { type: 'sql', sql: 'SELECT COUNT(*) FROM people\nLIMIT 100' },
      { type: 'table', columns: [expect.any(String)], rows: [[5]], truncated: false },
    ]);
    expect(answerOf(events)).toBe('The answer is 5.');
    expect(events.at(-1)).toEqual({ type: 'done' });

    const [writing, answering] = server.requests.map(
      (request) => (request.body as { messages: { role: string; content: string }[] }).messages,
    );
    expect(writing?.[0]?.content).toContain(`You write SQL for a ${dialect} database`);
    expect(writing?.[0]?.content).toMatch(/^- people \(id \S+, name \S+, age \S+, city \S+\)$/m);
    expect(writing?.[0]?.content).toContain(SQL_WRITING_INSTRUCTION);
    expect(writing?.[1]).toEqual({ role: 'user', content: 'How many people are there?' });
    expect(answering?.[1]?.content).toMatch(
      /^Question: How many people are there\?\n\nSQL:\nSELECT COUNT\(\*\) FROM people\nLIMIT 100\n\nResult \(1 row\):\n.+\n5$/,
    );
  });

  it('shows a result table that reached the row limit as truncated', async () => {
    const limited = new SqlAgent({
      model: languageModel({
        provider: 'groq',
        model: 'llama-3.1-8b-instant',
        apiKey: 'gsk_x',
        baseUrls: server.baseUrls,
      }),
      systemPrompt: '',
      engine,
      rowLimit: 2,
    });
    server.sqlReplies.push('```sql\nSELECT name FROM people ORDER BY id;\n```');
    const events = await collect(limited.ask('List everyone'));
    expect(events.slice(0, 2)).toEqual([
      { type: 'sql', sql: 'SELECT name FROM people ORDER BY id\nLIMIT 2' },
      { type: 'table', columns: ['name'], rows: [['Ada'], ['Bob']], truncated: true },
    ]);
    expect(answerOf(events)).toBe('The answer is Ada.');
  });

  it.each([
    ['DROP TABLE people', 'the model wrote a DROP statement.'],
    ['UPDATE people SET name = 1', 'the model wrote an UPDATE statement.'],
    ['SELECT 1; DELETE FROM people', 'the model wrote 2 statements (SELECT, DELETE).'],
  ])('refuses %s, shows it, runs nothing, and the table is intact', async (sql, reason) => {
    server.sqlReplies.push(sql);
    const events = await collect(agent.ask('Tidy up the table'));

    expect(events).toEqual([
      { type: 'sql', sql },
      { type: 'error', detail: `Only a single read-only SELECT is allowed; ${reason}` },
    ]);
    expect(server.requests).toHaveLength(1); // no answer was asked for
    expect(await count()).toBe(5);
  });

  it('reports a query the database rejects', async () => {
    server.sqlReplies.push('SELECT salary FROM people');
    const events = await collect(agent.ask('What do they earn?'));
    expect(events.map((event) => event.type)).toEqual(['sql', 'error']);
    expect(events[1]).toMatchObject({ type: 'error', detail: expect.stringMatching(/salary/) });
  });

  it('reports a provider failure while writing the SQL', async () => {
    server.failNext(404, 'The model `gpt-4o-mini` does not exist or you do not have access to it.');
    const events = await collect(agent.ask('How many people are there?'));
    expect(events).toEqual([
      {
        type: 'error',
        detail:
          'The provider does not know this model or endpoint (404): The model `gpt-4o-mini` does not exist or you do not have access to it.',
        reason: 'model',
      },
    ]);
  });
});

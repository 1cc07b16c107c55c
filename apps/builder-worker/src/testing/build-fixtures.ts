import type { TStoredPipelineConfig, TUploadSummary } from '@agentloom/contracts';
import { storeKeys } from '@agentloom/server-kit';
import { createPrismaClient, type PrismaClient } from '@agentloom/db';
import { pipelineSecretContext, Vault } from '@agentloom/vault';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { copyFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadWorkerConfig, type WorkerConfig } from '../config/env';

export const TEST_LLM_KEY = 'sk-proj-WorkerSpecSecret-0123456789ABCD';

export function testWorkerConfig(overrides: Record<string, string> = {}): WorkerConfig {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'agentloom-worker-'));
  return loadWorkerConfig(
    {
      NODE_ENV: 'test',
      DATABASE_URL:
        process.env.WORKER_TEST_DATABASE_URL ??
        'postgresql://postgres@127.0.0.1:5432/agentloom_worker_test',
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      DATA_DIR: dataDir,
      // Its own health file: workers of parallel test runs must not share one.
      WORKER_HEALTH_FILE: path.join(dataDir, 'worker-health.json'),
      VAULT_MASTER_KEY: '8+aTXT4KzVZn4qE+N6odMlzlDTQJ+/w+gB0vqTQdFME=',
      QUEUE_PREFIX: `agentloom-worker-test-${process.pid}-${randomUUID().slice(0, 6)}`,
      WORKER_CONCURRENCY: '2',
      LOG_LEVEL: 'silent',
      ...overrides,
    },
    () => undefined,
  );
}

/** What seeding needs of the worker's configuration: where files live and the vault's key. */
export type SeedConfig = Pick<WorkerConfig, 'DATA_DIR' | 'VAULT_MASTER_KEY'>;

/**
 * The uploaded file as the gateway stored it: its content, or (for files too large to hold in
 * memory, as bench:builds uses) the path of a file to copy.
 */
export type SeedUpload = { originalName: string; summary: TUploadSummary } & (
  { content: string | Uint8Array } | { copyFrom: string }
);

export interface SeedOptions {
  agentType?: 'rag' | 'sql';
  name?: string;
  /** The owner; by default a new user is created for the build. */
  userId?: string;
  /** The stored configuration; the uploaded file's entry is filled in from `upload`. */
  config?: TStoredPipelineConfig;
  /** File sources: the uploaded file as the gateway stored it. */
  upload?: SeedUpload;
  /** The LLM key, encrypted as the gateway stores it; TEST_LLM_KEY by default. */
  llmApiKey?: string;
  /** Database sources: the connection URI, encrypted as the gateway stores it. */
  sourceUri?: string;
  /** Pinecone: its API key, encrypted as the gateway stores it. */
  vectorDbApiKey?: string;
}

/**
 * A pipeline as the gateway's wizard leaves it — configuration, encrypted secrets, uploaded
 * file — and a build row in Building, written straight to Postgres and the data folder.
 */
export async function seedBuild(
  prisma: PrismaClient,
  config: SeedConfig,
  options: SeedOptions,
): Promise<{ pipelineId: string; buildId: string; userId: string }> {
  const userId = options.userId ?? (await seedUser(prisma));
  const pipelineId = randomUUID();
  const pipelineConfig: TStoredPipelineConfig = { ...options.config };
  let storedName: string | undefined;
  if (options.upload) {
    const { originalName, summary } = options.upload;
    storedName = `${randomUUID()}${path.extname(originalName)}`;
    mkdirSync(path.join(config.DATA_DIR, storeKeys.uploads(pipelineId)), { recursive: true });
    const stored = path.join(config.DATA_DIR, storeKeys.upload(pipelineId, storedName));
    if ('copyFrom' in options.upload) await copyFile(options.upload.copyFrom, stored);
    else await writeFile(stored, options.upload.content);
    pipelineConfig.file = {
      original_name: originalName,
      size_bytes: (await stat(stored)).size,
      summary,
      uploaded_at: new Date().toISOString(),
    };
  }
  const vault = new Vault(config.VAULT_MASTER_KEY);
  const secret = (value: string | undefined, field: Parameters<typeof pipelineSecretContext>[1]) =>
    value === undefined
      ? undefined
      : vault.encrypt(value, pipelineSecretContext({ id: pipelineId, userId }, field));
  const name = options.name ?? `Agent ${pipelineId.slice(0, 6)}`;
  await prisma.pipeline.create({
    data: {
      id: pipelineId,
      userId,
      name,
      nameKey: name.toLowerCase(),
      agentType: options.agentType ?? 'rag',
      status: 'Building',
      config: pipelineConfig,
      sourceFile: storedName,
      llmApiKeyEncrypted: secret(options.llmApiKey ?? TEST_LLM_KEY, 'llm_api_key'),
      sourceUriEncrypted: secret(options.sourceUri, 'source_uri'),
      vectorDbApiKeyEncrypted: secret(options.vectorDbApiKey, 'vector_db_api_key'),
    },
  });
  const buildId = randomUUID();
  await prisma.build.create({ data: { id: buildId, pipelineId, userId } });
  return { pipelineId, buildId, userId };
}

/** A user row of its own, for builds to belong to. */
export async function seedUser(prisma: PrismaClient): Promise<string> {
  const userId = randomUUID();
  await prisma.user.create({
    data: {
      id: userId,
      username: `u_${userId.slice(0, 8)}`,
      email: `${userId.slice(0, 8)}@example.com`,
      passwordHash: 'not-used-here',
    },
  });
  return userId;
}

/**
 * The everyday case: a RAG agent over a sales CSV, ChromaDB, OpenAI, Streamlit. By default the
 * CSV is a small one held here; `upload` puts another in its place (bench:builds copies a
 * generated file of many MB).
 */
export function seedRagBuild(
  prisma: PrismaClient,
  config: SeedConfig,
  options: {
    name?: string;
    prompt?: string;
    csv?: string;
    upload?: SeedUpload;
  } & Pick<SeedOptions, 'userId' | 'llmApiKey'> = {},
): Promise<{ pipelineId: string; buildId: string; userId: string }> {
  const csv = options.csv ?? 'region,product,amount\nNorth,Widget,120\nSouth,Gadget,80\n';
  return seedBuild(prisma, config, {
    name: options.name ?? `Sales bot ${randomUUID().slice(0, 6)}`,
    userId: options.userId,
    llmApiKey: options.llmApiKey,
    upload: options.upload ?? {
      originalName: 'sales.csv',
      content: csv,
      summary: { kind: 'csv', columns: ['region', 'product', 'amount'], rows: 2 },
    },
    config: {
      source_type: 'csv',
      embedding_model: 'all-MiniLM-L6-v2',
      vector_store: {
        vector_db: 'chromadb',
        url: 'http://chroma:8000',
        dimensions: 384,
        distance_metric: 'cosine',
      },
      llm: { provider: 'openai', model: 'gpt-4o-mini' },
      system_prompt: options.prompt ?? 'Answer from the sales data only.',
      ui: 'streamlit',
    },
  });
}

export const testPrisma = (config: WorkerConfig): PrismaClient =>
  createPrismaClient({ databaseUrl: config.DATABASE_URL, poolSize: 2 });

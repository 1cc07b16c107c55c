// Rows and fakes for the unit tier (`*.service.spec.ts`): a service built directly, its
// repositories replaced by small in-memory fakes that keep the one rule every repository
// query has (scoped to the owner), so a spec checks the service's own rules in milliseconds.
import type { TRagPipelineConfig, TSqlPipelineConfig, TUploadedFile } from '@agentloom/contracts';
import type { Build, KnowledgeSource, Pipeline, Prisma } from '@agentloom/db';
import { Vault } from '@agentloom/vault';
import { randomBytes, randomUUID } from 'node:crypto';
import { loadConfig, type AppConfig } from '../config/env';
import { PipelineSecrets } from '../pipelines/pipeline-secrets';
import type { PipelineStorage } from '../pipelines/pipeline-storage';
import type { PipelineChanges, PipelinesRepository } from '../pipelines/pipelines.repository';
import { PipelinesService } from '../pipelines/pipelines.service';
import { WizardSessions } from '../wizard/wizard-sessions';

export const OWNER = '11111111-1111-4111-8111-111111111111';
export const STRANGER = '22222222-2222-4222-8222-222222222222';

/** The gateway's settings as the test environment gives them, with some changed. */
export function unitConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return { ...loadConfig(process.env, () => undefined), ...overrides };
}

/** A vault with a fresh key: secrets really encrypt, and decrypt only in their own context. */
export const unitSecrets = () => new PipelineSecrets(new Vault(randomBytes(32)));

export const SALES_CSV: TUploadedFile = {
  original_name: 'sales.csv',
  size_bytes: 120,
  summary: { kind: 'csv', columns: ['region', 'total'], rows: 3 },
  uploaded_at: '2026-01-01T00:00:00.000Z',
};

/** What a RAG agent whose every wizard step is done holds in `pipelines.config`. */
export const COMPLETE_RAG_ANSWERS: Omit<TRagPipelineConfig, 'agent_type'> = {
  source_type: 'csv',
  file: SALES_CSV,
  embedding_model: 'all-MiniLM-L6-v2',
  vector_store: {
    vector_db: 'chromadb',
    url: 'http://127.0.0.1:8000',
    dimensions: 384,
    distance_metric: 'cosine',
  },
  llm: { provider: 'openai', model: 'gpt-4o-mini' },
  system_prompt: 'Answer from the sales figures.',
  ui: 'gradio',
};

/** The same for a SQL agent over an uploaded CSV file. */
export const COMPLETE_SQL_ANSWERS: Omit<TSqlPipelineConfig, 'agent_type'> = {
  source_type: 'csv',
  file: SALES_CSV,
  llm: { provider: 'openai', model: 'gpt-4o-mini' },
  system_prompt: 'Answer with the sales table.',
  framework: 'sql_query_file',
  ui: 'streamlit',
};

/** A pipeline row of OWNER: a new RAG agent unless told otherwise. */
export function pipelineRow(overrides: Partial<Pipeline> = {}): Pipeline {
  return {
    id: randomUUID(),
    userId: OWNER,
    name: 'Sales',
    nameKey: 'sales',
    agentType: 'rag',
    status: 'Draft',
    config: {},
    sourceFile: null,
    sourceUriEncrypted: null,
    llmApiKeyEncrypted: null,
    vectorDbApiKeyEncrypted: null,
    llmApiKeyId: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  };
}

/** A pipeline whose wizard is complete: its file and LLM key are stored beside the answers. */
export function completePipeline(
  agentType: 'rag' | 'sql',
  overrides: Partial<Pipeline> = {},
): Pipeline {
  return pipelineRow({
    agentType,
    config: (agentType === 'rag'
      ? COMPLETE_RAG_ANSWERS
      : COMPLETE_SQL_ANSWERS) as Prisma.JsonObject,
    sourceFile: 'stored-sales.csv',
    llmApiKeyEncrypted: 'v1.iv.tag.llm-key',
    ...overrides,
  });
}

export function buildRow(pipeline: Pipeline, overrides: Partial<Build> = {}): Build {
  return {
    id: randomUUID(),
    pipelineId: pipeline.id,
    userId: pipeline.userId,
    status: 'Building',
    stages: [],
    error: null,
    artifact: null,
    artifactBytes: null,
    snapshot: null,
    hostedIndex: null,
    trigger: 'wizard',
    knowledgeChanges: [],
    evaluation: null,
    attempts: 0,
    createdAt: new Date('2026-01-02T00:00:00Z'),
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

export function sourceRow(
  pipeline: Pipeline,
  overrides: Partial<KnowledgeSource> = {},
): KnowledgeSource {
  return {
    id: randomUUID(),
    pipelineId: pipeline.id,
    userId: pipeline.userId,
    kind: 'file',
    sourceType: 'csv',
    name: 'prices.csv',
    primary: false,
    status: 'ready',
    error: null,
    chunks: 4,
    refresh: 'off',
    failedRefreshes: 0,
    fingerprint: 'file:stored-prices.csv',
    contentVersion: 1,
    settings: {
      file: {
        stored_name: 'stored-prices.csv',
        upload: { ...SALES_CSV, original_name: 'prices.csv' },
      },
    },
    uriEncrypted: null,
    progress: null,
    lastChange: null,
    lastChangedAt: null,
    lastRefreshedAt: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  };
}

type RowsRepository = Pick<PipelinesRepository, 'findOwned' | 'updateOwned' | 'storedUploadBytes'>;

/** The pipelines table in memory, answering as PipelinesRepository does: only to the owner. */
export class PipelineRows implements RowsRepository {
  readonly rows = new Map<string, Pipeline>();
  /** Every change written, in order. */
  readonly writes: PipelineChanges[] = [];
  /** What storedUploadBytes answers: the bytes the owner's other agents' uploads take. */
  otherUploads = 0;

  constructor(...rows: Pipeline[]) {
    for (const row of rows) this.rows.set(row.id, row);
  }

  findOwned(id: string, userId: string): Promise<Pipeline | null> {
    const row = this.rows.get(id);
    return Promise.resolve(row?.userId === userId ? row : null);
  }

  async updateOwned(
    id: string,
    userId: string,
    changes: PipelineChanges,
  ): Promise<Pipeline | null> {
    const row = await this.findOwned(id, userId);
    if (!row) return null;
    this.writes.push(changes);
    const { config, ...columns } = changes;
    const updated: Pipeline = {
      ...row,
      ...columns,
      ...(config !== undefined && { config: config as Prisma.JsonValue }),
    };
    this.rows.set(id, updated);
    return updated;
  }

  storedUploadBytes(): Promise<number> {
    return Promise.resolve(this.otherUploads);
  }

  /** The row as stored now. */
  get(id: string): Pipeline {
    const row = this.rows.get(id);
    if (!row) throw new Error(`No pipeline ${id}`);
    return row;
  }

  asRepository(): PipelinesRepository {
    return this as unknown as PipelinesRepository;
  }
}

/** The real PipelinesService over these rows (findOwned: another owner's agent is a 404). */
export function pipelinesOver(rows: PipelineRows): PipelinesService {
  return new PipelinesService(
    unitConfig(),
    rows.asRepository(),
    unitSecrets(),
    {} as PipelineStorage,
  );
}

/** The wizard's real sessions over these rows: each step reads and writes them. */
export function wizardOver(rows: PipelineRows): WizardSessions {
  return new WizardSessions(pipelinesOver(rows), rows.asRepository());
}

/** A service's collaborator, given as the few methods a spec fakes. */
export function fakeOf<T>(methods: Partial<Record<keyof T, unknown>>): T {
  return methods as unknown as T;
}

/** The HTTP status and `{detail}` text a call was refused with (fails if it was not). */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; detail: string }> {
  const error: unknown = await call.then(
    () => new Error('The call was not refused.'),
    (thrown: unknown) => thrown,
  );
  const http = error as { getStatus?: () => number; getResponse?: () => unknown };
  if (typeof http.getStatus !== 'function' || typeof http.getResponse !== 'function') throw error;
  const body = http.getResponse();
  const detail =
    typeof body === 'string'
      ? body
      : String(
          (body as { detail?: unknown; message?: unknown }).detail ??
            (body as { message?: unknown }).message,
        );
  return { status: http.getStatus(), detail };
}

import type { Pipeline, Prisma } from '@agentloom/db';
import {
  completePipeline,
  OWNER,
  PipelineRows,
  pipelineRow,
  refusal,
  unitSecrets,
  wizardOver,
} from '../testing/unit-rows';
import { VectorStoreStepService } from './vector-store-step.service';

const PINECONE_KEY = 'pc-0123456789abcdefghij';

function setUp(agent: Pipeline) {
  const rows = new PipelineRows(agent);
  const secrets = unitSecrets();
  return { rows, secrets, store: new VectorStoreStepService(wizardOver(rows), secrets) };
}

const rag = (agent: Pipeline) => ({
  userId: OWNER,
  sessionId: agent.id,
  agentType: 'rag' as const,
});
const local = {
  vector_db: 'qdrant' as const,
  url: 'http://127.0.0.1:6333',
  distance_metric: 'cosine' as const,
  dimensions: undefined,
};
const configOf = (rows: PipelineRows, id: string) => rows.get(id).config as Prisma.JsonObject;

describe('VectorStoreStepService', () => {
  it("refuses dimensions other than the model's, naming the size to use (422)", async () => {
    const agent = completePipeline('rag');
    const { store, rows } = setUp(agent);
    expect(
      await refusal(store.setLocalVectorStore(rag(agent), { ...local, dimensions: 1536 })),
    ).toEqual({
      status: 422,
      detail:
        "all-MiniLM-L6-v2 makes vectors of 384 dimensions, so Vector Dimensions must be 384. Leave it empty to use the model's size.",
    });
    expect(rows.writes).toEqual([]);
    const saved = await store.setLocalVectorStore(rag(agent), local);
    expect(saved.saved.dimensions).toBe(384);
  });

  it('before a model is chosen the given size stands (384 when empty)', async () => {
    const agent = pipelineRow();
    const { store } = setUp(agent);
    expect(
      (await store.setLocalVectorStore(rag(agent), { ...local, dimensions: 768 })).saved.dimensions,
    ).toBe(768);
    expect((await store.setLocalVectorStore(rag(agent), local)).saved.dimensions).toBe(384);
  });

  it("a new embedding model resizes a saved store's vectors", async () => {
    const agent = completePipeline('rag');
    const { store, rows } = setUp(agent);
    await store.setEmbeddingModel(rag(agent), 'text-embedding-3-large');
    expect(configOf(rows, agent.id)).toMatchObject({
      embedding_model: 'text-embedding-3-large',
      vector_store: { vector_db: 'chromadb', dimensions: 3072 },
    });
  });

  it('Pinecone: fields checked (400), key stored encrypted and shown masked; another store forgets it', async () => {
    const agent = completePipeline('rag');
    const { store, rows, secrets } = setUp(agent);
    const fields = {
      api_key: PINECONE_KEY,
      environment: 'us-west1-gcp',
      index_name: 'Sales Index',
    };
    expect(await refusal(store.setPinecone(rag(agent), fields))).toEqual({
      status: 400,
      detail:
        'index_name: Pinecone index names use lower-case letters, digits and hyphens (at most 45).',
    });
    const answer = await store.setPinecone(rag(agent), { ...fields, index_name: 'sales' });
    expect(answer.saved.api_key).toBe('pc-01234...ghij');
    const envelope = rows.get(agent.id).vectorDbApiKeyEncrypted!;
    expect(secrets.decrypt(rows.get(agent.id), 'vector_db_api_key', envelope)).toBe(PINECONE_KEY);
    await store.setVectorStore(rag(agent), 'pinecone');
    expect(rows.get(agent.id).vectorDbApiKeyEncrypted).toBe(envelope);
    await store.setVectorStore(rag(agent), 'milvus');
    expect(rows.get(agent.id).vectorDbApiKeyEncrypted).toBeNull();
    expect(configOf(rows, agent.id).vector_store).toEqual({ vector_db: 'milvus' });
  });
});

import {
  EMBEDDING_DIMENSIONS,
  type TStepAnswer,
  type ZEmbeddingModelSaved,
  type ZLocalVectorDbSaved,
  type ZPineconeSaved,
  type ZVectorDbSaved,
  maskApiKey,
  pineconeFieldsProblem,
  type TEmbeddingModel,
  type TLocalVectorDbRequest,
  type TPineconeCredentialsRequest,
  type TVectorStore,
} from '@agentloom/contracts';
import { BadRequestException, Injectable } from '@nestjs/common';
import { PipelineSecrets } from '../pipelines/pipeline-secrets';
import { PipelineChanges } from '../pipelines/pipelines.repository';
import { vectorDimensions } from './vector-dimensions';
import { WizardCall, WizardSessions } from './wizard-sessions';

type PineconeFields = Omit<TPineconeCredentialsRequest, 'session_id'>;
type LocalStoreFields = Omit<TLocalVectorDbRequest, 'session_id'>;

/**
 * The RAG wizard's embedding and vector store steps (docs/product.md#the-wizard-vector-store). A
 * store's dimensions follow the embedding model; a Pinecone key goes to its encrypted column and
 * comes back masked, and choosing any other store forgets it.
 */
@Injectable()
export class VectorStoreStepService {
  constructor(
    private readonly sessions: WizardSessions,
    private readonly secrets: PipelineSecrets,
  ) {}

  /** A store saved before the model changed follows it: its vectors are the model's size. */
  async setEmbeddingModel(
    call: WizardCall<'rag'>,
    model: TEmbeddingModel,
  ): Promise<TStepAnswer<typeof ZEmbeddingModelSaved>> {
    const session = await this.sessions.open(call);
    const { config } = session;
    config.embedding_model = model;
    if (config.vector_store?.dimensions !== undefined) {
      config.vector_store.dimensions = EMBEDDING_DIMENSIONS[model];
    }
    await this.sessions.save(session);
    return this.sessions.answer(session.pipeline, 'Embedding model saved.', { model_name: model });
  }

  async setVectorStore(
    call: WizardCall<'rag'>,
    store: TVectorStore,
  ): Promise<TStepAnswer<typeof ZVectorDbSaved>> {
    const session = await this.sessions.open(call);
    const { config } = session;
    const changes: PipelineChanges = {};
    if (config.vector_store?.vector_db !== store) {
      config.vector_store = { vector_db: store };
      if (store !== 'pinecone') changes.vectorDbApiKeyEncrypted = null;
    }
    await this.sessions.save(session, changes);
    return this.sessions.answer(session.pipeline, 'Vector store saved.', { vector_db: store });
  }

  async setPinecone(
    call: WizardCall<'rag'>,
    fields: PineconeFields,
  ): Promise<TStepAnswer<typeof ZPineconeSaved>> {
    const problem = pineconeFieldsProblem(fields);
    if (problem) throw new BadRequestException(problem);
    const session = await this.sessions.open(call);
    const { pipeline, config } = session;
    config.vector_store = {
      vector_db: 'pinecone',
      environment: fields.environment,
      index_name: fields.index_name,
    };
    await this.sessions.save(session, {
      vectorDbApiKeyEncrypted: this.secrets.encrypt(pipeline, 'vector_db_api_key', fields.api_key),
    });
    return this.sessions.answer(pipeline, 'Pinecone settings saved.', {
      vector_db: 'pinecone',
      api_key: maskApiKey(fields.api_key),
      environment: fields.environment,
      index_name: fields.index_name,
    });
  }

  async setLocalVectorStore(
    call: WizardCall<'rag'>,
    fields: LocalStoreFields,
  ): Promise<TStepAnswer<typeof ZLocalVectorDbSaved>> {
    const session = await this.sessions.open(call);
    const { config } = session;
    const store = {
      vector_db: fields.vector_db,
      url: fields.url,
      dimensions: vectorDimensions(config.embedding_model, fields.dimensions),
      distance_metric: fields.distance_metric,
    };
    config.vector_store = store;
    await this.sessions.save(session, { vectorDbApiKeyEncrypted: null });
    return this.sessions.answer(session.pipeline, 'Vector store settings saved.', store);
  }
}

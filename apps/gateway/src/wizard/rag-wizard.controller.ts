import { WIZARD_ROUTES } from '@agentloom/contracts';
import { Body, Controller } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import {
  DatabaseSourceSavedDto,
  EmbeddingModelDto,
  EmbeddingModelSavedDto,
  LlmCredentialsDto,
  LlmCredentialsSavedDto,
  LlmProviderDto,
  LlmProviderSavedDto,
  LocalVectorDbDto,
  LocalVectorDbSavedDto,
  PineconeCredentialsDto,
  PineconeSavedDto,
  RagDatabaseSourceDto,
  RagSourceDto,
  RagSourceTypeSavedDto,
  VectorDbDto,
  VectorDbSavedDto,
} from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { FinishStepsService } from './finish-steps.service';
import { LlmStepService } from './llm-step.service';
import { SourceStepService } from './source-step.service';
import { VectorStoreStepService } from './vector-store-step.service';
import { FORM, WizardStep } from './wizard-docs';
import { WizardSharedSteps } from './wizard-shared-steps';

const ROUTES = WIZARD_ROUTES.rag;
/**
 * The RAG wizard's calls (docs/product.md#the-calls-behind-the-screens), form-encoded except the
 * upload.
 */
@ApiTags('RAG wizard')
@ApiBearerAuth()
@ApiConsumes(...FORM)
@Controller()
export class RagWizardController extends WizardSharedSteps({
  kind: 'rag',
  upload: {
    summary: 'Step 3: upload the source file (PDF, CSV, Excel .xlsx or TXT)',
    accepted: '.pdf, .csv, .xlsx or .txt, matching the chosen source type',
  },
  systemPromptSummary: 'Step 7: the system prompt',
  uiSummary: 'Step 8: Gradio or Streamlit',
}) {
  constructor(
    sources: SourceStepService,
    llm: LlmStepService,
    finish: FinishStepsService,
    private readonly vectorStores: VectorStoreStepService,
  ) {
    super(sources, llm, finish);
  }

  @WizardStep(ROUTES.source, 'Step 2: choose the source type', RagSourceTypeSavedDto)
  source(@CurrentUser() user: AuthenticatedUser, @Body() body: RagSourceDto) {
    return this.sources.setSourceType(this.call(user, body.session_id), body.source_type);
  }

  @WizardStep(
    ROUTES.database,
    'Step 3: connect a database table or collection',
    DatabaseSourceSavedDto,
  )
  database(@CurrentUser() user: AuthenticatedUser, @Body() body: RagDatabaseSourceDto) {
    return this.sources.saveDatabaseSource(this.call(user, body.session_id), {
      source_type: body.source_type,
      uri: body.uri,
      database: body.database,
      table: body.collection_or_table,
    });
  }

  @WizardStep(ROUTES.embedding, 'Step 4: choose the embedding model', EmbeddingModelSavedDto)
  embeddings(@CurrentUser() user: AuthenticatedUser, @Body() body: EmbeddingModelDto) {
    return this.vectorStores.setEmbeddingModel(this.call(user, body.session_id), body.model_name);
  }

  @WizardStep(ROUTES.vectorDb, 'Step 5: choose the vector store', VectorDbSavedDto)
  vectorDb(@CurrentUser() user: AuthenticatedUser, @Body() body: VectorDbDto) {
    return this.vectorStores.setVectorStore(this.call(user, body.session_id), body.vector_db);
  }

  @WizardStep(ROUTES.pinecone, 'Step 5: Pinecone API key, environment and index', PineconeSavedDto)
  pinecone(@CurrentUser() user: AuthenticatedUser, @Body() body: PineconeCredentialsDto) {
    return this.vectorStores.setPinecone(this.call(user, body.session_id), body);
  }

  @WizardStep(
    ROUTES.localVectorDb,
    'Step 5: ChromaDB, Qdrant or Milvus URL, dimensions and metric',
    LocalVectorDbSavedDto,
  )
  local(@CurrentUser() user: AuthenticatedUser, @Body() body: LocalVectorDbDto) {
    return this.vectorStores.setLocalVectorStore(this.call(user, body.session_id), body);
  }

  @WizardStep(ROUTES.provider, 'Step 6: choose the LLM provider', LlmProviderSavedDto)
  provider(@CurrentUser() user: AuthenticatedUser, @Body() body: LlmProviderDto) {
    return this.llm.setProvider(this.call(user, body.session_id), body.provider);
  }

  @WizardStep(
    ROUTES.credentials,
    'Step 6: API key (or api_key_id of a saved key) and model of the chosen provider',
    LlmCredentialsSavedDto,
  )
  credentials(@CurrentUser() user: AuthenticatedUser, @Body() body: LlmCredentialsDto) {
    return this.llm.setLlmCredentials(
      this.call(user, body.session_id),
      { api_key: body.api_key, api_key_id: body.api_key_id },
      body.model_name ?? '',
    );
  }
}

import {
  TWizardStepSaved,
  ZEmbeddingModelRequest,
  ZLlmCredentialsRequest,
  ZLlmProviderRequest,
  ZLocalVectorDbRequest,
  ZPineconeCredentialsRequest,
  ZRagDatabaseSourceRequest,
  ZRagSourceRequest,
  ZSessionOnlyRequest,
  ZSystemPromptRequest,
  ZUiRequest,
  ZVectorDbRequest,
} from '@agentloom/contracts';
import { Body, Controller, UploadedFile } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { createZodDto } from 'nestjs-zod';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { WizardService } from './wizard.service';
import { FORM, incomingFile, WizardStep, WizardStepSavedDto, WizardUpload } from './wizard-docs';

class RagSourceDto extends createZodDto(ZRagSourceRequest) {}
class SessionOnlyDto extends createZodDto(ZSessionOnlyRequest) {}
class RagDatabaseSourceDto extends createZodDto(ZRagDatabaseSourceRequest) {}
class EmbeddingModelDto extends createZodDto(ZEmbeddingModelRequest) {}
class VectorDbDto extends createZodDto(ZVectorDbRequest) {}
class PineconeCredentialsDto extends createZodDto(ZPineconeCredentialsRequest) {}
class LocalVectorDbDto extends createZodDto(ZLocalVectorDbRequest) {}
class LlmProviderDto extends createZodDto(ZLlmProviderRequest) {}
class LlmCredentialsDto extends createZodDto(ZLlmCredentialsRequest) {}
class SystemPromptDto extends createZodDto(ZSystemPromptRequest) {}
class UiDto extends createZodDto(ZUiRequest) {}

/** The RAG wizard's calls (SPEC §7), form-encoded except the upload. */
@ApiTags('RAG wizard')
@ApiBearerAuth()
@ApiConsumes(...FORM)
@ApiOkResponse({ type: WizardStepSavedDto })
@Controller('rag/api')
export class RagWizardController {
  constructor(private readonly wizard: WizardService) {}

  private call(user: AuthenticatedUser, sessionId: string) {
    return { userId: user.id, sessionId, agentType: 'rag' as const };
  }

  @WizardStep('source', 'Step 2: choose the source type')
  source(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: RagSourceDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setSourceType(this.call(user, body.session_id), body.source_type);
  }

  @WizardUpload(
    'source/upload',
    'Step 3: upload the source file (PDF, CSV, Excel .xlsx or TXT)',
    '.pdf, .csv, .xlsx or .txt, matching the chosen source type',
  )
  upload(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SessionOnlyDto,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<TWizardStepSaved> {
    return this.wizard.saveUpload(this.call(user, body.session_id), incomingFile(file));
  }

  @WizardStep('source/db', 'Step 3: connect a database table or collection')
  database(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: RagDatabaseSourceDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.saveDatabaseSource(this.call(user, body.session_id), {
      source_type: body.source_type,
      uri: body.uri,
      database: body.database,
      table: body.collection_or_table,
    });
  }

  @WizardStep('embeddings/model', 'Step 4: choose the embedding model')
  embeddings(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: EmbeddingModelDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setEmbeddingModel(this.call(user, body.session_id), body.model_name);
  }

  @WizardStep('vectordb', 'Step 5: choose the vector store')
  vectorDb(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: VectorDbDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setVectorStore(this.call(user, body.session_id), body.vector_db);
  }

  @WizardStep('vectordb/credentials/remote', 'Step 5: Pinecone API key, environment and index')
  pinecone(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: PineconeCredentialsDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setPinecone(this.call(user, body.session_id), body);
  }

  @WizardStep(
    'vectordb/credentials/local',
    'Step 5: ChromaDB, Qdrant or Milvus URL, dimensions and metric',
  )
  local(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: LocalVectorDbDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setLocalVectorStore(this.call(user, body.session_id), body);
  }

  @WizardStep('llm/provider', 'Step 6: choose the LLM provider')
  provider(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: LlmProviderDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setProvider(this.call(user, body.session_id), body.provider);
  }

  @WizardStep(
    'llm/credentials',
    'Step 6: API key (or api_key_id of a saved key) and model of the chosen provider',
  )
  credentials(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: LlmCredentialsDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setLlmCredentials(
      this.call(user, body.session_id),
      { api_key: body.api_key, api_key_id: body.api_key_id },
      body.model_name ?? '',
    );
  }

  @WizardStep('system-prompt', 'Step 7: the system prompt')
  systemPrompt(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SystemPromptDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setSystemPrompt(this.call(user, body.session_id), body.prompt);
  }

  @WizardStep('ui', 'Step 8: Gradio or Streamlit')
  ui(@CurrentUser() user: AuthenticatedUser, @Body() body: UiDto): Promise<TWizardStepSaved> {
    return this.wizard.setUi(this.call(user, body.session_id), body.ui);
  }
}

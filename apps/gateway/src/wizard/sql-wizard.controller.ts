import {
  TWizardStepSaved,
  ZSessionOnlyRequest,
  ZSqlDatabaseSourceRequest,
  ZSqlFrameworkRequest,
  ZSqlLlmKeyRequest,
  ZSqlLlmProviderRequest,
  ZSqlModelRequest,
  ZSqlSourceRequest,
  ZSystemPromptRequest,
  ZUiRequest,
} from '@agentloom/contracts';
import { Body, Controller, UploadedFile } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { createZodDto } from 'nestjs-zod';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { FORM, incomingFile, WizardStep, WizardStepSavedDto, WizardUpload } from './wizard-docs';
import { WizardService } from './wizard.service';

class SqlSourceDto extends createZodDto(ZSqlSourceRequest) {}
class SessionOnlyDto extends createZodDto(ZSessionOnlyRequest) {}
class SqlDatabaseSourceDto extends createZodDto(ZSqlDatabaseSourceRequest) {}
class SqlLlmProviderDto extends createZodDto(ZSqlLlmProviderRequest) {}
class SqlLlmKeyDto extends createZodDto(ZSqlLlmKeyRequest) {}
class SqlModelDto extends createZodDto(ZSqlModelRequest) {}
class SystemPromptDto extends createZodDto(ZSystemPromptRequest) {}
class SqlFrameworkDto extends createZodDto(ZSqlFrameworkRequest) {}
class UiDto extends createZodDto(ZUiRequest) {}

/** The SQL wizard's calls (SPEC §7), form-encoded except the upload. */
@ApiTags('SQL wizard')
@ApiBearerAuth()
@ApiConsumes(...FORM)
@ApiOkResponse({ type: WizardStepSavedDto })
@Controller('sql/config')
export class SqlWizardController {
  constructor(private readonly wizard: WizardService) {}

  private call(user: AuthenticatedUser, sessionId: string) {
    return { userId: user.id, sessionId, agentType: 'sql' as const };
  }

  @WizardStep('source', 'Step 2: choose the source type')
  source(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SqlSourceDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setSourceType(this.call(user, body.session_id), body.source_type);
  }

  @WizardUpload(
    'source-details',
    'Step 3: upload the CSV (csv source) or .xlsx (excel source) file',
    '.csv for a csv source, .xlsx for an excel source',
  )
  upload(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SessionOnlyDto,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<TWizardStepSaved> {
    return this.wizard.saveUpload(this.call(user, body.session_id), incomingFile(file));
  }

  @WizardStep('source-details/db', 'Step 3: connect the database table (MySQL, Postgres or SQLite)')
  database(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SqlDatabaseSourceDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.saveDatabaseSource(this.call(user, body.session_id), {
      uri: body.db_uri,
      database: body.db_name,
      table: body.table_name,
    });
  }

  @WizardStep('llm', 'Step 4: choose the LLM provider')
  provider(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SqlLlmProviderDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setProvider(this.call(user, body.session_id), body.llm_provider);
  }

  @WizardStep('llm-key', 'Step 4: the API key (or api_key_id of a saved key)')
  key(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SqlLlmKeyDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setLlmKey(this.call(user, body.session_id), {
      api_key: body.api_key,
      api_key_id: body.api_key_id,
    });
  }

  @WizardStep('model', 'Step 4: the model of the chosen provider')
  model(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SqlModelDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setModel(this.call(user, body.session_id), body.model);
  }

  @WizardStep('system-prompt', 'Step 5: the system prompt')
  systemPrompt(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SystemPromptDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setSystemPrompt(this.call(user, body.session_id), body.prompt);
  }

  @WizardStep('framework', 'Step 6: the query framework (must suit the source)')
  framework(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SqlFrameworkDto,
  ): Promise<TWizardStepSaved> {
    return this.wizard.setFramework(this.call(user, body.session_id), body.framework);
  }

  @WizardStep('ui', 'Step 7: Streamlit or Gradio')
  ui(@CurrentUser() user: AuthenticatedUser, @Body() body: UiDto): Promise<TWizardStepSaved> {
    return this.wizard.setUi(this.call(user, body.session_id), body.ui);
  }
}

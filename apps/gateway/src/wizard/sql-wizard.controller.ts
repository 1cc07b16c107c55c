import { WIZARD_ROUTES } from '@agentloom/contracts';
import { Body, Controller } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import {
  DatabaseSourceSavedDto,
  LlmKeySavedDto,
  LlmModelSavedDto,
  LlmProviderSavedDto,
  SqlDatabaseSourceDto,
  SqlFrameworkDto,
  SqlFrameworkSavedDto,
  SqlLlmKeyDto,
  SqlLlmProviderDto,
  SqlModelDto,
  SqlSourceDto,
  SqlSourceTypeSavedDto,
} from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { FinishStepsService } from './finish-steps.service';
import { LlmStepService } from './llm-step.service';
import { SourceStepService } from './source-step.service';
import { FORM, WizardStep } from './wizard-docs';
import { WizardSharedSteps } from './wizard-shared-steps';

const ROUTES = WIZARD_ROUTES.sql;
/**
 * The SQL wizard's calls (docs/product.md#the-calls-behind-the-screens), form-encoded except the
 * upload.
 */
@ApiTags('SQL wizard')
@ApiBearerAuth()
@ApiConsumes(...FORM)
@Controller()
export class SqlWizardController extends WizardSharedSteps({
  kind: 'sql',
  upload: {
    summary: 'Step 3: upload the CSV (csv source) or .xlsx (excel source) file',
    accepted: '.csv for a csv source, .xlsx for an excel source',
  },
  systemPromptSummary: 'Step 5: the system prompt',
  uiSummary: 'Step 7: Streamlit or Gradio',
}) {
  constructor(sources: SourceStepService, llm: LlmStepService, finish: FinishStepsService) {
    super(sources, llm, finish);
  }

  @WizardStep(ROUTES.source, 'Step 2: choose the source type', SqlSourceTypeSavedDto)
  source(@CurrentUser() user: AuthenticatedUser, @Body() body: SqlSourceDto) {
    return this.sources.setSourceType(this.call(user, body.session_id), body.source_type);
  }

  @WizardStep(
    ROUTES.database,
    'Step 3: connect the database table (MySQL, Postgres or SQLite)',
    DatabaseSourceSavedDto,
  )
  database(@CurrentUser() user: AuthenticatedUser, @Body() body: SqlDatabaseSourceDto) {
    return this.sources.saveDatabaseSource(this.call(user, body.session_id), {
      uri: body.db_uri,
      database: body.db_name,
      table: body.table_name,
    });
  }

  @WizardStep(ROUTES.provider, 'Step 4: choose the LLM provider', LlmProviderSavedDto)
  provider(@CurrentUser() user: AuthenticatedUser, @Body() body: SqlLlmProviderDto) {
    return this.llm.setProvider(this.call(user, body.session_id), body.llm_provider);
  }

  @WizardStep(ROUTES.key, 'Step 4: the API key (or api_key_id of a saved key)', LlmKeySavedDto)
  key(@CurrentUser() user: AuthenticatedUser, @Body() body: SqlLlmKeyDto) {
    return this.llm.setLlmKey(this.call(user, body.session_id), {
      api_key: body.api_key,
      api_key_id: body.api_key_id,
    });
  }

  @WizardStep(ROUTES.model, 'Step 4: the model of the chosen provider', LlmModelSavedDto)
  model(@CurrentUser() user: AuthenticatedUser, @Body() body: SqlModelDto) {
    return this.llm.setModel(this.call(user, body.session_id), body.model);
  }

  @WizardStep(
    ROUTES.framework,
    'Step 6: the query framework (must suit the source)',
    SqlFrameworkSavedDto,
  )
  framework(@CurrentUser() user: AuthenticatedUser, @Body() body: SqlFrameworkDto) {
    return this.finish.setFramework(this.call(user, body.session_id), body.framework);
  }
}

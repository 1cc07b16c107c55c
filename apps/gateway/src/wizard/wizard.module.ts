import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { incomingUploadsModule } from '../files/incoming-uploads.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { DataSourcesService } from '../sources/data-sources.service';
import { UploadsService } from '../sources/uploads.service';
import { KeyCheckController } from './key-check.controller';
import { KeyCheckService } from './key-check.service';
import { RagWizardController } from './rag-wizard.controller';
import { SourceSampleController } from './source-sample.controller';
import { SourceSampleService } from './source-sample.service';
import { SourceTablesController } from './source-tables.controller';
import { SourceTablesService } from './source-tables.service';
import { SqlWizardController } from './sql-wizard.controller';
import { FinishStepsService } from './finish-steps.service';
import { LlmStepService } from './llm-step.service';
import { SourceStepService } from './source-step.service';
import { VectorStoreStepService } from './vector-store-step.service';
import { WizardSessions } from './wizard-sessions';

@Module({
  imports: [
    PipelinesModule,
    ApiKeysModule,
    incomingUploadsModule({ fields: 10, fieldSize: 16 * 1024, parts: 12 }),
  ],
  controllers: [
    RagWizardController,
    SqlWizardController,
    KeyCheckController,
    SourceSampleController,
    SourceTablesController,
  ],
  providers: [
    WizardSessions,
    SourceStepService,
    VectorStoreStepService,
    LlmStepService,
    FinishStepsService,
    KeyCheckService,
    SourceSampleService,
    SourceTablesService,
    UploadsService,
    DataSourcesService,
  ],
  // The agent import replays a file through the same steps (agent-files/).
  exports: [SourceStepService, VectorStoreStepService, LlmStepService, FinishStepsService],
})
export class WizardModule {}

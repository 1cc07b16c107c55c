import { Module } from '@nestjs/common';
import { incomingUploadsModule } from '../files/incoming-uploads.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { WizardModule } from '../wizard/wizard.module';
import { AgentExportService } from './agent-export.service';
import { AgentFilesController } from './agent-files.controller';
import { AgentImportService } from './agent-import.service';
import { AgentWizardReplay } from './agent-wizard-replay';

/** Agents as files: export from My Agents, import as a new draft through the wizard's steps. */
@Module({
  imports: [
    PipelinesModule,
    WizardModule,
    incomingUploadsModule({ fields: 10, fieldSize: 16 * 1024, parts: 12 }),
  ],
  controllers: [AgentFilesController],
  providers: [AgentExportService, AgentImportService, AgentWizardReplay],
})
export class AgentFilesModule {}

import { Module } from '@nestjs/common';
import { PipelineSecrets } from './pipeline-secrets';
import { PipelineStorage } from './pipeline-storage';
import { PipelinesRepository } from './pipelines.repository';
import { PipelinesService } from './pipelines.service';

/**
 * Pipelines without their routes: the rows, the rules, the secrets and files a pipeline owns.
 * Modules that serve no pipeline route (the agents a runtime replica loads) import this one.
 */
@Module({
  providers: [PipelinesRepository, PipelinesService, PipelineSecrets, PipelineStorage],
  exports: [PipelinesRepository, PipelinesService, PipelineSecrets, PipelineStorage],
})
export class PipelinesCoreModule {}

import { Module } from '@nestjs/common';
import { PipelineSecrets } from './pipeline-secrets';
import { PipelineStorage } from './pipeline-storage';
import { PipelinesController } from './pipelines.controller';
import { PipelinesRepository } from './pipelines.repository';
import { PipelinesService } from './pipelines.service';

@Module({
  controllers: [PipelinesController],
  providers: [PipelinesRepository, PipelinesService, PipelineSecrets, PipelineStorage],
  exports: [PipelinesRepository, PipelinesService, PipelineSecrets, PipelineStorage],
})
export class PipelinesModule {}

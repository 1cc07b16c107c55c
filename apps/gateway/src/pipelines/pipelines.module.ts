import { Module } from '@nestjs/common';
import { PipelinesController } from './pipelines.controller';
import { PipelinesCoreModule } from './pipelines-core.module';

@Module({
  imports: [PipelinesCoreModule],
  controllers: [PipelinesController],
  exports: [PipelinesCoreModule],
})
export class PipelinesModule {}

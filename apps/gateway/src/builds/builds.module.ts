import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { KnowledgeCoreModule } from '../knowledge/knowledge-core.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { BuildEventsGateway } from './build-events.gateway';
import { BuildEventsRelay } from './build-events.relay';
import { BuildQueue } from './build-queue';
import { BuildsController } from './builds.controller';
import { BuildsRepository } from './builds.repository';
import { BuildsService } from './builds.service';

@Module({
  imports: [PipelinesModule, AuthModule, KnowledgeCoreModule],
  controllers: [BuildsController],
  providers: [BuildsRepository, BuildsService, BuildQueue, BuildEventsRelay, BuildEventsGateway],
  exports: [BuildsService, BuildsRepository, BuildQueue],
})
export class BuildsModule {}

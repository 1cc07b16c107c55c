import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { BuildsModule } from '../builds/builds.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import {
  ExpectedQuestionsController,
  ExpectedQuestionsService,
} from './expected-questions.controller';
import { RetrievalController } from './retrieval.controller';
import { RetrievalService } from './retrieval.service';

/**
 * A RAG agent's retrieval settings, the owner's retrieval test (docs/retrieval.md) and the
 * questions its builds are evaluated on (docs/evaluation.md).
 */
@Module({
  imports: [AgentsModule, PipelinesModule, BuildsModule],
  controllers: [RetrievalController, ExpectedQuestionsController],
  providers: [RetrievalService, ExpectedQuestionsService],
})
export class RetrievalModule {}

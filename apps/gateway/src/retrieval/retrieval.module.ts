import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { BuildsModule } from '../builds/builds.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { RetrievalController } from './retrieval.controller';
import { RetrievalService } from './retrieval.service';

/** A RAG agent's retrieval settings and the owner's retrieval test (docs/retrieval.md). */
@Module({
  imports: [AgentsModule, PipelinesModule, BuildsModule],
  controllers: [RetrievalController],
  providers: [RetrievalService],
})
export class RetrievalModule {}

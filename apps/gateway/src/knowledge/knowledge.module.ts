import { Module } from '@nestjs/common';
import { BuildsModule } from '../builds/builds.module';
import { incomingUploadsModule } from '../files/incoming-uploads.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { SourcesModule } from '../sources/sources.module';
import { KnowledgeCoreModule } from './knowledge-core.module';
import { KnowledgeController } from './knowledge.controller';
import { KnowledgeService } from './knowledge.service';

/** A RAG agent's knowledge sources and their changes (docs/knowledge.md). */
@Module({
  imports: [
    KnowledgeCoreModule,
    PipelinesModule,
    BuildsModule,
    SourcesModule,
    incomingUploadsModule({ fields: 10, fieldSize: 16 * 1024, parts: 12 }),
  ],
  controllers: [KnowledgeController],
  providers: [KnowledgeService],
})
export class KnowledgeModule {}

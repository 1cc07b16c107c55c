import { Module } from '@nestjs/common';
import { KnowledgeQueue } from './knowledge-queue';
import { KnowledgeRepository } from './knowledge.repository';

/**
 * Agents' knowledge without its routes: the sources' rows (builds name them in their snapshots)
 * and the knowledge queue (refreshes, schedules, indexing of older builds).
 */
@Module({
  providers: [KnowledgeRepository, KnowledgeQueue],
  exports: [KnowledgeRepository, KnowledgeQueue],
})
export class KnowledgeCoreModule {}

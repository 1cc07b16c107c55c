import { Module } from '@nestjs/common';
import { ApiKeysCoreModule } from '../api-keys/api-keys-core.module';
import { KnowledgeCoreModule } from '../knowledge/knowledge-core.module';
import { PipelinesCoreModule } from '../pipelines/pipelines-core.module';
import { SourcesModule } from '../sources/sources.module';
import { AgentLoader } from './agent-loader';
import { AgentsRepository } from './agents.repository';
import { CuratedMatcher } from './curated-matcher';
import { CuratedVersions } from './curated-versions';
import { HostedIndexes } from './hosted-indexes';
import { LoadedAgents } from './loaded-agents';
import { LocalAnswers } from './local-answers';

/**
 * Loading and keeping agents, and answering with them, in this process: a Built build's agent
 * (its snapshot, hosted index or SQL source, provider key), the loaded agents' slots and memory
 * budget, and published answers made here. No routes: previews, published agents and the
 * runtime replica (runtime-main.ts) each import it and serve their own.
 */
@Module({
  imports: [PipelinesCoreModule, ApiKeysCoreModule, SourcesModule, KnowledgeCoreModule],
  providers: [
    AgentsRepository,
    AgentLoader,
    CuratedMatcher,
    CuratedVersions,
    HostedIndexes,
    LoadedAgents,
    LocalAnswers,
  ],
  exports: [AgentLoader, CuratedVersions, LoadedAgents, LocalAnswers],
})
export class AgentsModule {}

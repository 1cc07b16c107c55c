import { Module } from '@nestjs/common';
import { BuildsModule } from '../builds/builds.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { PassagesModule } from '../passages/passages.module';
import { AgentsModule } from '../agents/agents.module';
import { AgentApiController } from './agent-api.controller';
import { ConversationsRepository } from './conversations.repository';
import { ConversationsService } from './conversations.service';
import { McpController } from './mcp.controller';
import { McpAgentServers } from './mcp.service';
import { ModelsController } from './models.controller';
import { PublishedModelsService } from './models.service';
import { OpenAiCompatController } from './openai-compat.controller';
import { PublicationsController } from './publications.controller';
import { PublicationsService } from './publications.service';
import { AccessKeyUses } from './access-key-uses';
import { PublishedAgentsService } from './published-agents.service';
import { PublishedRepository } from './published.repository';
import { RateLimiter } from './rate-limiter';
import { RefusedOrigins } from './refused-origins';
import { RuntimeReplicas } from './runtime-replicas';
import { VisitorAccess } from './visitor-access';
import { WidgetController } from './widget.controller';

/**
 * Published agents (issue 20): a built agent served permanently from the platform through its
 * API, an OpenAI-compatible endpoint, a share page and a chat widget, with the preview's runtime.
 */
@Module({
  imports: [PipelinesModule, BuildsModule, AgentsModule, PassagesModule],
  controllers: [
    PublicationsController,
    AgentApiController,
    OpenAiCompatController,
    ModelsController,
    McpController,
    WidgetController,
  ],
  providers: [
    PublishedRepository,
    AccessKeyUses,
    ConversationsRepository,
    PublicationsService,
    PublishedAgentsService,
    ConversationsService,
    RateLimiter,
    RuntimeReplicas,
    PublishedModelsService,
    McpAgentServers,
    VisitorAccess,
    RefusedOrigins,
  ],
})
export class PublishedModule {}

import { INSIGHTS_ROUTES, type TAgentInsights } from '@agentloom/contracts';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { AgentInsightsDto } from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { InsightsService } from './insights.service';

/** What the owner learns from a published agent's conversations. Another owner's agent is 404. */
@ApiTags('insights')
@ApiBearerAuth()
@Controller()
export class InsightsController {
  constructor(private readonly insights: InsightsService) {}

  /**
   * The last 14 days: questions per day, and the answers given without a source or with a thumbs
   * down, each with its question.
   */
  @Get(INSIGHTS_ROUTES.insights)
  @ApiOkResponse({ type: AgentInsightsDto })
  insightsOf(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TAgentInsights> {
    return this.insights.of(user.id, id);
  }
}

import { PASSAGE_ROUTES, type TPassageView } from '@agentloom/contracts';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { PassageViewDto } from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { PassagesService } from './passages.service';

/**
 * Citations you can open, for the agent's owner: the passage a citation names, read from the
 * build's own index, with its neighbours. Another owner's agent, an unknown id, another agent's
 * or another build's passage: 404.
 */
@ApiTags('retrieval')
@ApiBearerAuth()
@Controller()
export class PassagesController {
  constructor(private readonly passages: PassagesService) {}

  /** `build_id`: the build that answered (default: the agent's newest Built build). */
  @Get(PASSAGE_ROUTES.owner)
  @ApiOkResponse({ type: PassageViewDto })
  @ApiQuery({ name: 'build_id', required: false })
  open(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('passageId') passageId: string,
    @Query('build_id') buildId: unknown,
  ): Promise<TPassageView> {
    return this.passages.open(
      {
        by: 'owner',
        userId: user.id,
        agentId: id,
        ...(typeof buildId === 'string' && buildId !== '' && { buildId }),
      },
      passageId,
    );
  }
}

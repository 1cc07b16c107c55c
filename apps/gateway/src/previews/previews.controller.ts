import {
  ZImageAgentLaunched,
  ZPreviewStarted,
  type TImageAgentLaunched,
  type TPreviewStarted,
} from '@agentloom/contracts';
import { Controller, HttpCode, HttpStatus, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { createZodDto } from 'nestjs-zod';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { PreviewsService } from './previews.service';

class PreviewStartedDto extends createZodDto(ZPreviewStarted) {}
class ImageAgentLaunchedDto extends createZodDto(ZImageAgentLaunched) {}

/** Where the caller reached this gateway, for absolute links when PUBLIC_URL is not set. */
const originOf = (request: Request) =>
  `${request.protocol}://${request.get('host') ?? 'localhost'}`;

/** SPEC §7 "Previews and downloads": the owner starts a preview and gets its link. */
@ApiTags('previews')
@ApiBearerAuth()
@Controller()
export class PreviewsController {
  constructor(private readonly previews: PreviewsService) {}

  @Post('rag/previews/:sessionId/start')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: PreviewStartedDto })
  startRag(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
    @Req() request: Request,
  ): Promise<TPreviewStarted> {
    return this.previews.start(user.id, sessionId, 'rag', originOf(request));
  }

  @Post('sql/previews/previews/:sessionId/start')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: PreviewStartedDto })
  startSql(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
    @Req() request: Request,
  ): Promise<TPreviewStarted> {
    return this.previews.start(user.id, sessionId, 'sql', originOf(request));
  }

  @Post('img/launch-streamlit-app')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: ImageAgentLaunchedDto })
  launchImageAgent(
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: Request,
  ): Promise<TImageAgentLaunched> {
    return this.previews.launchImageAgent(user.id, originOf(request));
  }
}

import type { TPreviewStarted } from '@agentloom/contracts';
import { Controller, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { PreviewStartedDto } from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { PreviewsService } from './previews.service';

/**
 * Previews (docs/product.md#build-progress-preview-and-download): the owner starts a preview and
 * gets its link.
 */
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
  ): Promise<TPreviewStarted> {
    return this.previews.start(user.id, sessionId, 'rag');
  }

  @Post('sql/previews/previews/:sessionId/start')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: PreviewStartedDto })
  startSql(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
  ): Promise<TPreviewStarted> {
    return this.previews.start(user.id, sessionId, 'sql');
  }
}

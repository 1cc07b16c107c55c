import { BUILD_ROUTES, TBuildHistoryItem, TBuildStarted, TBuildView } from '@agentloom/contracts';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import {
  BuildHistoryItemDto,
  BuildStartedDto,
  BuildViewDto,
  SessionOnlyDto,
} from '../common/api-dtos';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { FORM } from '../wizard/wizard-docs';
import { BuildsService } from './builds.service';

const BUILD_QUERY = {
  name: 'build',
  required: false,
  description: 'A build id from the agent’s build list; without it, the latest Built zip.',
} as const;

/**
 * Build calls (docs/product.md#the-calls-behind-the-screens): starting a build, its progress, and
 * the zip.
 */
@ApiTags('builds')
@ApiBearerAuth()
@Controller()
export class BuildsController {
  constructor(private readonly builds: BuildsService) {}

  @Post(BUILD_ROUTES.start.rag)
  @HttpCode(200)
  @ApiConsumes(...FORM)
  @ApiOperation({ summary: 'Start building the RAG agent (the configuration must be complete)' })
  @ApiOkResponse({ type: BuildStartedDto })
  buildRag(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SessionOnlyDto,
  ): Promise<TBuildStarted> {
    return this.builds.start(user.id, body.session_id, 'rag');
  }

  @Post(BUILD_ROUTES.start.sql)
  @HttpCode(200)
  @ApiConsumes(...FORM)
  @ApiOperation({ summary: 'Start building the SQL agent (the configuration must be complete)' })
  @ApiOkResponse({ type: BuildStartedDto })
  buildSql(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: SessionOnlyDto,
  ): Promise<TBuildStarted> {
    return this.builds.start(user.id, body.session_id, 'sql');
  }

  @Get(BUILD_ROUTES.view)
  @ApiOperation({ summary: 'The latest build of an agent: status, stages with times, error' })
  @ApiOkResponse({ type: BuildViewDto })
  latest(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
  ): Promise<TBuildView> {
    return this.builds.latest(user.id, sessionId);
  }

  @Get(BUILD_ROUTES.history)
  @ApiOperation({
    summary: 'An agent’s builds, newest first: number, status, times, what changed, its zip',
  })
  @ApiOkResponse({ type: [BuildHistoryItemDto] })
  history(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TBuildHistoryItem[]> {
    return this.builds.history(user.id, id);
  }

  @Get(BUILD_ROUTES.download.rag)
  @ApiProduces('application/zip')
  @ApiQuery(BUILD_QUERY)
  @ApiOperation({ summary: 'Download the built RAG agent as rag-agent-{sessionId}.zip' })
  downloadRag(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
    @Query('build') buildId: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    return this.download(user, sessionId, 'rag', buildId, response);
  }

  @Get(BUILD_ROUTES.download.sql)
  @ApiProduces('application/zip')
  @ApiQuery(BUILD_QUERY)
  @ApiOperation({ summary: 'Download the built SQL agent as sql-agent-{sessionId}.zip' })
  downloadSql(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
    @Query('build') buildId: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    return this.download(user, sessionId, 'sql', buildId, response);
  }

  private async download(
    user: AuthenticatedUser,
    sessionId: string,
    type: 'rag' | 'sql',
    buildId: string | undefined,
    response: Response,
  ): Promise<StreamableFile> {
    const zip = await this.builds.download(user.id, sessionId, type, buildId);
    // Helmet already sends X-Content-Type-Options: nosniff on every answer.
    response.setHeader('Cache-Control', 'private, no-store');
    return new StreamableFile(zip.stream, {
      type: 'application/zip',
      disposition: `attachment; filename="${zip.fileName}"`,
      length: zip.size,
    });
  }
}

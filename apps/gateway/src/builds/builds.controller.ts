import {
  TBuildStarted,
  TBuildView,
  ZBuildStarted,
  ZBuildView,
  ZSessionOnlyRequest,
} from '@agentloom/contracts';
import { Body, Controller, Get, HttpCode, Param, Post, Res, StreamableFile } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { createZodDto } from 'nestjs-zod';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { FORM } from '../wizard/wizard-docs';
import { BuildsService } from './builds.service';

class SessionOnlyDto extends createZodDto(ZSessionOnlyRequest) {}
class BuildStartedDto extends createZodDto(ZBuildStarted) {}
class BuildViewDto extends createZodDto(ZBuildView) {}

/** Build calls as SPEC §7 names them: starting a build, its progress, and the zip. */
@ApiTags('builds')
@ApiBearerAuth()
@Controller()
export class BuildsController {
  constructor(private readonly builds: BuildsService) {}

  @Post('rag/api/build/agent')
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

  @Post('sql/build/api/build/agent')
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

  @Get('builds/:sessionId')
  @ApiOperation({ summary: 'The latest build of an agent: status, stages with times, error' })
  @ApiOkResponse({ type: BuildViewDto })
  latest(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
  ): Promise<TBuildView> {
    return this.builds.latest(user.id, sessionId);
  }

  @Get('rag/builds/:sessionId/download')
  @ApiProduces('application/zip')
  @ApiOperation({ summary: 'Download the built RAG agent as rag-agent-{sessionId}.zip' })
  downloadRag(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    return this.download(user, sessionId, 'rag', response);
  }

  @Get('sql/builds/:sessionId/download')
  @ApiProduces('application/zip')
  @ApiOperation({ summary: 'Download the built SQL agent as sql-agent-{sessionId}.zip' })
  downloadSql(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    return this.download(user, sessionId, 'sql', response);
  }

  private async download(
    user: AuthenticatedUser,
    sessionId: string,
    type: 'rag' | 'sql',
    response: Response,
  ): Promise<StreamableFile> {
    const zip = await this.builds.download(user.id, sessionId, type);
    // Helmet already sends X-Content-Type-Options: nosniff on every answer.
    response.setHeader('Cache-Control', 'private, no-store');
    return new StreamableFile(zip.stream, {
      type: 'application/zip',
      disposition: `attachment; filename="${zip.fileName}"`,
      length: zip.size,
    });
  }
}

import type { TAgentImportPlan, TPipelineCreated } from '@agentloom/contracts';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Res,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { AgentImportPlanDto, AgentImportRequestDto, PipelineCreatedDto } from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { SingleFileUpload } from '../files/single-file-upload.interceptor';
import { AgentExportService } from './agent-export.service';
import { AgentImportService, importMaxBytes } from './agent-import.service';

const FILE_BODY = {
  schema: {
    type: 'object' as const,
    required: ['file'],
    properties: {
      file: {
        type: 'string' as const,
        format: 'binary',
        description: 'The exported .zip, a downloaded agent zip, or an agent.json',
      },
    },
  },
};
const AgentFileUpload = () =>
  UseInterceptors(SingleFileUpload('file', importMaxBytes, 'The agent file'));

/** My Agents' export and "Import agent" (issue 31). */
@ApiTags('pipelines')
@ApiBearerAuth()
@Controller('pipelines')
export class AgentFilesController {
  constructor(
    private readonly exports: AgentExportService,
    private readonly imports: AgentImportService,
  ) {}

  @Get(':id/export')
  @ApiOperation({
    summary: 'Export an agent as a file (agent.json, prompt and source file; no secrets)',
  })
  @ApiProduces('application/zip')
  async export(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Res() response: Response,
  ): Promise<void> {
    const exported = await this.exports.export(user.id, id);
    response.status(HttpStatus.OK).set({
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${exported.fileName}"`,
      'X-Content-Type-Options': 'nosniff',
    });
    exported.zip.pipe(response);
  }

  @Post('import/check')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Read an agent file: what it holds and what the import asks for' })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_BODY)
  @ApiOkResponse({ type: AgentImportPlanDto })
  @AgentFileUpload()
  check(@UploadedFile() file?: Express.Multer.File): Promise<TAgentImportPlan> {
    return this.imports.check(file?.path);
  }

  @Post('import')
  @ApiOperation({
    summary: 'Import an agent file as a new draft',
    description:
      'Multipart: `file` and what the file leaves out (see import/check): `api_key` or ' +
      '`api_key_id`, `vector_db_api_key`, `database_password` or `database_uri`, ' +
      '`system_prompt`; `name` to rename it. Every step is checked as the wizard checks it.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiCreatedResponse({ type: PipelineCreatedDto })
  @AgentFileUpload()
  import(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: AgentImportRequestDto,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<TPipelineCreated> {
    return this.imports.import(user.id, file?.path, body);
  }
}

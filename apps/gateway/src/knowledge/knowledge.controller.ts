import {
  KNOWLEDGE_ROUTES,
  ZAddSourceRequest,
  ZSourceScheduleRequest,
  type TKnowledgeSource,
  type TKnowledgeSources,
} from '@agentloom/contracts';
import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Put,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import {
  AddTableSourceDto,
  AddWebSourceDto,
  KnowledgeSourceDto,
  KnowledgeSourcesDto,
  SourceScheduleRequestDto,
} from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { describeZodError } from '../common/http-exception.filter';
import { SingleFileUpload } from '../files/single-file-upload.interceptor';
import { KnowledgeService, type IncomingFile } from './knowledge.service';

const upload = () =>
  UseInterceptors(SingleFileUpload('file', (config) => config.UPLOAD_MAX_BYTES, 'The file'));

const incoming = (file: Express.Multer.File): IncomingFile => ({
  path: file.path,
  originalName: file.originalname,
  size: file.size,
});

/**
 * A RAG agent's knowledge: its sources (files, database tables, web pages), each added, replaced
 * by a new version, refreshed now or on a schedule, or removed. Every change becomes a build
 * that embeds only what changed. Owner only: another owner's agent answers 404.
 */
@ApiTags('knowledge')
@ApiBearerAuth()
@Controller()
export class KnowledgeController {
  constructor(private readonly knowledge: KnowledgeService) {}

  @Get(KNOWLEDGE_ROUTES.list)
  @ApiOkResponse({ type: KnowledgeSourcesDto })
  list(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TKnowledgeSources> {
    return this.knowledge.list(user.id, id);
  }

  /**
   * Adds a source: a file as multipart form data (field `file`), or JSON naming a database table
   * (`kind: "table"`) or web pages (`kind: "web"`). Answers the new source; reading and indexing
   * it starts at once (its status says how far).
   */
  @Post(KNOWLEDGE_ROUTES.add)
  @upload()
  @ApiConsumes('multipart/form-data', 'application/json')
  @ApiBody({
    description:
      'Multipart form data with `file`, or JSON: a database table (AddTableSource) or web pages (AddWebSource).',
    schema: {
      oneOf: [
        { $ref: '#/components/schemas/AddTableSourceDto' },
        { $ref: '#/components/schemas/AddWebSourceDto' },
      ],
    },
  })
  @ApiExtraModels(AddTableSourceDto, AddWebSourceDto)
  @ApiCreatedResponse({ type: KnowledgeSourceDto })
  add(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: unknown,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<TKnowledgeSource> {
    if (file) return this.knowledge.addFile(user.id, id, incoming(file));
    const parsed = ZAddSourceRequest.safeParse(body ?? {});
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    const request = parsed.data;
    switch (request.kind) {
      case 'table':
        return this.knowledge.addTable(user.id, id, request);
      case 'web':
        return this.knowledge.addWeb(user.id, id, request);
    }
  }

  /** A new version of a file source (multipart, field `file`). */
  @Put(KNOWLEDGE_ROUTES.one)
  @upload()
  @ApiConsumes('multipart/form-data')
  @ApiOkResponse({ type: KnowledgeSourceDto })
  replace(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('sourceId') sourceId: string,
    @UploadedFile() file?: Express.Multer.File,
  ): Promise<TKnowledgeSource> {
    if (!file) throw new BadRequestException('No file selected');
    return this.knowledge.replace(user.id, id, sourceId, incoming(file));
  }

  @Delete(KNOWLEDGE_ROUTES.one)
  @HttpCode(HttpStatus.NO_CONTENT)
  async remove(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('sourceId') sourceId: string,
  ): Promise<void> {
    await this.knowledge.remove(user.id, id, sourceId);
  }

  /** Reads a table or web source again now (202: the source's status follows the refresh). */
  @Post(KNOWLEDGE_ROUTES.refresh)
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOkResponse({ type: KnowledgeSourceDto })
  refresh(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('sourceId') sourceId: string,
  ): Promise<TKnowledgeSource> {
    return this.knowledge.refresh(user.id, id, sourceId);
  }

  /** How often the source is read again: `off`, `hourly` or `daily`. */
  @Patch(KNOWLEDGE_ROUTES.one)
  @ApiOkResponse({ type: KnowledgeSourceDto })
  schedule(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('sourceId') sourceId: string,
    @Body() body: SourceScheduleRequestDto,
  ): Promise<TKnowledgeSource> {
    const parsed = ZSourceScheduleRequest.parse(body);
    return this.knowledge.schedule(user.id, id, sourceId, parsed.refresh);
  }
}

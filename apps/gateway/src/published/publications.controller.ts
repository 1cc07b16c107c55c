import {
  ZPublishRequest,
  type TAccessKey,
  type TConversation,
  type TConversationSummary,
  type TCreatedAccessKey,
  type TMessageResponse,
  type TPublication,
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
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import {
  AccessKeyDto,
  ConversationDto,
  ConversationSummaryDto,
  CreateAccessKeyDto,
  CreatedAccessKeyDto,
  PublicationDto,
  PublicationSettingsDto,
  PublishRequestDto,
} from '../common/api-dtos';
import { describeZodError } from '../common/http-exception.filter';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { ConversationsService } from './conversations.service';
import { PublicationsService } from './publications.service';

/**
 * The owner's controls of a published agent. Every route is scoped to the caller: someone else's
 * agent id answers 404 like one that does not exist.
 */
@ApiTags('published agents')
@ApiBearerAuth()
@Controller('agents/:id')
export class PublicationsController {
  constructor(
    private readonly publications: PublicationsService,
    private readonly conversations: ConversationsService,
  ) {}

  @Get('publication')
  @ApiOkResponse({ type: PublicationDto })
  get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<TPublication> {
    return this.publications.get(user.id, id);
  }

  /**
   * Publishes the newest Built build, or the one `build_id` names (an older one: a rollback).
   * The body is optional.
   */
  @Put('publication')
  @ApiBody({ type: PublishRequestDto, required: false })
  @ApiOkResponse({ type: PublicationDto })
  publish(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<TPublication> {
    const parsed = ZPublishRequest.safeParse(body ?? {});
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    return this.publications.publish(user.id, id, parsed.data);
  }

  @Patch('publication')
  @ApiOkResponse({ type: PublicationDto })
  settings(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: PublicationSettingsDto,
  ): Promise<TPublication> {
    return this.publications.updateSettings(user.id, id, body);
  }

  @Delete('publication')
  async unpublish(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TMessageResponse> {
    await this.publications.unpublish(user.id, id);
    return { message: 'Agent unpublished' };
  }

  @Get('keys')
  @ApiOkResponse({ type: [AccessKeyDto] })
  keys(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<TAccessKey[]> {
    return this.publications.listKeys(user.id, id);
  }

  @Post('keys')
  @ApiCreatedResponse({ type: CreatedAccessKeyDto })
  createKey(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: CreateAccessKeyDto,
  ): Promise<TCreatedAccessKey> {
    return this.publications.createKey(user.id, id, body);
  }

  @Delete('keys/:keyId')
  @ApiOkResponse({ type: AccessKeyDto })
  revokeKey(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('keyId') keyId: string,
  ): Promise<TAccessKey> {
    return this.publications.revokeKey(user.id, id, keyId);
  }

  @Get('conversations')
  @ApiOkResponse({ type: [ConversationSummaryDto] })
  conversationList(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TConversationSummary[]> {
    return this.conversations.list(user.id, id);
  }

  /** All conversations as a download: `?format=json` (default) or `?format=csv`. */
  @Get('conversations/export')
  async export(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Query('format') format: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const kind = format ?? 'json';
    if (kind !== 'json' && kind !== 'csv') {
      throw new BadRequestException('format must be json or csv.');
    }
    const body = await this.conversations.export(user.id, id, kind);
    response.setHeader('Content-Disposition', `attachment; filename="conversations-${id}.${kind}"`);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response
      .status(HttpStatus.OK)
      .type(kind === 'json' ? 'application/json' : 'text/csv; charset=utf-8')
      .send(body);
  }

  @Get('conversations/:conversationId')
  @ApiOkResponse({ type: ConversationDto })
  conversation(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('conversationId') conversationId: string,
  ): Promise<TConversation> {
    return this.conversations.get(user.id, id, conversationId);
  }

  @Delete('conversations/:conversationId')
  @HttpCode(HttpStatus.OK)
  async removeConversation(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('conversationId') conversationId: string,
  ): Promise<TMessageResponse> {
    await this.conversations.remove(user.id, id, conversationId);
    return { message: 'Conversation deleted' };
  }
}

import {
  TMessageResponse,
  TPipelineCreated,
  TPipelineDetail,
  TPipelineListItem,
} from '@agentloom/contracts';
import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  CreatePipelineDto,
  PipelineCreatedDto,
  PipelineDetailDto,
  PipelineListItemDto,
  RenamePipelineDto,
} from '../common/api-dtos';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { PipelinesService } from './pipelines.service';

@ApiTags('pipelines')
@ApiBearerAuth()
@Controller('pipelines')
export class PipelinesController {
  constructor(private readonly pipelines: PipelinesService) {}

  /** The wizard's first step: the new pipeline's id is the session id of every later call. */
  @Post()
  @ApiCreatedResponse({ type: PipelineCreatedDto })
  create(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: CreatePipelineDto,
  ): Promise<TPipelineCreated> {
    return this.pipelines.create(user.id, body);
  }

  @Get()
  @ApiOkResponse({ type: [PipelineListItemDto] })
  list(@CurrentUser() user: AuthenticatedUser): Promise<TPipelineListItem[]> {
    return this.pipelines.list(user.id);
  }

  @Get(':id')
  @ApiOkResponse({ type: PipelineDetailDto })
  detail(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TPipelineDetail> {
    return this.pipelines.detail(user.id, id);
  }

  /** Step 1 of an agent that exists: a new name, not a second agent. */
  @Patch(':id')
  @ApiOkResponse({ type: PipelineDetailDto })
  rename(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: RenamePipelineDto,
  ): Promise<TPipelineDetail> {
    return this.pipelines.rename(user.id, id, body);
  }

  @Delete(':id')
  async remove(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TMessageResponse> {
    await this.pipelines.remove(user.id, id);
    return { message: 'Agent deleted' };
  }
}

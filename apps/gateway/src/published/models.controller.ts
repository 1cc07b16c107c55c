import type { TOpenAiModel, TOpenAiModelList } from '@agentloom/contracts';
import { Controller, Get, Headers, Param, UseFilters } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OpenAiModelDto, OpenAiModelListDto } from '../common/api-dtos';
import { Public } from '../common/public.decorator';
import { PublishedModelsService } from './models.service';
import { OpenAiErrorFilter } from './openai-compat.controller';

/**
 * `GET /v1/models` and `GET /v1/models/{id}` beside `/v1/chat/completions`: chat front-ends that
 * speak OpenAI's API (Open WebUI, LibreChat, editors' assistants) list the models first, and a
 * published agent is a model whose id is the agent's id. Errors in OpenAI's shape.
 */
@Public()
@ApiTags('published agents')
@ApiBearerAuth()
@UseFilters(OpenAiErrorFilter)
@Controller('v1/models')
export class ModelsController {
  constructor(private readonly models: PublishedModelsService) {}

  @Get()
  @ApiOperation({
    summary: 'OpenAI-compatible model list: the published agent of an access key',
    description:
      'Use an access key of the agent as the API key. Lists the agent while it is published ' +
      '(an empty list once it is unpublished); its `id` is the `model` of chat completions. ' +
      "401 for a missing or revoked key, 429 over the key's rate limit.",
  })
  @ApiOkResponse({ type: OpenAiModelListDto })
  list(@Headers('authorization') authorization: string | undefined): Promise<TOpenAiModelList> {
    return this.models.list(authorization);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'OpenAI-compatible model: one published agent',
    description:
      'The agent whose id is `id`, if the access key belongs to it and it is published; ' +
      "otherwise 404 in OpenAI's error shape.",
  })
  @ApiOkResponse({ type: OpenAiModelDto })
  get(
    @Headers('authorization') authorization: string | undefined,
    @Param('id') id: string,
  ): Promise<TOpenAiModel> {
    return this.models.get(authorization, id);
  }
}

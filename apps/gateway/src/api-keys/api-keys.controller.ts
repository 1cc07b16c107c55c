import { TApiKey, TApiKeySecret, TApiKeyUsage, TMessageResponse } from '@agentloom/contracts';
import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyDto, ApiKeySecretDto, CreateApiKeyDto } from '../common/api-dtos';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { ApiKeysService } from './api-keys.service';

@ApiTags('api keys')
@ApiBearerAuth()
@Controller('apikeys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOkResponse({ type: [ApiKeyDto] })
  list(@CurrentUser() user: AuthenticatedUser): Promise<TApiKey[]> {
    return this.keys.list(user.id);
  }

  @Post()
  @ApiCreatedResponse({ type: ApiKeyDto })
  create(@CurrentUser() user: AuthenticatedUser, @Body() body: CreateApiKeyDto): Promise<TApiKey> {
    return this.keys.create(user.id, body);
  }

  @Get(':id/secret')
  @ApiOkResponse({ type: ApiKeySecretDto })
  secret(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<TApiKeySecret> {
    return this.keys.reveal(user.id, id);
  }

  /** The agents set up with this key: what deleting it would affect. */
  @Get(':id/usage')
  usage(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<TApiKeyUsage> {
    return this.keys.usage(user.id, id);
  }

  @Delete(':id')
  async remove(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TMessageResponse> {
    await this.keys.remove(user.id, id);
    return { message: 'API key removed' };
  }
}

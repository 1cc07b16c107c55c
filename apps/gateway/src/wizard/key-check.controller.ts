import { TKeyCheckResult, WIZARD_ROUTES } from '@agentloom/contracts';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { KeyCheckRequestDto, KeyCheckResultDto } from '../common/api-dtos';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { KeyCheckService } from './key-check.service';

@ApiTags('LLM keys')
@ApiBearerAuth()
@Controller()
export class KeyCheckController {
  constructor(private readonly keys: KeyCheckService) {}

  /** A refused key is an answer, not an error: 200 with ok false and the provider's verdict. */
  @Post(WIZARD_ROUTES.keyCheck)
  @HttpCode(200)
  @ApiOperation({ summary: "Check an LLM key against the provider's model list" })
  @ApiOkResponse({ type: KeyCheckResultDto })
  check(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: KeyCheckRequestDto,
  ): Promise<TKeyCheckResult> {
    return this.keys.check(user.id, body);
  }
}

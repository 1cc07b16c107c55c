import { TSourceSample, WIZARD_ROUTES } from '@agentloom/contracts';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SourceSampleDto } from '../common/api-dtos';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { SourceSampleService } from './source-sample.service';

@ApiTags('wizard')
@ApiBearerAuth()
@Controller()
export class SourceSampleController {
  constructor(private readonly samples: SourceSampleService) {}

  @Get(WIZARD_ROUTES.sourceSample)
  @ApiOperation({ summary: 'The first rows or passages of the uploaded file, with its counts' })
  @ApiOkResponse({ type: SourceSampleDto })
  sample(
    @CurrentUser() user: AuthenticatedUser,
    @Param('sessionId') sessionId: string,
  ): Promise<TSourceSample> {
    return this.samples.sample(user.id, sessionId);
  }
}

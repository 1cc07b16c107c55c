import type { TImageAgentLaunched } from '@agentloom/contracts';
import { Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { ImageAgentLaunchedDto } from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { ImageAgentService } from './image-agent.service';

/** The owner opens the image generation agent: its page's link. */
@ApiTags('previews')
@ApiBearerAuth()
@Controller()
export class ImageAgentController {
  constructor(private readonly images: ImageAgentService) {}

  @Post('img/launch-streamlit-app')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: ImageAgentLaunchedDto })
  launch(@CurrentUser() user: AuthenticatedUser): Promise<TImageAgentLaunched> {
    return this.images.launch(user.id);
  }
}

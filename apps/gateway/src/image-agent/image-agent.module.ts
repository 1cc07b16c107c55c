import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { incomingUploadsModule } from '../files/incoming-uploads.module';
import { PreviewsModule } from '../previews/previews.module';
import { ImageAgentPagesController } from './image-agent-pages.controller';
import { ImageAgentController } from './image-agent.controller';
import { ImageAgentService } from './image-agent.service';

/**
 * The image generation agent (Gemini): no build, no index; its page is a link of its own (a
 * preview grant of kind `image`, served by the previews' page route) whose calls are here.
 */
@Module({
  imports: [
    PreviewsModule,
    ApiKeysModule,
    incomingUploadsModule({ fields: 10, fieldSize: 16 * 1024, parts: 12 }),
  ],
  controllers: [ImageAgentController, ImageAgentPagesController],
  providers: [ImageAgentService],
})
export class ImageAgentModule {}

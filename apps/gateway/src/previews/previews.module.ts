import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { BuildsModule } from '../builds/builds.module';
import { incomingUploadsModule } from '../files/incoming-uploads.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { DataSourcesService } from '../sources/data-sources.service';
import { HostedIndexes } from './hosted-indexes';
import { ImageAgentController } from './image-agent.controller';
import { ImageAgentService } from './image-agent.service';
import { PreviewAgentLoader } from './preview-agents';
import { PreviewGrantStore } from './preview-grants';
import { PreviewPagesController } from './preview-pages.controller';
import { PreviewSessions } from './preview-sessions';
import { PreviewsController } from './previews.controller';
import { PreviewsService } from './previews.service';

/** Live previews of built agents and the image generation agent (issue 6). */
@Module({
  imports: [
    PipelinesModule,
    BuildsModule,
    ApiKeysModule,
    incomingUploadsModule({ fields: 10, fieldSize: 16 * 1024, parts: 12 }),
  ],
  controllers: [PreviewsController, PreviewPagesController, ImageAgentController],
  exports: [PreviewSessions, PreviewAgentLoader],
  providers: [
    PreviewGrantStore,
    PreviewAgentLoader,
    HostedIndexes,
    PreviewSessions,
    PreviewsService,
    ImageAgentService,
    DataSourcesService,
  ],
})
export class PreviewsModule {}

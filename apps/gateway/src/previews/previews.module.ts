import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { BuildsModule } from '../builds/builds.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { PassagesModule } from '../passages/passages.module';
import { PreviewGrantStore } from './preview-grants';
import { PreviewPagesController } from './preview-pages.controller';
import { PreviewsController } from './previews.controller';
import { PreviewsService } from './previews.service';

/** Live previews of built agents: a `/p/{token}/` link per agent build, its page and answers. */
@Module({
  imports: [PipelinesModule, BuildsModule, AgentsModule, PassagesModule],
  controllers: [PreviewsController, PreviewPagesController],
  // The image agent's page is a link of the same kind (image-agent/).
  exports: [PreviewGrantStore],
  providers: [PreviewGrantStore, PreviewsService],
})
export class PreviewsModule {}

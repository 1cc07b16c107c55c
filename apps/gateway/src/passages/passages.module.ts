import { Module } from '@nestjs/common';
import { BuildsModule } from '../builds/builds.module';
import { PipelinesModule } from '../pipelines/pipelines.module';
import { PassagesController } from './passages.controller';
import { PassagesService } from './passages.service';

/** Citations you can open (docs/retrieval.md): the owner's route; previews and visitors reuse the service. */
@Module({
  imports: [PipelinesModule, BuildsModule],
  controllers: [PassagesController],
  providers: [PassagesService],
  exports: [PassagesService],
})
export class PassagesModule {}

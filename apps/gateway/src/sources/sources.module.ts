import { Module } from '@nestjs/common';
import { DataSourcesService } from './data-sources.service';
import { UploadsService } from './uploads.service';

/** What sources are read through: uploads checked by content, databases through the guard. */
@Module({
  providers: [DataSourcesService, UploadsService],
  exports: [DataSourcesService, UploadsService],
})
export class SourcesModule {}

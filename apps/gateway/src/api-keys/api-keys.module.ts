import { Module } from '@nestjs/common';
import { ApiKeyListCache } from './api-key-list.cache';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, ApiKeyListCache],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}

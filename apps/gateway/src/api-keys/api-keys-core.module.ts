import { Module } from '@nestjs/common';
import { ApiKeyListCache } from './api-key-list.cache';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

/** The key vault without its routes, for modules that reveal a key to use it (agents). */
@Module({
  providers: [ApiKeysRepository, ApiKeysService, ApiKeyListCache],
  exports: [ApiKeysService],
})
export class ApiKeysCoreModule {}

import { Module } from '@nestjs/common';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysCoreModule } from './api-keys-core.module';

@Module({
  imports: [ApiKeysCoreModule],
  controllers: [ApiKeysController],
  exports: [ApiKeysCoreModule],
})
export class ApiKeysModule {}

import { Vault } from '@agentloom/vault';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/env';

@Global()
@Module({
  providers: [
    {
      provide: Vault,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new Vault(config.VAULT_MASTER_KEY),
    },
  ],
  exports: [Vault],
})
export class VaultModule {}

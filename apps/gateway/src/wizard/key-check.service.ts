import {
  checkProviderKey,
  describeKeyCheck,
  type ProviderBaseUrls,
} from '@agentloom/agent-runtime';
import { TKeyCheckRequest, TKeyCheckResult } from '@agentloom/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { APP_CONFIG, AppConfig } from '../config/env';
import { providerBaseUrls } from '../config/provider-base-urls';

/**
 * Asks the provider whether it takes a key, before the wizard saves it: a typed key, or one of
 * the caller's vault keys (decrypted in memory only). The provider's list-models call costs no
 * tokens and is the same door the preview and the built agent go through.
 */
@Injectable()
export class KeyCheckService {
  private readonly baseUrls: ProviderBaseUrls;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly apiKeys: ApiKeysService,
  ) {
    this.baseUrls = providerBaseUrls(config);
  }

  async check(userId: string, request: TKeyCheckRequest): Promise<TKeyCheckResult> {
    const apiKey = request.api_key_id
      ? (await this.apiKeys.reveal(userId, request.api_key_id)).key
      : (request.api_key ?? '');
    const check = await checkProviderKey({
      provider: request.provider,
      apiKey,
      baseUrls: this.baseUrls,
    });
    return {
      ok: check.ok,
      rejected: !check.ok && check.reason === 'rejected',
      models: check.ok ? check.models : [],
      detail: describeKeyCheck(request.provider, check),
    };
  }
}

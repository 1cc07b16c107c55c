import {
  bareModelId,
  LLM_DEFAULT_BASE_URLS,
  LLM_PROVIDER_CATALOG,
  LLM_PROVIDER_LABELS,
  type TLlmProvider,
} from '@agentloom/contracts';
import type { ProviderBaseUrls } from './providers';

/**
 * Whether a provider accepts a key, asked the cheapest way each offers: its list-models call,
 * which costs no tokens. Every provider answers a bad key there exactly as it would a chat
 * request, so "connected" here means the preview and the built agent will be let in too.
 */
export type KeyCheck =
  | { ok: true; models: string[] }
  | { ok: false; reason: 'rejected' | 'unreachable' | 'failed'; status?: number };

/** Model kinds the OpenAI-style lists include that cannot chat. */
const NOT_CHAT =
  /embed|whisper|tts|dall-e|moderation|transcribe|audio|realtime|image|guard|search/i;

interface ListRequest {
  url: string;
  headers: Record<string, string>;
  models: (body: unknown) => string[];
}

function listRequest(provider: TLlmProvider, apiKey: string, base: string): ListRequest {
  // By the API the provider speaks, so a new OpenAI-compatible provider lists its models here
  // without a line of its own.
  switch (LLM_PROVIDER_CATALOG[provider].api) {
    case 'anthropic':
      return {
        url: `${base}/models?limit=1000`,
        headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
        models: (body) => ((body as { data?: { id: string }[] }).data ?? []).map((m) => m.id),
      };
    case 'gemini':
      return {
        url: `${base}/models?pageSize=1000`,
        headers: { 'x-goog-api-key': apiKey },
        models: (body) =>
          ((body as { models?: GeminiModel[] }).models ?? [])
            .filter((m) => m.supportedGenerationMethods?.includes('generateContent'))
            .map((m) => bareModelId(m.name)),
      };
    case 'openai':
      return {
        url: `${base}/models`,
        headers: { authorization: `Bearer ${apiKey}` },
        models: (body) => ((body as { data?: { id: string }[] }).data ?? []).map((m) => m.id),
      };
  }
}

interface GeminiModel {
  name: string;
  supportedGenerationMethods?: string[];
}

export async function checkProviderKey(o: {
  provider: TLlmProvider;
  apiKey: string;
  baseUrls?: ProviderBaseUrls;
  timeoutMs?: number;
}): Promise<KeyCheck> {
  const base = (o.baseUrls?.[o.provider] ?? LLM_DEFAULT_BASE_URLS[o.provider]).replace(/\/+$/, '');
  const request = listRequest(o.provider, o.apiKey, base);
  let response: Response;
  try {
    response = await fetch(request.url, {
      headers: request.headers,
      signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
    });
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    const models = request.models(body).filter((id) => !NOT_CHAT.test(id));
    return { ok: true, models: [...new Set(models)].sort() };
  }
  return {
    ok: false,
    reason: isKeyRejection(response.status, body) ? 'rejected' : 'failed',
    status: response.status,
  };
}

/** 401/403 everywhere; Gemini answers an invalid key with 400 and the reason API_KEY_INVALID. */
function isKeyRejection(status: number, body: unknown): boolean {
  if (status === 401 || status === 403) return true;
  return status === 400 && JSON.stringify(body ?? '').includes('API_KEY_INVALID');
}

/** The result in plain words, as the wizard shows it beside the key field. */
export function describeKeyCheck(provider: TLlmProvider, check: KeyCheck): string {
  const name = LLM_PROVIDER_LABELS[provider];
  if (check.ok) {
    const count = check.models.length;
    return `Connected — ${count} model${count === 1 ? '' : 's'} available`;
  }
  switch (check.reason) {
    case 'rejected':
      return `${name} rejected this key. Check that you copied all of it, or create a new key in your ${name} account.`;
    case 'unreachable':
      return `${name} could not be reached. Check your internet connection and try again.`;
    case 'failed':
      return `${name} could not check the key right now (error ${check.status}). Try again in a moment.`;
  }
}

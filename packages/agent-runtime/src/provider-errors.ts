import { LLM_PROVIDER_CATALOG } from '@agentloom/contracts';
import { APICallError, RetryError } from 'ai';
import type { AgentEvent, ProviderErrorReason } from './agent-events';
import { isErrorLike, type ErrorLike } from './error-messages';

/**
 * A provider failure as a sentence for the person trying the agent. Status codes get fixed
 * texts; where the provider's own message helps (a bad model name, a refused request) it is
 * quoted with anything shaped like a key masked, because providers echo keys back in part
 * ("Incorrect API key provided: sk-abc…xyz").
 */
export function describeProviderError(error: unknown): string {
  // The AI SDK retries network errors, 429 and 5xx, then reports the last attempt's error.
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (!isErrorLike(cause)) return `The provider's answer could not be used: ${String(cause)}`;
  if (cause.name === 'AbortError' || cause.name === 'TimeoutError') {
    return 'The request to the provider was stopped.';
  }
  const status = APICallError.isInstance(cause) ? cause.statusCode : undefined;
  if (status === undefined) {
    return isNetworkFailure(cause)
      ? `The provider could not be reached: ${maskKeys(innermostMessage(cause))}`
      : `The provider's answer could not be used: ${maskKeys(cause.message)}`;
  }
  const quoted = maskKeys(cause.message);
  if (status === 401) return 'The provider rejected the API key (401).';
  if (isInvalidGeminiKey(cause)) return 'The provider rejected the API key (400).';
  if (status === 403) return 'The API key is not allowed to use this model or endpoint (403).';
  if (status === 404) return `The provider does not know this model or endpoint (404): ${quoted}`;
  if (status === 429) {
    return 'The provider is rate limiting this key or its quota is used up (429). Try again in a moment.';
  }
  if (status >= 500) return `The provider failed (${status}). Try again in a moment.`;
  return `The provider refused the request (${status}): ${quoted}`;
}

/**
 * Shapes of every catalogue provider's keys (and xAI's, which people paste too), whole or partly
 * masked: what each key starts with, then the key's own characters.
 */
const KEY_PREFIXES = [
  ...new Set([...Object.values(LLM_PROVIDER_CATALOG).map((spec) => spec.keyPrefix), 'xai-']),
].map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
const KEY_PATTERN = new RegExp(String.raw`\b(?:${KEY_PREFIXES.join('|')})[\w*.-]{6,}`, 'g');

function maskKeys(text: string): string {
  return text.replace(KEY_PATTERN, '****');
}

/**
 * The AI SDK's "Cannot connect to API: …" (an APICallError without status), or fetch's own
 * "fetch failed", which the SDK leaves unwrapped when the TypeError is not of its realm (jest).
 */
function isNetworkFailure(error: ErrorLike): boolean {
  return APICallError.isInstance(error) || error.message === 'fetch failed';
}

/** "connect ECONNREFUSED 127.0.0.1:9" rather than the fetch wrapper's "fetch failed". */
function innermostMessage(error: ErrorLike): string {
  let current: unknown = error;
  let message = error.message;
  while (isErrorLike(current)) {
    message = current.message;
    current = current.cause;
  }
  return message;
}

export function providerErrorReason(error: unknown): ProviderErrorReason {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (!isErrorLike(cause)) return 'other';
  if (cause.name === 'AbortError' || cause.name === 'TimeoutError') return 'stopped';
  const status = APICallError.isInstance(cause) ? cause.statusCode : undefined;
  if (status === undefined) return isNetworkFailure(cause) ? 'unreachable' : 'other';
  if (status === 401 || isInvalidGeminiKey(cause)) return 'key';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'model';
  if (status === 429) return 'rate';
  return status >= 500 ? 'unavailable' : 'other';
}

/** The error event an agent ends its answer with when the provider call failed. */
export function providerErrorEvent(error: unknown): AgentEvent {
  return {
    type: 'error',
    detail: describeProviderError(error),
    reason: providerErrorReason(error),
  };
}

/** Google answers a bad key with 400 INVALID_ARGUMENT and the reason API_KEY_INVALID. */
function isInvalidGeminiKey(error: ErrorLike): boolean {
  return (
    APICallError.isInstance(error) &&
    error.statusCode === 400 &&
    (error.responseBody ?? '').includes('API_KEY_INVALID')
  );
}

import { streamText, type LanguageModel } from 'ai';
import type { AgentEvent, ChatTurn } from './agent-events';
import { providerErrorEvent } from './provider-errors';

/**
 * Streams the model's answer as `token` events, then `done`; a provider failure becomes one
 * `error` event instead. A stopped answer (the signal aborted) just ends: whoever aborted is no
 * longer listening.
 */
export async function* streamAnswer(o: {
  model: LanguageModel;
  system: string;
  prompt: string;
  signal?: AbortSignal;
  /** Earlier turns of the conversation, oldest first: the model's memory of it. */
  history?: ChatTurn[];
}): AsyncGenerator<AgentEvent> {
  const result = streamText({
    model: o.model,
    system: o.system,
    messages: withHistory(o.history, o.prompt),
    abortSignal: o.signal,
    // Failures arrive below as 'error' parts; the default handler would also print them, request
    // and all, to the server's console.
    onError: () => undefined,
  });
  try {
    for await (const part of result.fullStream) {
      // Only text, failures and aborts matter to a preview; the other parts (steps, usage,
      // reasoning, tools) are left out.
      if (part.type === 'text-delta' && part.text) {
        yield { type: 'token', text: part.text };
      } else if (part.type === 'error') {
        if (!o.signal?.aborted) yield providerErrorEvent(part.error);
        return;
      } else if (part.type === 'abort') {
        return;
      }
    }
  } catch (error) {
    if (!o.signal?.aborted) yield providerErrorEvent(error);
    return;
  }
  if (!o.signal?.aborted) yield { type: 'done' };
}

/** The agent's own instructions first, then the preview's. */
export function systemPrompt(configured: string, instructions: string): string {
  const own = configured.trim();
  return own ? `${own}\n\n${instructions}` : instructions;
}

/** The conversation so far, then this question's prompt as the last user message. */
export function withHistory(history: ChatTurn[] = [], prompt: string) {
  return [
    ...history.map((turn) => ({ role: turn.role, content: turn.content })),
    { role: 'user' as const, content: prompt },
  ];
}

import type { TAgentChatAnswer, TAnswerSource } from '@agentloom/contracts';
import type { Response } from 'express';
import { openEventStream, writeEvent } from '../common/event-stream';
import { ProviderWatchdog, relayEvents, silenceDetail } from '../agents/provider-watchdog';
import type { ChatEvent } from './published-agents.service';

/**
 * Runs one answer under a watchdog: a caller that goes away stops the provider call, and so does
 * a provider silent for `silenceMs`. The first event is awaited before anything is sent, so an
 * unknown conversation or an agent that cannot load still answers with a status and `{detail}`.
 */
export async function startAnswer(
  response: Response,
  silenceMs: number,
  run: (signal: AbortSignal) => AsyncGenerator<ChatEvent>,
): Promise<{
  first: ChatEvent | undefined;
  rest: AsyncGenerator<ChatEvent>;
  watchdog: ProviderWatchdog;
}> {
  const watchdog = new ProviderWatchdog(silenceMs);
  response.on('close', () => watchdog.stop());
  const rest = run(watchdog.signal);
  try {
    const first = await rest.next();
    return { first: first.done ? undefined : first.value, rest, watchdog };
  } catch (error) {
    watchdog.stop();
    throw error;
  }
}

/** Server-sent events as the preview sends them: `event: <type>` and the event as JSON. */
export async function streamEvents(
  response: Response,
  started: Awaited<ReturnType<typeof startAnswer>>,
  silenceMs: number,
): Promise<void> {
  const { first, rest, watchdog } = started;
  openEventStream(response);
  if (first) writeEvent(response, first);
  await relayEvents(rest, watchdog, silenceMs, (event) => writeEvent(response, event));
  response.end();
}

/** The whole answer as one object, or the first error the agent reported. */
export async function collectAnswer(
  started: Awaited<ReturnType<typeof startAnswer>>,
  silenceMs: number,
): Promise<TAgentChatAnswer | { error: string }> {
  const { first, rest, watchdog } = started;
  let conversationId = '';
  let messageId = '';
  let answer = '';
  let sources: TAnswerSource[] = [];
  const take = (event: ChatEvent): string | undefined => {
    if (event.type === 'conversation') conversationId = event.conversation_id;
    else if (event.type === 'token') answer += event.text;
    else if (event.type === 'saved') [messageId, sources] = [event.message_id, event.sources];
    else if (event.type === 'error') return event.detail;
    return undefined;
  };
  try {
    let failed = first ? take(first) : undefined;
    for await (const event of rest) {
      watchdog.alive();
      failed ??= take(event);
    }
    watchdog.finish();
    if (watchdog.timedOut) return { error: silenceDetail(silenceMs) };
    if (failed) return { error: failed };
    if (!messageId) return { error: 'The answer was cut short. Please ask again.' };
    return { conversation_id: conversationId, message_id: messageId, answer, sources };
  } finally {
    watchdog.stop();
  }
}

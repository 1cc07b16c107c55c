/**
 * The events of a server-sent-events body (a preview's or a published agent's answer), read
 * whole: the JSON of each event's `data:` line, in order. `E` is what the caller expects them to
 * be (agent-runtime's AgentEvent, the published chat's events…); nothing here checks it.
 */
export function serverSentEvents<E = { type: string; [key: string]: unknown }>(text: string): E[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n').find((line) => line.startsWith('data:')))
    .filter((line): line is string => Boolean(line))
    .map((line) => JSON.parse(line.slice(5)) as E);
}

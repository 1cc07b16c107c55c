// Data and helpers several specs share.
import { createServer } from 'node:net';
import type { AgentEvent } from './agent-events';
import type { Chunk } from './chunks';

/** Rows of a team sheet as the builder chunks them: each project and city is in one row only. */
export const TEAM: Chunk[] = [
  ['Ada', 'Apollo', 'London', 'teal'],
  ['Bob', 'Borealis', 'Paris', 'amber'],
  ['Cé', 'Calypso', 'Zürich', 'violet'],
  ['Dan', 'Zephyr', 'Oslo', 'crimson'],
  ['Eve', 'Equinox', 'Rome', 'olive'],
].map(([name, project, city, colour], index) => ({
  id: `row-${index + 1}`,
  text: `name: ${name}\nproject: ${project}\ncity: ${city}\ncolour: ${colour}`,
  source: 'team.csv',
  row: index + 1,
}));

/** A port nothing listens on (fetch refuses some well-known ports outright, such as 9). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** The streamed answer: every token event's text, joined. */
export function answerOf(events: AgentEvent[]): string {
  return events.map((event) => (event.type === 'token' ? event.text : '')).join('');
}

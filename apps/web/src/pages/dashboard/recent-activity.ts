import { LLM_PROVIDER_LABELS, type TApiKey, type TPipelineListItem } from '@agentloom/contracts';

/**
 * docs/product.md#the-dashboard: the Recent Activity panel lists the user's own agents and keys.
 * A new account's panel says it has nothing yet: invented sample entries read as someone's real
 * history on a first visit (issue 43, item 8), even labelled "Sample data".
 */
export type ActivityType = 'agent_created' | 'agent_built' | 'api_key_added';

export type Activity = { id: string; type: ActivityType; description: string; timestamp: string };

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "2 hours ago", "just now": how long ago an ISO date was, from `now`. */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return 'Unknown';
  const words = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return words.format(-Math.floor(seconds / size), unit);
  }
  return 'just now';
}

/** The user's own activity, newest first: agents made (and built) and keys added. */
export function realActivity(
  agents: readonly TPipelineListItem[],
  keys: readonly TApiKey[],
  now: number = Date.now(),
  limit = 5,
): Activity[] {
  const dated = [
    ...agents.map((agent) => ({
      at: agent.created_at,
      entry: {
        id: `agent-${agent.id}`,
        type: agent.status === 'Built' ? ('agent_built' as const) : ('agent_created' as const),
        description: `Created ${agent.type.toUpperCase()} agent “${agent.name}”${agent.status === 'Built' ? ', now built' : ''}`,
      },
    })),
    ...keys.map((key) => ({
      at: key.created_at,
      entry: {
        id: `key-${key.id}`,
        type: 'api_key_added' as const,
        description: `Added ${key.name ? `“${key.name}”, ` : ''}an API key for ${LLM_PROVIDER_LABELS[key.provider]}`,
      },
    })),
  ];
  return dated
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
    .slice(0, limit)
    .map(({ at, entry }) => ({ ...entry, timestamp: timeAgo(at, now) }));
}

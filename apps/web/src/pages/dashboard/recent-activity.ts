import { LLM_PROVIDER_LABELS, type TApiKey, type TPipelineListItem } from '@agentloom/contracts';

/**
 * docs/product.md#the-dashboard: the Recent Activity panel is filled with hard-coded sample
 * entries, not data from a server — for an account with nothing yet, labelled as examples. Once the
 * user has agents or keys, the panel shows those instead (issue 30): invented entries beside real
 * work read as someone else's history.
 */
export type ActivityType =
  'agent_created' | 'agent_built' | 'api_key_added' | 'agent_downloaded' | 'agent_previewed';

export type Activity = { id: string; type: ActivityType; description: string; timestamp: string };

export const SAMPLE_ACTIVITY: readonly Activity[] = [
  {
    id: 'sample-1',
    type: 'agent_created',
    description: 'Created RAG agent "Support Knowledge Base"',
    timestamp: '2 hours ago',
  },
  {
    id: 'sample-2',
    type: 'agent_built',
    description: 'Built SQL agent "Sales Analytics"',
    timestamp: '5 hours ago',
  },
  {
    id: 'sample-3',
    type: 'api_key_added',
    description: 'Added an OpenAI API key',
    timestamp: '1 day ago',
  },
  {
    id: 'sample-4',
    type: 'agent_downloaded',
    description: 'Downloaded "Sales Analytics" as a zip',
    timestamp: '2 days ago',
  },
  {
    id: 'sample-5',
    type: 'agent_previewed',
    description: 'Previewed "Support Knowledge Base" in Streamlit',
    timestamp: '3 days ago',
  },
];

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

/**
 * SPEC §2/§3: the Recent Activity panel is filled with hard-coded sample entries, not data from a
 * server. The panel labels them as examples so nobody mistakes them for their own history.
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

import type {
  TApiKey,
  TApiKeySecret,
  TApiKeyUsage,
  TCreateApiKeyRequest,
  TPipelineListItem,
  TUserProfile,
} from '@agentloom/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/**
 * React Query hooks for the dashboard's server state
 * (docs/product.md#the-calls-behind-the-screens).
 */
export const dashboardKeys = {
  profile: ['users', 'me'] as const,
  agents: ['pipelines'] as const,
  apiKeys: ['apikeys'] as const,
};

export function useProfile() {
  return useQuery({
    queryKey: dashboardKeys.profile,
    queryFn: ({ signal }) => api<TUserProfile>('/users/me', { signal }),
  });
}

export type ProfileUpdate = {
  full_name: string;
  phone_number: string;
  bio: string;
  file: File | null;
};

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (update: ProfileUpdate) => {
      const form = new FormData();
      form.set('full_name', update.full_name);
      form.set('phone_number', update.phone_number);
      form.set('bio', update.bio);
      if (update.file) form.set('file', update.file);
      return api<TUserProfile>('/users/me', { method: 'PUT', multipart: form });
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: dashboardKeys.profile });
    },
  });
}

export function useAgents() {
  return useQuery({
    queryKey: dashboardKeys.agents,
    queryFn: ({ signal }) => api<TPipelineListItem[]>('/pipelines', { signal }),
  });
}

export function useDeleteAgent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/pipelines/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: dashboardKeys.agents });
    },
  });
}

export function useApiKeys() {
  return useQuery({
    queryKey: dashboardKeys.apiKeys,
    queryFn: ({ signal }) => api<TApiKey[]>('/apikeys', { signal }),
  });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: TCreateApiKeyRequest) => api<TApiKey>('/apikeys', { json: request }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: dashboardKeys.apiKeys });
    },
  });
}

/** The agents set up with a vault key, asked when its deletion is being confirmed. */
export function useApiKeyUsage(id: string | null) {
  return useQuery({
    queryKey: [...dashboardKeys.apiKeys, id, 'usage'] as const,
    queryFn: ({ signal }) =>
      api<TApiKeyUsage>(`/apikeys/${encodeURIComponent(id ?? '')}/usage`, { signal }),
    enabled: id !== null,
  });
}

/**
 * What deleting a key does, in plain words, naming the agents it affects (or none): the one
 * sentence of the confirmation dialog.
 */
export function keyDeletionEffect(usage: TApiKeyUsage | undefined): string {
  const last = 'This cannot be undone.';
  if (!usage) return `Checking which agents use this key… ${last}`;
  const { agents } = usage;
  if (agents.length === 0) return `No agent uses this key. ${last}`;
  const names = agents.map((agent) => `“${agent.name}”`).join(', ');
  const published = agents.filter((agent) => agent.published).map((agent) => `“${agent.name}”`);
  const them = agents.length === 1 ? 'it' : 'each of them';
  return [
    `Used by ${names}.`,
    `Without this key, previews and new builds of ${agents.length === 1 ? 'that agent' : 'those agents'} stop until you choose another key for ${them} (Edit → Change LLM Provider).`,
    published.length > 0
      ? `${published.join(', ')} ${published.length === 1 ? 'is' : 'are'} published: visitors get answers only until the agent is next loaded, then an error.`
      : '',
    last,
  ]
    .filter(Boolean)
    .join(' ');
}

export function useDeleteApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/apikeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: dashboardKeys.apiKeys });
    },
  });
}

/** The plain key, fetched only when the user reveals or copies it. */
export function fetchApiKeySecret(id: string): Promise<string> {
  return api<TApiKeySecret>(`/apikeys/${encodeURIComponent(id)}/secret`).then((s) => s.key);
}

import type { AppConfig } from '../config/env';
import type { PreviewAgent, PreviewAgentLoader } from './preview-agents';
import type { PreviewGrant } from './preview-grants';
import { PreviewSessions } from './preview-sessions';

const MB = 1024 * 1024;

/** Agents that report a fixed size and record whether they were unloaded. */
function fakeLoader(sizes: Record<string, number>) {
  const closed = new Set<string>();
  const loader = {
    load: (grant: PreviewGrant) =>
      Promise.resolve({
        memoryBytes: () => sizes[grant.token] ?? MB,
        close: () => {
          closed.add(grant.token);
          return Promise.resolve();
        },
      } as unknown as PreviewAgent),
  } as unknown as PreviewAgentLoader;
  return { loader, closed };
}

const grant = (token: string, userId: string): PreviewGrant => ({
  token,
  userId,
  kind: 'sql',
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
});

function sessions(loader: PreviewAgentLoader, config: Partial<AppConfig>): PreviewSessions {
  return new PreviewSessions(
    {
      PREVIEW_MAX_LOADED: 16,
      PREVIEW_MAX_PER_USER: 3,
      PREVIEW_MAX_MEMORY_MB: 1024,
      PREVIEW_IDLE_MINUTES: 15,
      ...config,
    } as AppConfig,
    loader,
  );
}

describe('PreviewSessions budgets', () => {
  it("keeps one user to PREVIEW_MAX_PER_USER previews, making room from their own, never another's", async () => {
    const { loader, closed } = fakeLoader({});
    const previews = sessions(loader, { PREVIEW_MAX_PER_USER: 2 });
    await previews.agentFor(grant('bob-1', 'bob'));
    for (const token of ['mallory-1', 'mallory-2', 'mallory-3', 'mallory-4']) {
      await previews.agentFor(grant(token, 'mallory'));
    }
    await Promise.resolve();
    expect([...closed].sort()).toEqual(['mallory-1', 'mallory-2']);
    await previews.onModuleDestroy();
  });

  it('unloads the least recently used others when the loaded previews pass the memory budget', async () => {
    const { loader, closed } = fakeLoader({ a: 40 * MB, b: 40 * MB, big: 50 * MB });
    const previews = sessions(loader, { PREVIEW_MAX_MEMORY_MB: 100 });
    await previews.agentFor(grant('a', 'ann'));
    await previews.agentFor(grant('b', 'ben'));
    await previews.agentFor(grant('big', 'cat'));
    await Promise.resolve();
    expect([...closed]).toEqual(['a']);
    expect(previews.memoryBytes()).toBe(90 * MB);
    await previews.onModuleDestroy();
  });
});

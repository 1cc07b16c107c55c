import type { AppConfig } from '../config/env';
import type { LoadedAgent } from './agent-loader';
import { LoadedAgents } from './loaded-agents';

const MB = 1024 * 1024;

/** Loads agents that report a fixed size and records which were unloaded. */
function fakeLoads(sizes: Record<string, number>) {
  const closed = new Set<string>();
  const load = (key: string) => () =>
    Promise.resolve({
      memoryBytes: () => sizes[key] ?? MB,
      close: () => {
        closed.add(key);
        return Promise.resolve();
      },
    } as unknown as LoadedAgent);
  return { load, closed };
}

function loadedAgents(config: Partial<AppConfig>): LoadedAgents {
  return new LoadedAgents({
    PREVIEW_MAX_LOADED: 16,
    PREVIEW_MAX_PER_USER: 3,
    PREVIEW_MAX_MEMORY_MB: 1024,
    PREVIEW_IDLE_MINUTES: 15,
    ...config,
  } as AppConfig);
}

describe('LoadedAgents budgets', () => {
  it("keeps one user to PREVIEW_MAX_PER_USER agents, making room from their own, never another's", async () => {
    const { load, closed } = fakeLoads({});
    const agents = loadedAgents({ PREVIEW_MAX_PER_USER: 2 });
    await agents.agent('bob-1', 'bob', load('bob-1'));
    for (const key of ['mallory-1', 'mallory-2', 'mallory-3', 'mallory-4']) {
      await agents.agent(key, 'mallory', load(key));
    }
    await Promise.resolve();
    expect([...closed].sort()).toEqual(['mallory-1', 'mallory-2']);
    await agents.onModuleDestroy();
  });

  it('unloads the least recently used others when the loaded agents pass the memory budget', async () => {
    const { load, closed } = fakeLoads({ a: 40 * MB, b: 40 * MB, big: 50 * MB });
    const agents = loadedAgents({ PREVIEW_MAX_MEMORY_MB: 100 });
    await agents.agent('a', 'ann', load('a'));
    await agents.agent('b', 'ben', load('b'));
    await agents.agent('big', 'cat', load('big'));
    await Promise.resolve();
    expect([...closed]).toEqual(['a']);
    expect(agents.memoryBytes()).toBe(90 * MB);
    await agents.onModuleDestroy();
  });

  it('loads a key once while it is in use, and again after a failed load', async () => {
    const agents = loadedAgents({});
    let loads = 0;
    const failing = () => {
      loads += 1;
      return Promise.reject(new Error('the index is missing'));
    };
    await expect(agents.agent('k', 'ann', failing)).rejects.toThrow('the index is missing');
    await expect(agents.agent('k', 'ann', failing)).rejects.toThrow('the index is missing');
    expect(loads).toBe(2);
    const { load } = fakeLoads({});
    const first = agents.agent('ok', 'ann', load('ok'));
    const second = agents.agent('ok', 'ann', () => Promise.reject(new Error('loaded twice')));
    expect(await second).toBe(await first);
    await agents.onModuleDestroy();
  });
});

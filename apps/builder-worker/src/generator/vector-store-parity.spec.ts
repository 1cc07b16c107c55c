import { VECTOR_STORE_CATALOG, VECTOR_STORES, type VectorStoreSpec } from '@agentloom/contracts';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pythonTables } from '../testing/python-tables';
import { vectorStorePins } from './requirements';
import { TEMPLATES_DIR } from './templates';

const spec = (store: (typeof VECTOR_STORES)[number]): VectorStoreSpec =>
  VECTOR_STORE_CATALOG[store];

describe('the generated project’s vector stores follow the contracts’ store catalogue', () => {
  it('has agent/stores/__init__.py load each store’s module (and the in-memory one)', () => {
    const { BACKENDS } = pythonTables('rag/agent/stores/__init__.py');
    const expected = Object.fromEntries(VECTOR_STORES.map((s) => [s, spec(s).pythonModule]));
    expect(BACKENDS).toEqual({ memory: 'memory_store', ...expected });
    for (const store of VECTOR_STORES) {
      const module = `rag/agent/stores/${spec(store).pythonModule}.py`;
      expect(existsSync(path.join(TEMPLATES_DIR, module))).toBe(true);
    }
  });

  it.each(VECTOR_STORES)('pins the Python packages of %s', (store) => {
    const pinned = vectorStorePins(store).map((pin) => pin.split('==')[0]);
    expect(pinned).toEqual(spec(store).pythonPackages);
  });

  it.each(VECTOR_STORES)('runs %s in its compose file where the catalogue says', (store) => {
    const compose = readFileSync(path.join(TEMPLATES_DIR, `rag/compose/${store}.yml.tmpl`), 'utf8');
    const { composeUrl, localUrl, hosted } = spec(store);
    if (hosted) {
      expect(compose).not.toContain('VECTOR_STORE_URL');
      return;
    }
    expect(compose).toContain(`VECTOR_STORE_URL: ${composeUrl}\n`);
    const inside = new URL(composeUrl!).port;
    const published = new URL(localUrl!).port;
    expect(compose).toContain(`- '127.0.0.1:${published}:${inside}'`);
  });
});

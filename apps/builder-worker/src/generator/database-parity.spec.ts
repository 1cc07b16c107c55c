import { DATABASE_SOURCE_CATALOG, DATABASE_SOURCE_TYPES } from '@agentloom/contracts';
import { pythonTables } from '../testing/python-tables';
import { sourceKindPins } from './requirements';

describe('the generated project’s database readers follow the contracts’ database catalogue', () => {
  it('reads through SQLAlchemy exactly the databases whose RAG packages include it', () => {
    const { SQL_SOURCES } = pythonTables('rag/agent/loaders.py');
    const viaSqlAlchemy = DATABASE_SOURCE_TYPES.filter((type) =>
      (DATABASE_SOURCE_CATALOG[type].pythonPackages.rag as readonly string[]).includes(
        'SQLAlchemy',
      ),
    );
    expect(SQL_SOURCES).toEqual(viaSqlAlchemy);
  });

  it.each(DATABASE_SOURCE_TYPES)('pins every Python package %s needs, per agent type', (type) => {
    for (const agentType of ['rag', 'sql'] as const) {
      const pinned = sourceKindPins(type, { type: agentType }).map((pin) => pin.split('==')[0]);
      expect(pinned).toEqual(DATABASE_SOURCE_CATALOG[type].pythonPackages[agentType]);
    }
  });
});

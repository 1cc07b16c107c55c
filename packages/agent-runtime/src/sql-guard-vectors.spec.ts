import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SqlDialect } from './sql-dialect';
import { guardSelect, SqlRefusedError } from './sql-guard';

interface GuardVector {
  dialect: SqlDialect;
  sql: string;
  verdict: 'allowed' | 'refused';
}

// The same file the generated agents' Python guard is tested with (see builder-worker's
// sql-guard-parity.spec.ts): one policy, two implementations.
const { cases } = JSON.parse(
  readFileSync(path.join(__dirname, '..', 'sql-guard-vectors.json'), 'utf8'),
) as { cases: GuardVector[] };

function verdictOf(vector: GuardVector): string {
  try {
    guardSelect(vector.sql, vector.dialect, { rowLimit: 100 });
    return 'allowed';
  } catch (error) {
    if (error instanceof SqlRefusedError) return 'refused';
    throw error;
  }
}

describe('the shared SQL guard vectors', () => {
  it('cover both verdicts in every dialect', () => {
    for (const dialect of ['sqlite', 'postgresql', 'mysql'] as const) {
      for (const verdict of ['allowed', 'refused'] as const) {
        expect(cases.some((c) => c.dialect === dialect && c.verdict === verdict)).toBe(true);
      }
    }
  });

  it.each(cases.map((vector) => [vector.verdict, vector.dialect, vector.sql, vector] as const))(
    '%s in %s: %s',
    (verdict, _dialect, _sql, vector) => {
      expect(verdictOf(vector)).toBe(verdict);
    },
  );

  it('names the function it refuses', () => {
    expect(() =>
      guardSelect('SELECT pg_read_file($$/etc/passwd$$)', 'postgresql', { rowLimit: 5 }),
    ).toThrow(
      /^The query calls pg_read_file\(\), which previews do not run: only aggregate, text, date, math and conditional functions are allowed\.$/,
    );
  });
});

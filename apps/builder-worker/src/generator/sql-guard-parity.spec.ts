import { ALLOWED_SQL_FUNCTIONS } from '@agentloom/agent-runtime';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TEMPLATES_DIR } from './templates';

interface GuardVector {
  dialect: 'sqlite' | 'postgresql' | 'mysql';
  sql: string;
  verdict: 'allowed' | 'refused';
}

// The vectors the preview's TypeScript guard is tested with (agent-runtime's
// sql-guard-vectors.spec.ts): one policy, two implementations that must agree on every case.
const { cases } = JSON.parse(
  readFileSync(require.resolve('@agentloom/agent-runtime/sql-guard-vectors.json'), 'utf8'),
) as { cases: GuardVector[] };

/** Runs the template's sql_guard.py (pure stdlib) over the vectors and its allowlist. */
function pythonGuard(): { verdicts: string[]; allowed: Record<string, string[]> } {
  const script = [
    'import importlib.util, json, sys',
    `spec = importlib.util.spec_from_file_location("sql_guard", ${JSON.stringify(
      path.join(TEMPLATES_DIR, 'sql/agent/sql_guard.py'),
    )})`,
    'guard = importlib.util.module_from_spec(spec)',
    'sys.modules["sql_guard"] = guard',
    'spec.loader.exec_module(guard)',
    'def verdict(case):',
    '    try:',
    '        guard.guard_select(case["sql"], 100, case["dialect"])',
    '        return "allowed"',
    '    except guard.UnsafeQueryError:',
    '        return "refused"',
    'cases = json.loads(sys.stdin.read())',
    'allowed = {d: sorted(names) for d, names in guard.ALLOWED_FUNCTIONS.items()}',
    'print(json.dumps({"verdicts": [verdict(c) for c in cases], "allowed": allowed}))',
  ].join('\n');
  const result = spawnSync('python3', ['-c', script], {
    input: JSON.stringify(cases),
    encoding: 'utf8',
    // Never leave __pycache__ in the templates folder.
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as { verdicts: string[]; allowed: Record<string, string[]> };
}

describe("the generated agents' SQL guard and the preview's agree", () => {
  const python = pythonGuard();

  it.each(
    cases.map((vector, index) => [vector.verdict, vector.dialect, vector.sql, index] as const),
  )('Python: %s in %s: %s', (verdict, _dialect, _sql, index) => {
    expect(python.verdicts[index]).toBe(verdict);
  });

  it('allow exactly the same functions in every dialect', () => {
    const typescript = Object.fromEntries(
      Object.entries(ALLOWED_SQL_FUNCTIONS).map(([dialect, names]) => [dialect, [...names].sort()]),
    );
    expect(python.allowed).toEqual(typescript);
  });
});

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { TEMPLATES_DIR } from '../generator/templates';

type PythonTable = Record<string, string | null> & string[];

/**
 * The module-level dict and tuple literals of a template's Python file, read with Python's own
 * parser (the templates import their package, so they are parsed rather than imported): string
 * and None values as they are, names (a class) as their identifier, tuples as arrays. The parity
 * tests hold these tables to the contracts' catalogues.
 */
export function pythonTables(template: string): Record<string, PythonTable> {
  const script = [
    'import ast, json, sys',
    'def value(node):',
    '    return node.id if isinstance(node, ast.Name) else ast.literal_eval(node)',
    'tables = {}',
    'for node in ast.parse(open(sys.argv[1]).read()).body:',
    '    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]',
    '    if not isinstance(targets[0], ast.Name):',
    '        continue',
    '    if isinstance(node.value, ast.Dict):',
    '        tables[targets[0].id] = {ast.literal_eval(k): value(v)',
    '                                 for k, v in zip(node.value.keys, node.value.values)}',
    '    elif isinstance(node.value, (ast.Tuple, ast.List)):',
    '        tables[targets[0].id] = [value(v) for v in node.value.elts]',
    'print(json.dumps(tables, default=repr))',
  ].join('\n');
  const file = path.join(TEMPLATES_DIR, template);
  const result = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as Record<string, PythonTable>;
}

#!/usr/bin/env node
// No import circle between the files of one package, type-only imports included: each package
// should read top-down, from leaf modules (shared types, constants) to the modules that use
// them. Follows every relative `import`, `import type`, `export … from` and `import()` of each
// app's and package's TypeScript, and fails naming each circle it finds. Run by `npm run lint`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|tsx|mts|cts)$/;
const SKIP = new Set(['node_modules', 'dist', 'build', 'coverage', 'test-results', 'templates']);

/** Every TypeScript file under `dir`. */
function sourceFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(full));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

/** The file a relative specifier names, as TypeScript would resolve it; null when none. */
function resolve(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(m|c)?js$/, '');
  const candidates = [
    base,
    ...['.ts', '.tsx', '.mts', '.cts'].map((extension) => stem + extension),
    ...['index.ts', 'index.tsx'].map((index) => path.join(base, index)),
  ];
  return (
    candidates.find((file) => existsSync(file) && statSync(file).isFile() && SOURCE.test(file)) ??
    null
  );
}

/** The files of its own package a file imports (type-only and dynamic imports included). */
export function importsOf(file, text = readFileSync(file, 'utf8')) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(file, specifier))
    .filter((target) => target !== null);
}

/** The circles of a graph (Tarjan's strongly connected components of more than one file, or a
 * file that imports itself), each as its files in a stable order. */
export function circlesOf(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) {
      circles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return circles;
}

/** Every workspace folder: apps/* and packages/*. */
function packages() {
  return ['apps', 'packages'].flatMap((folder) =>
    readdirSync(path.join(root, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(root, folder, entry.name)),
  );
}

function main() {
  const found = [];
  let files = 0;
  for (const dir of packages()) {
    const graph = new Map();
    for (const file of sourceFiles(dir)) {
      graph.set(file, importsOf(file));
      files += 1;
    }
    for (const circle of circlesOf(graph)) {
      found.push(circle.map((file) => path.relative(root, file)).join(' ↔ '));
    }
  }
  if (found.length > 0) {
    console.error(
      `check-import-cycles: ${found.length} import circle(s) inside a package ` +
        `(move the shared types to a leaf module):\n  ${found.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log(`check-import-cycles: ${files} files, no import circle inside a package.`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();

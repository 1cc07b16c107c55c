#!/usr/bin/env node
// The guides name files; a guide that names a file that no longer exists misleads a newcomer.
// Checks every repository path written in backticks in docs/*.md and the READMEs of the apps and
// packages, and fails listing the ones that are missing. Run by `npm run lint`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = /^(apps|packages|scripts|prisma|docs)\//;
// An app's or package's README names its own files from its folder.
const LOCAL = /^(src|templates|e2e)\//;

const guides = [
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...['apps', 'packages'].flatMap((folder) =>
    readdirSync(path.join(root, folder))
      .map((name) => `${folder}/${name}/README.md`)
      .filter((file) => existsSync(path.join(root, file))),
  ),
];

const missing = [];
let checked = 0;
for (const guide of guides) {
  const text = readFileSync(path.join(root, guide), 'utf8');
  for (const [, quoted] of text.matchAll(/`([^`\s]+)`/g)) {
    // Paths only: a repository-rooted path, without placeholders such as {type} or <id>.
    if (/[{}<>*|]/.test(quoted)) continue;
    const from = ROOTS.test(quoted)
      ? root
      : LOCAL.test(quoted)
        ? path.dirname(path.join(root, guide))
        : null;
    if (!from || (guide.startsWith('docs/') && from !== root)) continue;
    checked += 1;
    if (!existsSync(path.join(from, quoted))) missing.push(`${guide}: ${quoted}`);
  }
}

if (missing.length > 0) {
  console.error(
    `The guides name ${missing.length} path(s) that do not exist:\n  ${missing.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`check-docs: ${checked} paths named in ${guides.length} guides, all exist.`);

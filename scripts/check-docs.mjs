#!/usr/bin/env node
// The guides name files, routes and settings; a guide that names one that no longer exists
// misleads a newcomer. Checks docs/*.md, the README and the READMEs of the apps and packages:
//   - every repository path written in backticks exists;
//   - every route named as `METHOD /path`, and every backticked `/path` under a prefix the API
//     or the web app serves, is a route the gateway or the web app declares ({id}, :id and <id>
//     all stand for a parameter; {rag|sql} for either);
//   - every setting written in backticks (`LOG_LEVEL`, `PUBLISHED_RUNTIME_URLS=…`) is read
//     somewhere in the code, the compose file or the Dockerfile;
//   - every link to a section of a guide in docs/ (`docs/product.md#the-wizards`, in a guide or
//     in a comment of the code) names a heading that exists;
//   - every backticked name shaped like a code identifier (`closestCurated`, `HostedIndexes`,
//     `languageModel()`) occurs in the source (.ts, .tsx, .py, .mjs, .prisma…), so a guide does
//     not keep naming a function or class that was renamed or removed.
// Fails listing what is missing. Run by `npm run lint`; `--guide FILE` checks extra files too.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = /^(apps|packages|scripts|prisma|docs|deploy)\//;
// An app's or package's README names its own files from its folder.
const LOCAL = /^(src|templates|e2e)\//;
const SKIP = new Set(['node_modules', 'dist', 'build', 'coverage', 'test-results', '.turbo']);

function walk(dir, keep) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full, keep);
    return keep(entry.name) ? [full] : [];
  });
}

const read = (file) => readFileSync(file, 'utf8');

// ---- routes ----

const METHOD = '(?:Get|Post|Put|Patch|Delete|All|WizardStep|WizardUpload)';

/** Every string value inside an object (BUILD_ROUTES, WIZARD_ROUTES…), however deep. */
function stringsIn(value) {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/**
 * A decorator's argument: a string literal, a contracts constant, or a constant of the file or of
 * a file it imports it from.
 */
function evaluate(expression, contracts, file) {
  const literal = /^'([^']*)'$/.exec(expression);
  if (literal) return [literal[1]];
  if (expression.startsWith('[')) return [...expression.matchAll(/'([^']*)'/g)].map(([, p]) => p);
  if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(expression)) return [];
  const [head, ...rest] = expression.split('.');
  let value = contracts[head];
  if (value === undefined) {
    const text = read(file);
    const local = new RegExp(`(?:const|export const) ${head}\\s*=\\s*([^;]+);`).exec(text);
    const imported = new RegExp(`import \\{[^}]*\\b${head}\\b[^}]*\\} from '(\\.[^']+)'`).exec(
      text,
    );
    if (local) {
      const inner = local[1].trim();
      if (/^'[^']*'$/.test(inner)) value = inner.slice(1, -1);
      else return evaluate([inner, ...rest].join('.'), contracts, file);
    } else if (imported) {
      const from = path.resolve(path.dirname(file), `${imported[1]}.ts`);
      return existsSync(from) ? evaluate(expression, contracts, from) : [];
    } else {
      return [];
    }
  }
  for (const key of rest) value = value?.[key];
  return stringsIn(value);
}

/** The routes the gateway's controllers declare, as `/a/:param/b`. */
function gatewayRoutes(contracts) {
  const routes = [];
  for (const file of walk(path.join(root, 'apps/gateway/src'), (name) => name.endsWith('.ts'))) {
    const text = read(file);
    const controller = /@Controller\(([^)]*)\)/.exec(text);
    if (!controller) continue;
    const prefixes = controller[1].trim() ? evaluate(controller[1].trim(), contracts, file) : [''];
    for (const [, argument] of text.matchAll(
      new RegExp(`@${METHOD}\\(\\s*(\\[[^\\]]*\\]|[^,)\\n]*)`, 'g'),
    )) {
      const paths = argument.trim() ? evaluate(argument.trim(), contracts, file) : [''];
      for (const prefix of prefixes) for (const route of paths) routes.push(`${prefix}/${route}`);
    }
  }
  return routes;
}

/** The web app's pages (react-router `path="…"`), without its catch-all "not found" page. */
function webRoutes() {
  return [...read(path.join(root, 'apps/web/src/App.tsx')).matchAll(/path="([^"]+)"/g)]
    .map(([, route]) => route)
    .filter((route) => route !== '*');
}

/** A path as a list of segments, every parameter as ':' and an optional one as ':?'. */
function segments(route) {
  return route
    .split('/')
    .filter(Boolean)
    .map((segment) =>
      /^(\{[^}|]+\}|:[A-Za-z]+|<[^>]+>)$/.test(segment)
        ? ':'
        : /^:[A-Za-z]+\?$/.test(segment)
          ? ':?'
          : segment,
    );
}

/** `{rag|sql}` → both paths; `[/{id}]` → with and without it. */
function expand(route) {
  const choice = /\{([a-z-]+(?:\|[a-z-]+)+)\}/.exec(route);
  if (choice) {
    return choice[1].split('|').flatMap((option) => expand(route.replace(choice[0], option)));
  }
  const optional = /\[([^\]]+)\]/.exec(route);
  if (optional) {
    return [route.replace(optional[0], ''), route.replace(optional[0], optional[1])].flatMap(
      expand,
    );
  }
  return [route];
}

function matches(named, declared) {
  const wildcard = declared.findIndex(
    (segment) => segment.startsWith('*') || segment === '{*path}',
  );
  const required = declared.filter((segment) => segment !== ':?').length;
  if (wildcard >= 0) {
    return (
      named.length >= wildcard && named.slice(0, wildcard).every((s, i) => same(s, declared[i]))
    );
  }
  if (named.length < required || named.length > declared.length) return false;
  return named.every((segment, index) => same(segment, declared[index]));
}

const same = (named, declared) =>
  named === declared || named === ':' || declared === ':' || declared === ':?';

/** What the repository declares, read once: routes (as segment lists) and setting names. */
export async function repositoryFacts() {
  const contractsDist = path.join(root, 'packages/contracts/dist/index.js');
  // The contracts' route constants (BUILD_ROUTES, WIZARD_ROUTES…), built by `npm run lint`'s
  // typecheck step before this script runs.
  const contracts = existsSync(contractsDist) ? await import(contractsDist) : {};
  const declared = [
    ...gatewayRoutes(contracts),
    ...stringsIn(contracts.BUILD_ROUTES ?? {}),
    ...stringsIn(contracts.WIZARD_ROUTES ?? {}),
    ...webRoutes(),
    // Swagger UI and its JSON (app.setup.ts), the Socket.IO namespace of live builds.
    '/docs',
    '/docs-json',
    contracts.BUILDS_NAMESPACE ?? '/builds',
  ];
  const routes = declared.map(segments);
  const roots = new Set(routes.map((route) => route[0]).filter((first) => first && first !== ':'));

  const sources = [
    ...['apps', 'packages'].flatMap((folder) =>
      walk(path.join(root, folder), (name) =>
        /\.(ts|tsx|mjs|js|py|tmpl|ya?ml|toml|cfg|sh)$/.test(name),
      ),
    ),
    // Not this script's own test, whose stale names must stay unknown.
    ...walk(
      path.join(root, 'scripts'),
      (name) => name.endsWith('.mjs') && !name.endsWith('.test.mjs'),
    ),
    ...walk(path.join(root, 'apps/builder-worker/templates'), () => true),
    // The Swarm stack and the Helm chart (docs/operating.md, "Beyond one machine"), and the
    // scripts that deploy and check them.
    ...walk(path.join(root, 'deploy'), (name) => /\.(ya?ml|sh|tpl|json|txt)$/.test(name)),
    ...walk(path.join(root, 'scripts'), (name) => name.endsWith('.sh')),
    ...['docker-compose.yml', 'Dockerfile', 'turbo.json', 'prisma.config.ts', '.ci/run']
      .map((file) => path.join(root, file))
      .filter((file) => existsSync(file)),
  ];
  const settings = new Set();
  for (const file of sources) {
    for (const [name] of read(file).matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g))
      settings.add(name);
  }
  return { routes, roots, settings, anchors: docAnchors(), ...sourceIdentifiers() };
}

/** A heading's anchor as GitHub makes it: lower case, punctuation out, spaces to hyphens. */
const anchorOf = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** Each guide of docs/ by file name, with the anchors of its headings. */
function docAnchors() {
  const anchors = new Map();
  for (const name of readdirSync(path.join(root, 'docs')).filter((n) => n.endsWith('.md'))) {
    const headings = read(path.join(root, 'docs', name)).matchAll(/^#{1,6} (.+)$/gm);
    anchors.set(name, new Set([...headings].map(([, heading]) => anchorOf(heading))));
  }
  return anchors;
}

const SECTION_LINK = /([\w-]+\.md)#([\w-]+)/g;

/** Links to a section of a guide in docs/ whose heading is not there (renamed or removed). */
export function brokenSections(text, anchors) {
  const broken = [];
  for (const [, file, anchor] of text.matchAll(SECTION_LINK)) {
    if (anchors.get(file)?.has(anchor) === false) broken.push(`section ${file}#${anchor}`);
  }
  return [...new Set(broken)];
}

// The source whose names a guide may cite: code, schema and the Helm chart's values, not build
// output nor this script and its test (whose examples and stale names must stay unknown).
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs|py|prisma|tmpl|ya?ml|tpl)$/;
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;

/** Every identifier-like word of the source tree, and its links to sections of docs/, read once. */
function sourceIdentifiers() {
  const identifiers = new Set();
  const sectionLinks = [];
  const files = ['apps', 'packages', 'scripts', 'prisma', 'deploy'].flatMap((folder) =>
    walk(path.join(root, folder), (name) => CODE.test(name) && !name.startsWith('check-docs.')),
  );
  for (const file of [...files, path.join(root, 'prisma.config.ts')]) {
    if (!existsSync(file)) continue;
    const text = read(file);
    for (const [word] of text.matchAll(IDENTIFIER)) identifiers.add(word);
    if (text.includes('.md#')) sectionLinks.push({ file: path.relative(root, file), text });
  }
  return { identifiers, sectionLinks };
}

/**
 * A backticked name that reads as code rather than a word: camelCase (`closestCurated`) or
 * PascalCase with more than one part (`HostedIndexWriter`, `SqlAgent`), optionally called
 * (`languageModel()`) or a member (`HostedIndexes.open`, each part checked).
 */
function codeIdentifiers(quoted) {
  const name = quoted.replace(/\(\)$/, '');
  if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(name)) return [];
  return name
    .split('.')
    .filter((part) => /^[a-z][a-z0-9]*[A-Z]/.test(part) || /^[A-Z][a-z0-9]+[A-Z]/.test(part));
}

// Elided (`/build/{type}/…`), wildcard or traversal (`/w/../docs-json`, an attack the docs show).
const UNCHECKED_PATH = /[…*]|\.\./;
// Upper-case names of other tools' things that guides mention, not settings of ours.
const NOT_SETTINGS = new Set([
  // LanceDB's index type (docs/hosted-index.md).
  'IVF_HNSW_SQ',
]);

/** What a guide's text names that does not exist: routes, settings and code names. */
export function staleNames(text, facts) {
  const stale = [];
  const checkRoute = (named) => {
    // The query string is not part of the route; a path ending in / names a prefix.
    const cleaned = named.replace(/[.,;:]+$/, '');
    const bare = cleaned.split('?', 1)[0];
    const prefix = bare.endsWith('/');
    for (const route of expand(bare)) {
      const parts = segments(route);
      const known = facts.routes.some((declared) =>
        prefix
          ? parts.every(
              (segment, index) => index < declared.length && same(segment, declared[index]),
            )
          : matches(parts, declared),
      );
      if (!known) stale.push(`route ${cleaned}`);
    }
  };
  // `METHOD /path`, in backticks or not: always a route.
  for (const [, named] of text.matchAll(/\b(?:GET|POST|PUT|PATCH|DELETE) (\/[^\s`)'"]*)/g)) {
    if (!UNCHECKED_PATH.test(named)) checkRoute(named);
  }
  for (const [, quoted] of text.matchAll(/`([^`\s]+)`/g)) {
    // A backticked path under a prefix something serves (not a file system path like /etc/…).
    if (quoted.startsWith('/') && !UNCHECKED_PATH.test(quoted)) {
      const first = segments(quoted)[0];
      if (first && facts.roots.has(first)) checkRoute(quoted);
    }
    const setting = /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(=.*)?$/.exec(quoted);
    if (setting && !facts.settings.has(setting[1]) && !NOT_SETTINGS.has(setting[1])) {
      stale.push(`setting ${setting[1]}`);
    }
    for (const name of codeIdentifiers(quoted)) {
      if (!facts.identifiers.has(name)) stale.push(`name ${name}`);
    }
  }
  return [...new Set(stale)];
}

/** Repository paths named in backticks that do not exist. */
function missingPaths(guide, text) {
  const missing = [];
  for (const [, quoted] of text.matchAll(/`([^`\s]+)`/g)) {
    // Paths only: a repository-rooted path, without placeholders such as {type} or <id>, and
    // not build output (dist/), which exists only once built.
    if (/[{}<>*|]/.test(quoted) || /(^|\/)dist\//.test(quoted)) continue;
    const from = ROOTS.test(quoted)
      ? root
      : LOCAL.test(quoted)
        ? path.dirname(path.join(root, guide))
        : null;
    if (!from || (guide.startsWith('docs/') && from !== root)) continue;
    if (!existsSync(path.join(from, quoted))) missing.push(quoted);
  }
  return missing;
}

function guides() {
  return [
    'README.md',
    ...readdirSync(path.join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
    ...['apps', 'packages'].flatMap((folder) =>
      readdirSync(path.join(root, folder))
        .map((name) => `${folder}/${name}/README.md`)
        .filter((file) => existsSync(path.join(root, file))),
    ),
  ];
}

async function main() {
  const extra = process.argv.flatMap((arg, index, all) =>
    all[index - 1] === '--guide' ? [path.relative(root, path.resolve(arg))] : [],
  );
  const facts = await repositoryFacts();
  const problems = [];
  const all = [...guides(), ...extra];
  for (const guide of all) {
    const text = read(path.join(root, guide));
    for (const quoted of missingPaths(guide, text)) problems.push(`${guide}: path ${quoted}`);
    for (const name of staleNames(text, facts)) problems.push(`${guide}: ${name}`);
    for (const link of brokenSections(text, facts.anchors)) problems.push(`${guide}: ${link}`);
  }
  for (const { file, text } of facts.sectionLinks) {
    for (const link of brokenSections(text, facts.anchors)) problems.push(`${file}: ${link}`);
  }
  if (problems.length > 0) {
    console.error(
      `The guides name ${problems.length} path(s), route(s), setting(s), code name(s) or section(s) that do not exist:\n  ${problems.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log(
    `check-docs: ${all.length} guides; every path, route, setting, code name and section they ` +
      `name exists (${facts.routes.length} routes, ${facts.settings.size} setting names, ` +
      `${facts.identifiers.size} source identifiers known; ${facts.sectionLinks.length} source ` +
      `files link to sections of docs/).`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

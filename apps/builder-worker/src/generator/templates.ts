import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The project templates are real files under apps/builder-worker/templates, read at run time
 * (they are not compiled). `../../templates` resolves from both src/generator (tests) and
 * dist/generator (the built worker), since tsconfig maps src/ onto dist/ one to one.
 */
export const TEMPLATES_DIR = path.resolve(__dirname, '../../templates');

/** Placeholders look like @@NAME@@; only `.tmpl` files have them. */
const PLACEHOLDER = /@@([A-Z][A-Z0-9_]*)@@/g;

/**
 * Templates read so far, by path. They ship with the code and change only with it, so each is
 * read once per process instead of once per build (a build uses dozens).
 */
const cache = new Map<string, Promise<string>>();

export function readTemplate(relative: string): Promise<string> {
  const file = path.resolve(TEMPLATES_DIR, relative);
  if (!file.startsWith(TEMPLATES_DIR + path.sep)) {
    return Promise.reject(new Error(`Template ${relative} is outside the templates folder.`));
  }
  let text = cache.get(file);
  if (!text) {
    text = readTemplateFile(file);
    cache.set(file, text);
    // A failed read is not remembered: the next build tries again.
    text.catch(() => cache.delete(file));
  }
  return text;
}

async function readTemplateFile(file: string): Promise<string> {
  if (!existsSync(TEMPLATES_DIR)) {
    throw new Error(`The templates folder ${TEMPLATES_DIR} is missing from this build.`);
  }
  return readFile(file, 'utf8');
}

/**
 * Fill a template's placeholders in a single pass: a value is inserted as it is and never
 * scanned again, so a value containing "@@X@@" stays literal. Every placeholder must have a
 * value, and every value must be used, so a typo fails loudly instead of shipping "@@X@@".
 */
export function renderTemplate(template: string, values: Record<string, string | number>): string {
  const used = new Set<string>();
  const rendered = template.replace(PLACEHOLDER, (_match, key: string) => {
    if (!Object.hasOwn(values, key)) throw new Error(`No value for template placeholder ${key}.`);
    used.add(key);
    return String(values[key]);
  });
  const unused = Object.keys(values).filter((key) => !used.has(key));
  if (unused.length > 0) throw new Error(`Unused template values: ${unused.join(', ')}.`);
  return rendered;
}

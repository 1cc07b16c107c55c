import path from 'node:path';
import { TEMPLATES_DIR } from './templates';

/**
 * The universes' lock files as `uv pip compile --generate-hashes` writes them: their entries
 * (with markers and hashes) and uv's `# via` notes, read back into who requires whom.
 */

/** Where the universes' `.in` and `.lock` files live (shipped with the templates). */
export const LOCKS_DIR = path.join(TEMPLATES_DIR, 'locks');

/** A package's normalised name (PEP 503): `PyMySQL` and `pymysql` are one package. */
export function packageName(requirement: string): string {
  const name = /^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(requirement)?.[0] ?? requirement;
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

interface LockedPackage {
  /**
   * The whole entry as uv wrote it: `name==version ; marker \` and its hash lines, without
   * comments. A universal lock may hold a package twice, a version per marker (scipy for 3.11
   * and for 3.12+): both entries, one after the other.
   */
  entry: string;
  /** The packages that require this one (uv's `# via`), normalised. */
  requiredBy: string[];
}

export interface UniverseLock {
  /** The first line: `# input-sha256: …` of the `.in` it was resolved from. */
  inputHash: string;
  packages: Map<string, LockedPackage>;
  /** package → the packages it requires, inverted from `requiredBy`. */
  requires: Map<string, string[]>;
}

/** Parses a lock written by `uv pip compile --generate-hashes` (with its `# via` notes). */
export function parseLock(text: string): UniverseLock {
  const inputHash = /^# input-sha256: ([0-9a-f]{64})$/m.exec(text)?.[1] ?? '';
  const packages = new Map<string, LockedPackage>();
  let current: { name: string; lines: string[]; requiredBy: string[] } | undefined;
  let inVia = false;
  const finish = () => {
    if (!current) return;
    const earlier = packages.get(current.name);
    packages.set(current.name, {
      entry: [earlier?.entry, current.lines.join('\n')].filter(Boolean).join('\n'),
      requiredBy: [...(earlier?.requiredBy ?? []), ...current.requiredBy],
    });
  };
  for (const line of text.split('\n')) {
    if (/^[A-Za-z0-9]/.test(line)) {
      finish();
      current = { name: packageName(line), lines: [line], requiredBy: [] };
      inVia = false;
    } else if (current && /^\s+--hash=/.test(line)) {
      current.lines.push(line);
    } else if (current && /^\s+# via\s*$/.test(line)) {
      inVia = true;
    } else if (current && /^\s+# via /.test(line)) {
      current.requiredBy.push(line.replace(/^\s+# via /, '').trim());
      inVia = false;
    } else if (current && inVia && /^\s+#\s{3}/.test(line)) {
      current.requiredBy.push(line.replace(/^\s+#\s+/, '').trim());
    } else {
      inVia = false;
    }
  }
  finish();
  // `-r main.in` marks a direct dependency; every other name is a package of the lock.
  for (const locked of packages.values()) {
    locked.requiredBy = [
      ...new Set(locked.requiredBy.filter((by) => !by.startsWith('-')).map(packageName)),
    ];
  }
  const requires = new Map<string, string[]>();
  for (const [name, locked] of packages) {
    for (const parent of locked.requiredBy) {
      requires.set(parent, [...(requires.get(parent) ?? []), name]);
    }
  }
  return { inputHash, packages, requires };
}

/** The named packages and everything they require, transitively, within the lock. */
export function closure(
  lock: UniverseLock,
  roots: readonly string[],
  /** Packages not entered (nor what only they require). */
  without: ReadonlySet<string> = new Set(),
): Set<string> {
  const seen = new Set<string>();
  const queue = roots.map(packageName);
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name) || without.has(name)) continue;
    if (!lock.packages.has(name)) {
      throw new Error(`${name} is not in the lock; run npm run agents:lock.`);
    }
    seen.add(name);
    queue.push(...(lock.requires.get(name) ?? []));
  }
  return seen;
}

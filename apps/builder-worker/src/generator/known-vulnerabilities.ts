import { packageName } from './lock-file';

/**
 * Published advisories against packages in the generated agents' locks that no release fixes
 * yet, each with the reason the agent is not exposed. `npm run agents:audit` fails on any
 * advisory that is not listed here; a project whose lock holds the package lists these in its
 * README ("Known vulnerabilities") and its own CI's pip-audit ignores exactly these ids.
 *
 * Remove an entry as soon as a release fixes it: pin that release and run `npm run agents:lock`.
 */
export interface AcceptedVulnerability {
  package: string;
  version: string;
  /** The advisory's ids as pip-audit reports them (one advisory often has several). */
  ids: readonly string[];
  cve: string;
  /** Why the agent is not exposed, in a sentence or two a user can check. */
  reason: string;
}

export const ACCEPTED_VULNERABILITIES: readonly AcceptedVulnerability[] = [
  {
    package: 'vanna',
    version: '2.0.2',
    ids: ['GHSA-6mj8-jmp2-g8q7', 'PYSEC-2026-3397'],
    cve: 'CVE-2026-4229',
    reason:
      'SQL injection in `remove_training_data` of Vanna’s BigQuery vector store ' +
      '(`vanna.legacy.google.bigquery_vector`). This agent never imports that module: it keeps ' +
      'Vanna’s training data in memory (`agent/engine.py`). No Vanna release fixes it yet ' +
      '(2.0.2 is the latest).',
  },
];

/** The accepted advisories that apply to a lock holding `packages` (name → locked version). */
export function acceptedFor(packages: ReadonlyMap<string, string>): AcceptedVulnerability[] {
  return ACCEPTED_VULNERABILITIES.filter(
    (accepted) => packages.get(packageName(accepted.package)) === accepted.version,
  );
}

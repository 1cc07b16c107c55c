/**
 * The three ways a database source can be rejected. The HTTP layer maps each class to a status,
 * so the message is always a sentence meant for the person filling in the wizard.
 */

/** Bad form of the input (→ HTTP 400). */
export class InvalidDataSourceError extends Error {
  override readonly name = 'InvalidDataSourceError';
}

/** The target is not allowed: the platform's own Postgres/Redis, cloud metadata, or private ranges in strict mode (→ HTTP 422). */
export class RefusedDataSourceError extends Error {
  override readonly name = 'RefusedDataSourceError';
}

/** Could not resolve / connect / authenticate / find the table (→ HTTP 422). The message never contains the password. */
export class UnreachableDataSourceError extends Error {
  override readonly name = 'UnreachableDataSourceError';
}

/**
 * The source names something this server cannot open for reasons of its own set-up (a SQLite
 * file outside the folder shared for previews, say), not of the URI's form (→ HTTP 422).
 */
export class UnusableDataSourceError extends Error {
  override readonly name = 'UnusableDataSourceError';
}

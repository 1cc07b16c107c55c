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

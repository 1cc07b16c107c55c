/** The file's content is not what its kind requires (→ HTTP 415). message is a user-facing sentence. */
export class UnsupportedUploadError extends Error {
  override name = 'UnsupportedUploadError';
}

/** The content type is right but the parser cannot read it (→ HTTP 422). message includes the parser's reason. */
export class UnreadableUploadError extends Error {
  override name = 'UnreadableUploadError';
}

/**
 * The reason a parser gave, for the user-facing sentence. Duck-typed rather than `instanceof
 * Error`: errors from Node's core (zlib) come from another realm under jest, and some parsers
 * throw plain values.
 */
export function reasonOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    if (typeof error.message === 'string') return error.message;
  }
  return String(error);
}

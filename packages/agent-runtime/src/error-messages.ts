export interface ErrorLike {
  name: string;
  message: string;
  cause?: unknown;
}

/**
 * Errors are recognised by shape, not `instanceof`: fetch's errors come from Node's own realm,
 * which is not the caller's under test runners with separate globals (jest).
 */
export function isErrorLike(value: unknown): value is ErrorLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorLike).message === 'string' &&
    typeof (value as ErrorLike).name === 'string'
  );
}

/** An error's message, whatever realm or shape it comes in. */
export function messageOf(error: unknown): string {
  return isErrorLike(error) ? error.message : String(error);
}

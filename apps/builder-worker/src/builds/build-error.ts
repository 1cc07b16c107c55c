import { UnreadableUploadError } from '@agentloom/source-readers';

/** A failure the user can act on; its message is shown on the build screen as it is. */
export class BuildError extends Error {}

/**
 * Runs work that reads the upload. It was checked when it arrived, so a file that no longer
 * reads is the user's to replace: that becomes a BuildError with the reader's reason.
 */
export async function readingUpload<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UnreadableUploadError) {
      throw new BuildError(`${error.message} Upload the file again.`);
    }
    throw error;
  }
}

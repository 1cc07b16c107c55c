// Shared by the inspectUpload specs: a temp dir for fixtures, the limits, and the rejection check.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  UnreadableUploadError,
  UnsupportedUploadError,
  type UploadInspectionLimits,
} from './inspect-upload';
import { MB } from './testing/fixtures';

export const limits: UploadInspectionLimits = { xlsxMaxUncompressedBytes: 200 * MB };

/** The spec's temp dir: made before its tests by useFixtureDir(), removed after them. */
export let dir: string;

/** Call at the top of a spec file that writes fixtures. */
export function useFixtureDir(): void {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'inspect-upload-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
}

/** Writes a fixture into the temp dir and returns its path. */
export async function fixture(name: string, content: string | Uint8Array): Promise<string> {
  const filePath = path.join(dir, name);
  await writeFile(filePath, content);
  return filePath;
}

export async function expectRejection(
  promise: Promise<unknown>,
  errorClass: typeof UnsupportedUploadError | typeof UnreadableUploadError,
  message: string | RegExp,
): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(errorClass);
  expect((error as Error).message).toMatch(message);
}

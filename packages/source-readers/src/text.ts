import { readFile } from 'node:fs/promises';
import type { TUploadSummary } from '@agentloom/contracts';
import { UnreadableUploadError } from './upload-errors';
import { scanUtf8Text } from './utf8-text';

/** Line and character counts of a UTF-8 text file, read as a stream. */
export async function inspectText(
  filePath: string,
): Promise<Extract<TUploadSummary, { kind: 'text_file' }>> {
  const { lines, characters } = await scanUtf8Text(filePath);
  if (characters === 0) throw new UnreadableUploadError('The text file is empty.');
  return { kind: 'text_file', lines, characters };
}

/** The whole text of a UTF-8 file without its byte-order mark (the upload limit bounds its size). */
export async function readTextFile(filePath: string): Promise<string> {
  return (await readFile(filePath, 'utf8')).replace(/^\uFEFF/, '');
}

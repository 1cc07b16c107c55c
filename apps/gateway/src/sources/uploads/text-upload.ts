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

import type { TUploadKind, TUploadSummary } from '@agentloom/contracts';
import { inspectCsv } from './csv';
import { inspectPdf } from './pdf';
import { inspectText } from './text';
import { inspectExcel } from './excel';

export { UnreadableUploadError, UnsupportedUploadError } from './upload-errors';

export interface UploadInspectionLimits {
  /** Sum of declared uncompressed sizes of all XLSX zip entries must stay at or below this. */
  xlsxMaxUncompressedBytes: number;
}

/**
 * Checks content (never trusting name or header) and parses once; returns what was found.
 * Throws UnsupportedUploadError (415) when the content is not of the kind, UnreadableUploadError
 * (422) when it is but cannot be parsed. CSV, text and XLSX files are streamed; a PDF is read whole.
 */
export async function inspectUpload(
  filePath: string,
  kind: TUploadKind,
  limits: UploadInspectionLimits,
): Promise<TUploadSummary> {
  switch (kind) {
    case 'pdf':
      return inspectPdf(filePath);
    case 'csv':
      return inspectCsv(filePath);
    case 'text_file':
      return inspectText(filePath);
    case 'excel':
      return inspectExcel(filePath, limits.xlsxMaxUncompressedBytes);
  }
}

const MAX_NAME_LENGTH = 120;
/** Longer "extensions" are just part of the name and may be cut. */
const MAX_EXTENSION_LENGTH = 16;
/** C0/C1 controls (NUL included) and the bidi controls that can make "fdp.exe" read as "exe.pdf". */
const UNSAFE_CHARS = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Display-safe version of a client file name: last path segment only (split on / and \), control
 * chars and NUL removed, trimmed, at most 120 chars (keep the extension), 'upload' if nothing is
 * left. "." and ".." count as nothing. Bidi controls go too: they can disguise the extension.
 */
export function sanitizeOriginalName(name: string): string {
  const segment = name.split(/[/\\]/).pop() ?? '';
  const cleaned = shorten(segment.replace(UNSAFE_CHARS, '').trim());
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'upload' : cleaned;
}

/** Cuts the base name, not the extension, to fit MAX_NAME_LENGTH UTF-16 units. */
function shorten(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= MAX_EXTENSION_LENGTH ? name.slice(dot) : '';
  const base = name.slice(0, name.length - extension.length);
  return truncate(base, MAX_NAME_LENGTH - extension.length).trimEnd() + extension;
}

/** The longest prefix within `max` UTF-16 units that does not split a surrogate pair. */
function truncate(text: string, max: number): string {
  let result = '';
  for (const char of text) {
    if (result.length + char.length > max) break;
    result += char;
  }
  return result;
}

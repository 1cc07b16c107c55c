import { createReadStream } from 'node:fs';
import { readableSize } from '@agentloom/contracts';
import { readDocxDocuments } from './docx';
import { hasBinarySignature } from './file-signature';
import { decodeHtml, readHtmlPage } from './html';
import { markdownDocuments } from './markdown';
import type { TextDocument } from './text-documents';
import { UnreadableUploadError, UnsupportedUploadError } from './upload-errors';
import { countCodePoints } from './utf8-text';

/** Prose files read into sections: Word documents, Markdown and HTML. */
export const DOCUMENT_EXTENSIONS = {
  docx: ['.docx'],
  markdown: ['.md', '.markdown'],
  html: ['.html', '.htm'],
} as const;
export type DocumentKind = keyof typeof DOCUMENT_EXTENSIONS;
export const DOCUMENT_KINDS = Object.keys(DOCUMENT_EXTENSIONS) as DocumentKind[];

export interface DocumentLimits {
  /** Word documents: the most their parts may unpack to, declared and as actually inflated. */
  docxMaxUncompressedBytes: number;
  /** Markdown and HTML: the most bytes read from the file. */
  textMaxBytes: number;
}

/**
 * Defaults that keep one document's parse within a few hundred MB of memory (a DOM and its text
 * cost 10–20 times the markup). A 300-page Word document's text part is a few MB.
 */
export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  docxMaxUncompressedBytes: 64 * 1024 * 1024,
  textMaxBytes: 16 * 1024 * 1024,
};

/** What an upload check found in a prose file. */
export interface DocumentSummary {
  kind: DocumentKind;
  /** Passages with text, one per section (plus the text before the first heading, if any). */
  sections: number;
  /** Unicode code points of text, over all sections. */
  characters: number;
  /** The headings, in order (at most the first 20). */
  headings: string[];
  /** HTML: the page's title. */
  title?: string;
}

const LABELS: Record<DocumentKind, string> = {
  docx: 'Word document',
  markdown: 'Markdown file',
  html: 'HTML file',
};
/** "The file is not …": the label with its article. */
const NOT_A: Record<DocumentKind, string> = {
  docx: 'The file is not a Word document',
  markdown: 'The file is not a Markdown file',
  html: 'The file is not an HTML file',
};

/**
 * Reads a prose file into cited sections. Checks the content, never the name: a file that is not
 * of the kind throws UnsupportedUploadError (415), one that is but cannot be read, or holds no
 * text, UnreadableUploadError (422). Decoded content is bounded by `limits` as it is read.
 */
export async function readDocumentFile(
  filePath: string,
  kind: DocumentKind,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): Promise<TextDocument[]> {
  switch (kind) {
    case 'docx':
      return readDocxDocuments(filePath, limits.docxMaxUncompressedBytes);
    case 'markdown':
      return markdownDocuments(await readMarkdownText(filePath, limits.textMaxBytes));
    case 'html':
      return readHtmlPage(await readHtmlText(filePath, limits.textMaxBytes)).documents;
  }
}

/** The upload check: reads the file as `readDocumentFile` does and says what it holds. */
export async function inspectDocument(
  filePath: string,
  kind: DocumentKind,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): Promise<DocumentSummary> {
  const documents = await readDocumentFile(filePath, kind, limits);
  if (documents.length === 0) throw new UnreadableUploadError(`The ${LABELS[kind]} has no text.`);
  const headings = [
    ...new Set(documents.flatMap((document) => (document.section ? [document.section] : []))),
  ];
  const title = documents[0]?.title;
  return {
    kind,
    sections: documents.length,
    characters: documents.reduce((sum, document) => sum + countCodePoints(document.text), 0),
    headings: headings.slice(0, 20),
    ...(title ? { title } : {}),
  };
}

/** The file's first `maxBytes` + 1 bytes at most: more means it is over the limit. */
async function readCapped(filePath: string, maxBytes: number, label: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = createReadStream(filePath);
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        throw new UnsupportedUploadError(
          `The ${label} is larger than ${readableSize(maxBytes)}, the most read from one file; split it into smaller files.`,
        );
      }
      chunks.push(chunk as Buffer);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

async function refuseBinary(filePath: string, kind: DocumentKind): Promise<void> {
  if (await hasBinarySignature(filePath)) {
    throw new UnsupportedUploadError(`${NOT_A[kind]}: it looks like a binary file.`);
  }
}

/** Markdown is UTF-8 text (its own specification's assumption); the BOM is dropped. */
async function readMarkdownText(filePath: string, maxBytes: number): Promise<string> {
  await refuseBinary(filePath, 'markdown');
  const bytes = await readCapped(filePath, maxBytes, LABELS.markdown);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UnsupportedUploadError(`${NOT_A.markdown}: it is not UTF-8 text.`);
  }
  if (text.includes('\0')) {
    throw new UnsupportedUploadError(`${NOT_A.markdown}: it contains NUL bytes.`);
  }
  // A whole web page saved as .md is HTML, not Markdown with some HTML in it.
  if (/^[ \t\r\n]*<(?:!doctype html|html)[\s>]/i.test(text)) {
    throw new UnsupportedUploadError(`${NOT_A.markdown}: it is an HTML page.`);
  }
  return text;
}

/** HTML in whatever encoding it declares; the file must start like markup. */
async function readHtmlText(filePath: string, maxBytes: number): Promise<string> {
  await refuseBinary(filePath, 'html');
  const text = decodeHtml(await readCapped(filePath, maxBytes, LABELS.html));
  if (text.includes('\0')) {
    throw new UnsupportedUploadError(`${NOT_A.html}: it contains NUL bytes.`);
  }
  if (!/^\uFEFF?[ \t\r\n\f]*</.test(text)) {
    throw new UnsupportedUploadError(`${NOT_A.html}: it does not start with markup.`);
  }
  return text;
}

import type Mammoth from 'mammoth';
import { htmlDocuments, parseHtml } from './html';
import { openDocxPackage } from './docx-package';
import type { TextDocument } from './text-documents';
import { UnreadableUploadError, UnsupportedUploadError, reasonOf } from './upload-errors';

/*
 * Word documents are read by mammoth, which turns a .docx into plain semantic HTML (headings from
 * the "Heading 1…6" styles, lists, tables, footnotes), and that HTML is cut into sections by the
 * same rules as any HTML page. The generated agent's loader runs mammoth's Python release (the
 * same author keeps both in step) on the same file, so both agree on the text.
 */

/** A paragraph styled "Title" is the document's first heading; mammoth would make it plain text. */
const STYLE_MAP = "p[style-name='Title'] => h1:fresh";

/** Mammoth's "↑" links from a footnote back to its reference: navigation, not text. */
const NOTE_BACKLINK = /<a href="#(?:footnote|endnote)-ref-[^"]*">↑<\/a>/g;

/** The sections of a Word document, within `maxUncompressedBytes` of unpacked parts. */
export async function readDocxDocuments(
  filePath: string,
  maxUncompressedBytes: number,
): Promise<TextDocument[]> {
  const docx = await openDocxPackage(filePath, maxUncompressedBytes);
  let html: string;
  try {
    const result = await mammoth().convertToHtml({ file: docx } as unknown as MammothInput, {
      styleMap: STYLE_MAP,
      // The document does not choose how it is read, nor reach files outside itself.
      includeEmbeddedStyleMap: false,
      externalFileAccess: false,
      // Images are not text: an empty <img> (left out below) without reading the image part.
      convertImage: mammoth().images.imgElement(() => Promise.resolve({ src: '' })),
    });
    html = result.value;
  } catch (error) {
    if (error instanceof UnsupportedUploadError || error instanceof UnreadableUploadError) {
      throw error;
    }
    throw new UnreadableUploadError(`The Word document could not be read: ${reasonOf(error)}`);
  } finally {
    docx.close();
  }
  return htmlDocuments(parseHtml(html.replace(NOTE_BACKLINK, '')));
}

/** mammoth's own `openZip` also takes an opened zip as `file`; its types list only paths and buffers. */
type MammothInput = Parameters<typeof Mammoth.convertToHtml>[0];

/** mammoth, loaded on first use: most processes never read a Word document. */
function mammoth(): typeof Mammoth {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('mammoth') as typeof Mammoth;
}

export * from './inspect-upload';
export { readCsvRecordBatches, readCsvRecords } from './csv';
export { readExcelRecords } from './excel';
export { readPdfPages } from './pdf';
export { readTextFile } from './text';
export { reasonOf } from './upload-errors';
export { acquireParseSlot, configureParsing, parseSlotsInUse } from './parse-slots';
export {
  DEFAULT_DOCUMENT_LIMITS,
  DOCUMENT_EXTENSIONS,
  DOCUMENT_KINDS,
  inspectDocument,
  readDocumentFile,
} from './documents';
export type { DocumentKind, DocumentLimits, DocumentSummary } from './documents';
export { decodeHtml, readHtmlPage } from './html';
export type { HtmlPage } from './html';
export { markdownDocuments } from './markdown';
export type { TextDocument } from './text-documents';

export * from './inspect-upload';
export { readCsvRecordBatches, readCsvRecords } from './csv';
export { readExcelRecords } from './excel';
export { readPdfPages } from './pdf';
export { readTextFile } from './text';
export { reasonOf } from './upload-errors';
export { acquireParseSlot, configureParsing, parseSlotsInUse } from './parse-slots';

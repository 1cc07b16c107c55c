import { isFileSourceType, TSourceSample, TUploadSummary } from '@agentloom/contracts';
import {
  readCsvRecords,
  readExcelRecords,
  readPdfPages,
  readTextFile,
} from '@agentloom/source-readers';
import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { readConfig } from '../pipelines/pipeline-view';
import { PipelinesService } from '../pipelines/pipelines.service';
import { UploadsService } from '../sources/uploads.service';

const SAMPLE_ROWS = 5;
const SAMPLE_PASSAGES = 3;
const PASSAGE_CHARS = 400;

/**
 * The start of the file a wizard uploaded, so the person sees their data as the agent reads
 * it: the first rows of a table, the first passages of a document, and how much there is.
 */
@Injectable()
export class SourceSampleService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pipelines: PipelinesService,
    private readonly storage: PipelineStorage,
    private readonly uploads: UploadsService,
  ) {}

  async sample(userId: string, sessionId: string): Promise<TSourceSample> {
    const pipeline = await this.pipelines.findOwned(userId, sessionId);
    const file = readConfig(pipeline).file;
    if (!file || !pipeline.sourceFile || !isFileSourceType(file.summary.kind)) {
      throw new NotFoundException('No file is uploaded for this agent yet.');
    }
    // A local copy when the uploads live in S3; null when the file is gone from the store.
    const path = await this.storage.uploadFile(pipeline.id, pipeline.sourceFile);
    if (!path) throw new NotFoundException('The uploaded file is missing; upload it again.');
    const summary = file.summary;
    // The wizard's source is one of its four kinds; prose documents are added as other sources.
    if (summary.kind === 'docx' || summary.kind === 'markdown' || summary.kind === 'html') {
      throw new NotFoundException('No file is uploaded for this agent yet.');
    }
    const base = { kind: summary.kind, counts: countsOf(summary), columns: [], rows: [] };
    switch (summary.kind) {
      case 'csv':
        return { ...base, ...(await firstRows(readCsvRecords(path))), passages: [] };
      case 'excel': {
        const rows = await this.uploads.parseFor(userId, () =>
          firstRows(readExcelRecords(path, this.config.XLSX_MAX_UNCOMPRESSED_BYTES)),
        );
        return { ...base, ...rows, passages: [] };
      }
      case 'pdf': {
        const pages = await this.uploads.parseFor(userId, () => readPdfPages(path));
        return { ...base, passages: passages(pages.join('\n\n')) };
      }
      case 'text_file':
        return { ...base, passages: passages(await readTextFile(path)) };
    }
  }
}

const number = (value: number) => value.toLocaleString('en-US');

function countsOf(summary: TUploadSummary): string {
  switch (summary.kind) {
    case 'csv':
    case 'excel':
      return `${number(summary.rows)} rows · ${number(summary.columns.length)} columns`;
    case 'pdf':
      return `${number(summary.pages)} pages · ${number(summary.characters)} characters`;
    case 'text_file':
      return `${number(summary.lines)} lines · ${number(summary.characters)} characters`;
    case 'docx':
    case 'markdown':
    case 'html':
      return `${number(summary.sections)} sections · ${number(summary.characters)} characters`;
  }
}

async function firstRows(
  records: AsyncGenerator<Record<string, string>>,
): Promise<{ columns: string[]; rows: string[][] }> {
  const rows: Record<string, string>[] = [];
  for await (const record of records) {
    rows.push(record);
    if (rows.length === SAMPLE_ROWS) break; // closes the reader
  }
  const columns = rows[0] ? Object.keys(rows[0]) : [];
  return { columns, rows: rows.map((row) => columns.map((column) => row[column] ?? '')) };
}

/** Paragraphs of the text, joined up to a few hundred characters each: its first passages. */
function passages(text: string): string[] {
  const found: string[] = [];
  let current = '';
  for (const paragraph of text.split(/\n\s*\n/)) {
    const clean = paragraph.replace(/\s+/g, ' ').trim();
    if (!clean) continue;
    current = current ? `${current} ${clean}` : clean;
    if (current.length >= PASSAGE_CHARS) {
      found.push(current.slice(0, PASSAGE_CHARS * 2));
      current = '';
      if (found.length === SAMPLE_PASSAGES) return found;
    }
  }
  if (current) found.push(current);
  return found;
}

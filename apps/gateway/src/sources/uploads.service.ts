import type { TKnowledgeFileType, TUploadKind, TUploadSummary } from '@agentloom/contracts';
import {
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/env';
import {
  configureParsing,
  inspectDocument,
  inspectUpload,
  UnreadableUploadError,
  UnsupportedUploadError,
} from '@agentloom/source-readers';

export const TOO_MANY_PARSES = (limit: number) =>
  `You already have ${limit} file${limit === 1 ? '' : 's'} being read. Wait for ${limit === 1 ? 'it' : 'one'} to finish, then try again.`;

/**
 * Reads an upload once, by content: 415 when it is not what it claims, 422 when it cannot be
 * parsed. PDFs and workbooks are parsed in worker threads, never on the event loop, a few at a
 * time in this process (PARSE_MAX_CONCURRENT; the others wait) and at most PARSE_MAX_PER_USER
 * at once for one user (429 beyond): one user's ten big workbooks cannot fill the queue.
 */
@Injectable()
export class UploadsService {
  /** Heavy parses in flight per user, in this process. */
  private readonly inFlight = new Map<string, number>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    configureParsing({
      concurrent: config.PARSE_MAX_CONCURRENT,
      workbookHeapMb: config.XLSX_PARSE_MAX_HEAP_MB,
    });
  }

  inspect(
    userId: string,
    filePath: string,
    kind: TUploadKind | TKnowledgeFileType,
  ): Promise<TUploadSummary> {
    const inspect = () =>
      kind === 'docx' || kind === 'markdown' || kind === 'html'
        ? inspectDocument(filePath, kind)
        : inspectUpload(filePath, kind, {
            xlsxMaxUncompressedBytes: this.config.XLSX_MAX_UNCOMPRESSED_BYTES,
          });
    // Text, CSV, Markdown and HTML stream through cheaply; the others are parsed whole.
    const heavy = kind === 'pdf' || kind === 'excel' || kind === 'docx';
    return this.parseFor(userId, inspect, heavy);
  }

  /**
   * Runs a parse for `userId` (a heavy one within the user's limit); upload errors as 415 and
   * 422.
   */
  async parseFor<T>(userId: string, parse: () => Promise<T>, heavy = true): Promise<T> {
    const running = this.inFlight.get(userId) ?? 0;
    const limit = this.config.PARSE_MAX_PER_USER;
    if (heavy && running >= limit) {
      throw new HttpException(TOO_MANY_PARSES(limit), HttpStatus.TOO_MANY_REQUESTS);
    }
    if (heavy) this.inFlight.set(userId, running + 1);
    try {
      return await parse();
    } catch (error) {
      if (error instanceof UnsupportedUploadError) {
        throw new UnsupportedMediaTypeException(error.message);
      }
      if (error instanceof UnreadableUploadError) {
        throw new UnprocessableEntityException(error.message);
      }
      throw error;
    } finally {
      if (heavy) this.release(userId);
    }
  }

  private release(userId: string): void {
    const left = (this.inFlight.get(userId) ?? 1) - 1;
    if (left > 0) this.inFlight.set(userId, left);
    else this.inFlight.delete(userId);
  }
}

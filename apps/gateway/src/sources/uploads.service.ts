import type { TKnowledgeFileType, TUploadKind, TUploadSummary } from '@agentloom/contracts';
import {
  Inject,
  Injectable,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/env';
import {
  inspectDocument,
  inspectUpload,
  UnreadableUploadError,
  UnsupportedUploadError,
} from '@agentloom/source-readers';

/** Reads an upload once, by content: 415 when it is not what it claims, 422 when it cannot be parsed. */
@Injectable()
export class UploadsService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async inspect(filePath: string, kind: TUploadKind | TKnowledgeFileType): Promise<TUploadSummary> {
    try {
      if (kind === 'docx' || kind === 'markdown' || kind === 'html') {
        return await inspectDocument(filePath, kind);
      }
      return await inspectUpload(filePath, kind, {
        xlsxMaxUncompressedBytes: this.config.XLSX_MAX_UNCOMPRESSED_BYTES,
      });
    } catch (error) {
      if (error instanceof UnsupportedUploadError) {
        throw new UnsupportedMediaTypeException(error.message);
      }
      if (error instanceof UnreadableUploadError) {
        throw new UnprocessableEntityException(error.message);
      }
      throw error;
    }
  }
}

import {
  CallHandler,
  ExecutionContext,
  Injectable,
  mixin,
  NestInterceptor,
  PayloadTooLargeException,
  Type,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Observable } from 'rxjs';

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/**
 * Accepts one file in `field`, streamed to disk by the module's multer storage, and answers
 * 413 naming the limit ("The profile picture must be 5 MB or smaller.") when it is exceeded.
 */
export function SingleFileUpload(
  field: string,
  maxBytes: number,
  what: string,
): Type<NestInterceptor> {
  const Base = FileInterceptor(field, { limits: { fileSize: maxBytes, files: 1 } });

  @Injectable()
  class SingleFileUploadInterceptor extends Base {
    override async intercept(
      context: ExecutionContext,
      next: CallHandler,
    ): Promise<Observable<unknown>> {
      try {
        return await super.intercept(context, next);
      } catch (error) {
        if (error instanceof PayloadTooLargeException) {
          throw new PayloadTooLargeException(`${what} must be ${megabytes(maxBytes)} or smaller.`);
        }
        throw error;
      }
    }
  }
  return mixin(SingleFileUploadInterceptor);
}

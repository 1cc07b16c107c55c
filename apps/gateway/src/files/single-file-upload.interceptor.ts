import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  mixin,
  NestInterceptor,
  Optional,
  PayloadTooLargeException,
  Type,
} from '@nestjs/common';
import type { MulterModuleOptions } from '@nestjs/platform-express';
// Not re-exported from the package root; the token MulterModule.register provides.
import { MULTER_MODULE_OPTIONS } from '@nestjs/platform-express/multer/files.constants';
import type { Request, RequestHandler, Response } from 'express';
import multer, { MulterError } from 'multer';
import { rm } from 'node:fs/promises';
import { finalize, type Observable } from 'rxjs';
import { readableSize } from '@agentloom/contracts';
import { APP_CONFIG, AppConfig } from '../config/env';

/**
 * Accepts one file in `field`, streamed to disk by the module's multer storage (see
 * `incomingDiskStorage`), and answers 413 naming the limit ("The file must be 50 MB or
 * smaller.") when it is exceeded. The limit may come from the configuration.
 *
 * Whatever happens next — validation error, refused content, success — the temporary file is
 * removed when the request ends; handlers that keep an upload move it away first.
 */
export function SingleFileUpload(
  field: string,
  maxBytes: number | ((config: AppConfig) => number),
  what: string,
): Type<NestInterceptor> {
  @Injectable()
  class SingleFileUploadInterceptor implements NestInterceptor {
    private readonly limit: number;
    private readonly upload: RequestHandler;

    constructor(
      @Inject(APP_CONFIG) config: AppConfig,
      @Optional() @Inject(MULTER_MODULE_OPTIONS) options: MulterModuleOptions = {},
    ) {
      this.limit = typeof maxBytes === 'function' ? maxBytes(config) : maxBytes;
      this.upload = multer({
        ...options,
        limits: { fields: 1000, ...options.limits, fileSize: this.limit, files: 1 },
      } as multer.Options).single(field);
    }

    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const http = context.switchToHttp();
      const request = http.getRequest<Request>();
      await new Promise<void>((resolve, reject) => {
        this.upload(request, http.getResponse<Response>(), (error: unknown) =>
          error ? reject(this.describe(error)) : resolve(),
        );
      });
      const uploaded = request.file?.path;
      // The name is stored and shown; Postgres refuses NUL and control characters have no use.
      // eslint-disable-next-line no-control-regex
      if (request.file && /[\u0000-\u001f\u007f]/.test(request.file.originalname)) {
        if (uploaded) await rm(uploaded, { force: true });
        throw new BadRequestException(
          'The file name contains control characters. Rename the file and try again.',
        );
      }
      return next.handle().pipe(
        finalize(() => {
          if (uploaded) void rm(uploaded, { force: true });
        }),
      );
    }

    private describe(error: unknown): Error {
      if (!(error instanceof MulterError)) {
        // busboy's parse errors ("Malformed part header", "Unexpected end of form") carry no
        // system error code: the client sent something unreadable.
        if (error instanceof Error && !('code' in error)) {
          return new BadRequestException(
            `The upload could not be read (${error.message}). Send one file as a standard multipart form.`,
          );
        }
        // Kept as it is (a file-system error's code, ENOSPC say, decides its answer); fs errors
        // need not be `instanceof Error` of this realm (under jest they are not).
        return typeof error === 'object' && error !== null
          ? (error as Error)
          : new Error(String(error));
      }
      switch (error.code) {
        case 'LIMIT_FILE_SIZE':
          return new PayloadTooLargeException(
            `${what} must be ${readableSize(this.limit)} or smaller.`,
          );
        case 'LIMIT_UNEXPECTED_FILE':
        case 'LIMIT_FILE_COUNT':
          return new BadRequestException(`Send one file, in the form field "${field}".`);
        case 'LIMIT_PART_COUNT':
        case 'LIMIT_FIELD_KEY':
        case 'LIMIT_FIELD_VALUE':
        case 'LIMIT_FIELD_COUNT':
        case 'MISSING_FIELD_NAME':
          return new BadRequestException(`The form is malformed: ${error.message}.`);
      }
    }
  }
  return mixin(SingleFileUploadInterceptor);
}

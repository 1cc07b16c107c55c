import { Prisma, UNIQUE_VIOLATION } from '@agentloom/db';
import { UnreadableUploadError, UnsupportedUploadError } from '@agentloom/source-readers';
import { VaultDecryptError } from '@agentloom/vault';
import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { Response } from 'express';
import { ZodValidationException } from 'nestjs-zod';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../prisma/database-errors';
import { RedisUnavailableError } from '../redis/redis.service';

export const STORAGE_FULL =
  'The server has no room to store files right now. Nothing was saved; please try again later.';

/** The file system (or a quota on it) refused a write for lack of space. */
const isStorageFull = (error: unknown) =>
  ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException | undefined)?.code ?? '');

export const DEPENDENCY_UNAVAILABLE =
  'Agentloom cannot reach its database or cache right now. Please try again in a minute.';

/** First zod issue as one sentence, prefixed with the field it concerns. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request.';
  const field = issue.path.join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}

/**
 * What the body parsers (body-parser, raw-body) say, in the user's words. They throw
 * http-errors objects, not HttpExceptions: a 4xx status with `expose` set and a `type`.
 */
const BODY_ERRORS: Record<string, string> = {
  'entity.too.large': 'The request body is too large. Send at most 1 MB.',
  'parameters.too.many': 'The form has too many fields. Send at most 1000.',
  'entity.parse.failed': 'The request body could not be read. Send valid JSON or form fields.',
  'encoding.unsupported': 'The request body uses an unsupported character encoding. Send UTF-8.',
  'charset.unsupported': 'The request body uses an unsupported character set. Send UTF-8.',
  'request.aborted': 'The request was cut off before its body arrived.',
};

function clientErrorOf(exception: unknown): [number, string] | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const { status, expose, type } = exception as {
    status?: unknown;
    expose?: unknown;
    type?: unknown;
  };
  if (typeof status !== 'number' || status < 400 || status >= 500 || expose !== true) {
    return undefined;
  }
  const detail = typeof type === 'string' ? BODY_ERRORS[type] : undefined;
  return [status, detail ?? 'The request could not be read. Check its format and try again.'];
}

/**
 * Turns every failure into `{ "detail": "..." }` with the status codes of ARCHITECTURE.md.
 * Unknown errors are logged with their stack and answered with a generic 500 — internals
 * (SQL, paths, secrets) never reach the client.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const [status, detail] = this.describe(exception);
    if (status === (HttpStatus.SERVICE_UNAVAILABLE as number)) {
      this.logger.warn(`Dependency unavailable: ${(exception as Error).message}`);
    } else if (status >= 500) {
      this.logger.error(exception instanceof Error ? exception.stack : exception);
    }
    if (response.headersSent) return;
    response.status(status).json({ detail });
  }

  private describe(exception: unknown): [number, string] {
    if (exception instanceof VaultDecryptError) {
      return [
        HttpStatus.INTERNAL_SERVER_ERROR,
        'This secret can no longer be decrypted (the vault master key may have changed). Delete it and add it again.',
      ];
    }
    if (exception instanceof ZodValidationException) {
      return [HttpStatus.BAD_REQUEST, describeZodError(exception.getZodError() as ZodError)];
    }
    if (exception instanceof HttpException) {
      return [exception.getStatus(), this.detailOf(exception)];
    }
    // A stored upload read again (the sample, a preview) that no longer parses: the file's
    // fault, said as at upload time, wherever the reading happens.
    if (exception instanceof UnsupportedUploadError) {
      return [HttpStatus.UNSUPPORTED_MEDIA_TYPE, exception.message];
    }
    if (exception instanceof UnreadableUploadError) {
      return [HttpStatus.UNPROCESSABLE_ENTITY, exception.message];
    }
    const clientError = clientErrorOf(exception);
    if (clientError) return clientError;
    if (
      exception instanceof Prisma.PrismaClientKnownRequestError &&
      exception.code === UNIQUE_VIOLATION
    ) {
      return [HttpStatus.CONFLICT, 'This record already exists.'];
    }
    // A dependency that is away, stalled or overloaded is the user's to retry, not a bug.
    if (exception instanceof RedisUnavailableError || isDatabaseUnavailable(exception)) {
      return [HttpStatus.SERVICE_UNAVAILABLE, DEPENDENCY_UNAVAILABLE];
    }
    if (isStorageFull(exception)) return [HttpStatus.SERVICE_UNAVAILABLE, STORAGE_FULL];
    return [
      HttpStatus.INTERNAL_SERVER_ERROR,
      'Something went wrong on our side. Please try again.',
    ];
  }

  private detailOf(exception: HttpException): string {
    const body = exception.getResponse();
    if (typeof body === 'string') return body;
    const { detail, message } = body as { detail?: unknown; message?: unknown };
    if (typeof detail === 'string') return detail;
    if (Array.isArray(message)) return message.join(' ');
    // Nest's own "Cannot GET /x" for unknown routes reads better as a plain "Not found."
    if (typeof message === 'string' && !/^Cannot [A-Z]+ \//.test(message)) return message;
    if (exception.getStatus() === 404) return 'Not found.';
    return exception.message;
  }
}

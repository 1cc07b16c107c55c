import { applyDecorators, HttpCode, Post, Type, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { UploadSavedDto } from '../common/api-dtos';
import { SingleFileUpload } from '../files/single-file-upload.interceptor';
import type { IncomingFile } from './source-step.service';

/* OpenAPI details shared by both wizards' controllers. */

/** The wizards post HTML forms; JSON is accepted too, for scripted clients. */
export const FORM = ['application/x-www-form-urlencoded', 'application/json'];

export const uploadBody = (accepted: string) => ({
  schema: {
    type: 'object' as const,
    required: ['session_id', 'file'],
    properties: {
      session_id: { type: 'string' as const, format: 'uuid' },
      file: { type: 'string' as const, format: 'binary', description: accepted },
    },
  },
});

/** A wizard call: a form POST answered 200 with what was saved (`answer`), and its line in /docs. */
export function WizardStep(path: string, summary: string, answer: Type): MethodDecorator {
  return applyDecorators(
    Post(path),
    HttpCode(200),
    ApiOperation({ summary }),
    ApiOkResponse({ type: answer }),
  );
}

/**
 * A wizard's upload step: one multipart `file` (streamed to disk, capped at UPLOAD_MAX_BYTES),
 * answered 200 like every wizard call, documented with the file types it accepts.
 */
export function WizardUpload(path: string, summary: string, accepted: string): MethodDecorator {
  return applyDecorators(
    WizardStep(path, summary, UploadSavedDto),
    ApiConsumes('multipart/form-data'),
    ApiBody(uploadBody(accepted)),
    UseInterceptors(SingleFileUpload('file', (config) => config.UPLOAD_MAX_BYTES, 'The file')),
  );
}

/** What the wizard keeps of multer's file: where it landed, its name, its size. */
export function incomingFile(file: Express.Multer.File | undefined): IncomingFile | undefined {
  return file && { path: file.path, originalName: file.originalname, size: file.size };
}

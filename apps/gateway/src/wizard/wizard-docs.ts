import { ZWizardStepSaved } from '@agentloom/contracts';
import { createZodDto } from 'nestjs-zod';

/** OpenAPI details shared by both wizards' controllers. */
export class WizardStepSavedDto extends createZodDto(ZWizardStepSaved) {}

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

import type { TAgentType, TPipelineDetail } from '@agentloom/contracts';
import type { ComponentType } from 'react';
import { notify } from '../../lib/notify';
import type { useWizardMutations, WizardCall } from './wizard-api';

/** What the shell hands every step: the agent as the server holds it and the ways to save. */
export interface WizardStepProps {
  type: TAgentType;
  /** '' on a new agent's first step, before the agent exists. */
  sessionId: string;
  /** The saved answers; undefined only before the agent exists. */
  pipeline: TPipelineDetail | undefined;
  busy: boolean;
  mutations: ReturnType<typeof useWizardMutations>;
  /**
   * Runs a wizard call; a failure is reported with the step's own text
   * (docs/product.md#notices-and-failure-messages). Resolves whether it saved.
   */
  save: (call: WizardCall, failure: string) => Promise<boolean>;
  /** To the next step; to the summary when the step was opened from it. */
  advance: () => void;
  /** The address of a step (by its key) opened from the summary: saving it returns there. */
  changeHref: (stepKey: string) => string;
  /** Step 1 made the agent: its wizard continues at its own address. */
  created: (sessionId: string) => void;
}

/** A row of a wizard's step table: the contracts' step key (or 'build'), its label, its screen. */
export interface WizardStep {
  key: string;
  label: string;
  Component: ComponentType<WizardStepProps>;
}

/** The part of a zod schema the checks use (the web app reaches zod only through contracts). */
type RequestSchema<T> = {
  safeParse(
    input: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
};

/**
 * The form checks of the wizard are the contracts' request schemas, the same the gateway parses
 * with: their messages are the texts of docs/product.md#validation-messages. Null (and the message
 * shown) when the input fails.
 */
export function checked<T>(schema: RequestSchema<T>, input: unknown): T | null {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  notify.error(parsed.error.issues[0]?.message ?? 'Please check the form.');
  return null;
}

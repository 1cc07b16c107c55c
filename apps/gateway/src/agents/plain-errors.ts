import type { AgentEvent, ProviderErrorReason } from '@agentloom/agent-runtime';
import { LLM_PROVIDER_LABELS, type TLlmProvider } from '@agentloom/contracts';

/** What the preview page shows for a failed answer: plain words, and where to go next. */
export interface PlainError {
  type: 'error';
  /** The technical text, shown folded under "Details". */
  detail: string;
  reason?: ProviderErrorReason;
  /** One or two sentences for someone who has never seen an API; unset when `detail` is plain. */
  message?: string;
  /** A link that fixes it (the agent's LLM step), when trying again will not. */
  action?: { label: string; href: string };
}

/** Where the failing agent is set up: its wizard's LLM step in the web app. */
export interface AgentSetup {
  provider: TLlmProvider;
  model: string;
  editUrl: string;
}

/**
 * A provider failure in the person's words. Key and model problems link to the step that fixes
 * them; the page offers "Try again" for every failure.
 */
export function plainError(
  event: Extract<AgentEvent, { type: 'error' }>,
  setup: AgentSetup,
): PlainError {
  const name = LLM_PROVIDER_LABELS[setup.provider];
  const fix = (label: string) => ({ label, href: setup.editUrl });
  const base = { type: 'error' as const, detail: event.detail, reason: event.reason };
  switch (event.reason) {
    case 'key':
      return {
        ...base,
        message: `${name} rejected your key — update it.`,
        action: fix('Update the key'),
      };
    case 'forbidden':
      return {
        ...base,
        message: `${name} does not let this key use ${setup.model}. Choose another model, or a key that may use it.`,
        action: fix('Change the model or key'),
      };
    case 'model':
      return {
        ...base,
        message: `${name} does not offer ${setup.model} (any more). Choose another model.`,
        action: fix('Choose another model'),
      };
    case 'rate':
      return {
        ...base,
        message: `${name} says this key has used up its limit for now. Wait a minute and try again, or check your plan with ${name}.`,
      };
    case 'unavailable':
      return { ...base, message: `${name} is having trouble right now. Try again in a moment.` };
    case 'unreachable':
      return { ...base, message: `${name} could not be reached. Try again in a moment.` };
    case 'stopped':
      return { ...base, message: 'The answer was stopped before it finished. Try again.' };
    case 'other':
      return {
        ...base,
        message: `${name} could not answer this question. Try again, or ask it another way.`,
      };
    case undefined:
      return event; // the agent's own words (a data or SQL problem), already plain
  }
}

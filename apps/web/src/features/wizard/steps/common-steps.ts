import type { TRagWizardStep, TSqlWizardStep } from '@agentloom/contracts';
import type { ComponentType } from 'react';
import type { WizardStepProps } from '../wizard-step';
import { LlmStep } from './llm-step';
import { NameStep } from './name-step';
import { SourceDetailsStep } from './source-details-step';
import { SourceTypeStep } from './source-type-step';
import { SystemPromptStep } from './system-prompt-step';
import { UiStep } from './ui-step';

/** The steps both wizards have: one screen each, told apart inside by the agent's type. */
export const COMMON_STEPS: Record<
  TRagWizardStep & TSqlWizardStep,
  ComponentType<WizardStepProps>
> = {
  name: NameStep,
  source_type: SourceTypeStep,
  source_details: SourceDetailsStep,
  llm: LlmStep,
  system_prompt: SystemPromptStep,
  ui: UiStep,
};

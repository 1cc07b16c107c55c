import { ZSystemPromptRequest, type TAgentType } from '@agentloom/contracts';
import { useState } from 'react';
import { SystemPromptFields } from '../system-prompt-fields';
import { ragCalls, sqlCalls } from '../wizard-api';
import { RAG_PROMPT_TEMPLATES, SQL_PROMPT_TEMPLATES } from '../wizard-content';
import { checked, type WizardStepProps } from '../wizard-step';

const KINDS = {
  rag: { templates: RAG_PROMPT_TEMPLATES, call: ragCalls.systemPrompt },
  sql: { templates: SQL_PROMPT_TEMPLATES, call: sqlCalls.systemPrompt },
} satisfies Record<TAgentType, unknown>;

/** The system prompt step of both wizards: a template or the user's own words. */
export function SystemPromptStep(props: WizardStepProps) {
  const { type, sessionId, pipeline, busy, save, advance } = props;
  const kind = KINDS[type];
  const [prompt, setPrompt] = useState(pipeline?.config.system_prompt ?? '');

  async function submit() {
    const request = checked(ZSystemPromptRequest, { session_id: sessionId, prompt });
    if (!request) return;
    if (await save(kind.call(sessionId, request.prompt), 'Failed to save system prompt.')) {
      advance();
    }
  }

  return (
    <SystemPromptFields
      templates={kind.templates}
      prompt={prompt}
      onChange={setPrompt}
      busy={busy}
      onSubmit={() => void submit()}
    />
  );
}

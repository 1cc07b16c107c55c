import { SYSTEM_PROMPT_MAX_LENGTH } from '@agentloom/contracts';
import { clsx } from 'clsx';
import { TextArea } from '../../components/ui';
import { StepForm, SubmitButton } from './step-form';
import type { PromptTemplate } from './wizard-content';

/** The system prompt step: a template to start from, or the user's own words. */
export function SystemPromptFields({
  templates,
  prompt,
  onChange,
  busy,
  onSubmit,
}: {
  templates: readonly PromptTemplate[];
  prompt: string;
  onChange: (prompt: string) => void;
  busy: boolean;
  onSubmit: () => void;
}) {
  return (
    <StepForm onSubmit={onSubmit}>
      <div role="group" aria-label="Quick prompt templates" className="grid gap-3 sm:grid-cols-2">
        {templates.map((template) => {
          const active = template.prompt === prompt;
          return (
            <button
              key={template.title}
              type="button"
              aria-pressed={active}
              disabled={busy}
              onClick={() => onChange(template.prompt)}
              className={clsx(
                'rounded-xl border-2 p-3 text-left transition-colors',
                'focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:focus-visible:ring-offset-slate-900',
                'disabled:cursor-not-allowed disabled:opacity-60',
                active
                  ? 'border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950'
                  : 'border-slate-200 hover:border-indigo-300 dark:border-slate-700 dark:hover:border-indigo-500',
              )}
            >
              <span className="block text-sm font-semibold text-slate-900 dark:text-white">
                {template.title}
              </span>
              <span className="mt-1 line-clamp-2 block text-xs text-slate-600 dark:text-slate-300">
                {template.prompt}
              </span>
            </button>
          );
        })}
      </div>
      <TextArea
        label="Custom Prompt"
        rows={6}
        value={prompt}
        maxLength={SYSTEM_PROMPT_MAX_LENGTH}
        placeholder="Describe how your agent should behave, or pick a template above."
        onChange={(event) => onChange(event.target.value)}
        hint={`${prompt.length} / ${SYSTEM_PROMPT_MAX_LENGTH} characters`}
      />
      <SubmitButton busy={busy} label="Save Prompt & Continue" busyLabel="Saving…" />
    </StepForm>
  );
}

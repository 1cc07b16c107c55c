import { LLM_PROVIDER_LABELS, type TLlmProvider, type TUiFramework } from '@agentloom/contracts';
import { clsx } from 'clsx';
import { StepForm, SubmitButton } from './step-form';
import { UI_FRAMEWORK_CARDS } from './wizard-content';

export type SummaryRow = { label: string; value: string | undefined; fallback: string };

/** What the user configured, one row each; a missing value shows its fallback in italics. */
export function ConfigurationSummary({ rows }: { rows: readonly SummaryRow[] }) {
  return (
    <dl className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
      {rows.map((row) => (
        <div
          key={row.label}
          className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
        >
          <dt className="text-sm text-slate-600 dark:text-slate-300">{row.label}</dt>
          <dd
            className={clsx(
              'text-sm font-medium break-all sm:text-right',
              row.value
                ? 'text-slate-900 dark:text-white'
                : 'text-slate-600 italic dark:text-slate-400',
            )}
          >
            {row.value || row.fallback}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The rows both wizards' summaries end with: provider, model and UI framework. */
export function llmAndUiRows(
  llm: { provider: TLlmProvider | null; model: string | null },
  ui: TUiFramework | null,
): SummaryRow[] {
  return [
    {
      label: 'LLM Provider',
      value: llm.provider ? LLM_PROVIDER_LABELS[llm.provider] : undefined,
      fallback: 'Not selected',
    },
    { label: 'LLM Model', value: llm.model ?? undefined, fallback: 'Not selected' },
    {
      label: 'UI Framework',
      value: ui ? UI_FRAMEWORK_CARDS[ui].title : undefined,
      fallback: 'Not selected',
    },
  ];
}

/** The last step of both wizards: the configuration summary and the build button. */
export function BuildSummary({
  rows,
  label,
  busy,
  onSubmit,
}: {
  rows: readonly SummaryRow[];
  label: string;
  busy: boolean;
  onSubmit: () => void;
}) {
  return (
    <StepForm onSubmit={onSubmit}>
      <ConfigurationSummary rows={rows} />
      <SubmitButton busy={busy} label={label} busyLabel="Starting build…" />
      <p className="text-center text-sm text-slate-600 sm:text-right dark:text-slate-300">
        This may take a few minutes to complete
      </p>
    </StepForm>
  );
}

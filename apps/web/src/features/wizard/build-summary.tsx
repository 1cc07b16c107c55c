import { LLM_PROVIDER_LABELS, type TLlmProvider, type TUiFramework } from '@agentloom/contracts';
import { clsx } from 'clsx';
import { Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { StepForm, SubmitButton } from './step-form';
import { UI_FRAMEWORK_CARDS } from './wizard-content';

/** A row of the summary; `step` is the wizard step (its key) that sets it. */
export type SummaryRow = {
  label: string;
  value: string | undefined;
  fallback: string;
  step: string;
};

/**
 * What the user configured, one row each; a missing value shows its fallback in italics. With
 * `changeHref` each row links to its step ("Change"), which returns here once saved.
 */
export function ConfigurationSummary({
  rows,
  changeHref,
}: {
  rows: readonly SummaryRow[];
  changeHref?: (step: string) => string;
}) {
  return (
    <dl className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
      {rows.map((row) => (
        <div
          key={row.label}
          className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4"
        >
          <dt className="text-sm text-slate-600 dark:text-slate-300">{row.label}</dt>
          <dd className="flex min-w-0 items-center justify-between gap-3 sm:justify-end">
            <span
              className={clsx(
                'min-w-0 text-sm font-medium break-words sm:text-right',
                row.value
                  ? 'text-slate-900 dark:text-white'
                  : 'text-slate-600 italic dark:text-slate-400',
              )}
            >
              {row.value || row.fallback}
            </span>
            {changeHref && (
              <Link
                to={changeHref(row.step)}
                aria-label={`Change ${row.label}`}
                className="inline-flex shrink-0 items-center gap-1 rounded text-sm font-semibold text-indigo-700 underline-offset-2 hover:underline focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none dark:text-indigo-300"
              >
                <Pencil aria-hidden="true" className="h-3.5 w-3.5" />
                Change
              </Link>
            )}
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
      step: 'llm',
    },
    { label: 'LLM Model', value: llm.model ?? undefined, fallback: 'Not selected', step: 'llm' },
    {
      label: 'UI Framework',
      value: ui ? UI_FRAMEWORK_CARDS[ui].title : undefined,
      fallback: 'Not selected',
      step: 'ui',
    },
  ];
}

/** The last step of both wizards: the configuration summary and the build button. */
export function BuildSummary({
  rows,
  label,
  busy,
  onSubmit,
  changeHref,
  before,
  after,
}: {
  /** Shown above the build button (the counting-questions check of RAG agents over tables). */
  before?: ReactNode;
  /** Shown under the summary's form, with forms of its own (a RAG agent's retrieval panel). */
  after?: ReactNode;
  rows: readonly SummaryRow[];
  label: string;
  busy: boolean;
  onSubmit: () => void;
  changeHref?: (step: string) => string;
}) {
  return (
    <>
      <StepForm onSubmit={onSubmit}>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Every answer of this agent. Use <strong>Change</strong> to edit one step; saving it brings
          you back here.
        </p>
        <ConfigurationSummary rows={rows} changeHref={changeHref} />
        {before}
        <SubmitButton busy={busy} label={label} busyLabel="Starting build…" />
        <p className="text-center text-sm text-slate-600 sm:text-right dark:text-slate-300">
          This may take a few minutes to complete
        </p>
      </StepForm>
      {after && <div className="mt-8">{after}</div>}
    </>
  );
}

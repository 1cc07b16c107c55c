import {
  LLM_PROVIDER_LABELS,
  SYSTEM_PROMPT_MAX_LENGTH,
  type TLlmProvider,
  type TUiFramework,
} from '@agentloom/contracts';
import { clsx } from 'clsx';
import { Check } from 'lucide-react';
import { useRef, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { Badge, Button, Select, TextArea, TextField } from '../../components/ui';
import { GradioIllustration, StreamlitIllustration } from './illustrations';
import { UI_FRAMEWORK_CARDS, type PromptTemplate } from './wizard-content';
import { StepActions } from './wizard-layout';

/** A step's form: Enter submits, the submit button shows the busy label. */
export function StepForm({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {children}
    </form>
  );
}

export function SubmitButton({
  busy,
  label,
  busyLabel,
  disabled,
}: {
  busy: boolean;
  label: string;
  busyLabel?: string;
  disabled?: boolean;
}) {
  return (
    <StepActions>
      <Button type="submit" size="lg" loading={busy} disabled={disabled}>
        {busy && busyLabel ? busyLabel : label}
      </Button>
    </StepActions>
  );
}

/**
 * A dropdown whose choice is explicit. A pointer choice commits at once (SPEC: choosing saves);
 * arrowing through the options only moves the shown value, and Enter commits it — otherwise
 * every ArrowDown would save a model and jump to the next step.
 */
export function ChoiceSelect({
  onPick,
  onCommit,
  ...props
}: Omit<ComponentProps<typeof Select>, 'onChange' | 'onKeyDown'> & {
  /** The shown value changed without being chosen (keyboard). */
  onPick: (value: string) => void;
  onCommit: (value: string) => void;
}) {
  const byKeyboard = useRef(false);
  return (
    <Select
      {...props}
      onPointerDown={() => {
        byKeyboard.current = false;
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          byKeyboard.current = false;
          onCommit(event.currentTarget.value);
        } else if (event.key !== 'Tab') {
          byKeyboard.current = true;
        }
      }}
      onChange={(event) => {
        if (byKeyboard.current) onPick(event.target.value);
        else onCommit(event.target.value);
      }}
    />
  );
}

// ---- step 1 ----

export function AgentNameFields({
  name,
  onNameChange,
  typeValue,
  typeLabel,
  busy,
  onSubmit,
}: {
  name: string;
  onNameChange: (name: string) => void;
  typeValue: string;
  typeLabel: string;
  busy: boolean;
  onSubmit: () => void;
}) {
  return (
    <StepForm onSubmit={onSubmit}>
      <TextField
        label="Agent Name"
        placeholder="Enter a unique name for your agent"
        value={name}
        onChange={(event) => onNameChange(event.target.value)}
        required
        maxLength={100}
        autoComplete="off"
      />
      <Select
        label="Agent Type"
        value={typeValue}
        options={[{ value: typeValue, label: typeLabel }]}
        onChange={() => undefined}
        required
      />
      <SubmitButton
        busy={busy}
        label="Create & Continue"
        busyLabel="Creating…"
        disabled={name === ''}
      />
    </StepForm>
  );
}

// ---- choice cards (source type, vector store, framework) ----

export type Choice<T extends string> = {
  value: T;
  label: string;
  description?: string;
  icon?: ReactNode;
  disabled?: boolean;
  note?: string;
};

/** Large toggle buttons; the chosen one is marked (aria-pressed) and ticked. */
export function ChoiceCards<T extends string>({
  label,
  choices,
  selected,
  busy,
  onChoose,
  columns = 'sm:grid-cols-2 lg:grid-cols-4',
}: {
  label: string;
  choices: readonly Choice<T>[];
  selected: T | '';
  busy: boolean;
  onChoose: (value: T) => void;
  columns?: string;
}) {
  return (
    <div role="group" aria-label={label} className={clsx('grid grid-cols-2 gap-3', columns)}>
      {choices.map((choice) => {
        const active = choice.value === selected;
        return (
          <button
            key={choice.value}
            type="button"
            aria-pressed={active}
            disabled={busy || choice.disabled}
            onClick={() => onChoose(choice.value)}
            className={clsx(
              'relative flex min-h-24 flex-col items-start gap-2 rounded-xl border-2 p-4 text-left transition-colors',
              'focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:focus-visible:ring-indigo-400 dark:focus-visible:ring-offset-slate-900',
              'disabled:cursor-not-allowed disabled:opacity-60',
              active
                ? 'border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950'
                : 'border-slate-200 bg-white hover:border-indigo-300 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:border-indigo-500 dark:hover:bg-slate-800',
            )}
          >
            {choice.icon && (
              <span aria-hidden="true" className="text-indigo-700 dark:text-indigo-300">
                {choice.icon}
              </span>
            )}
            <span className="font-semibold text-slate-900 dark:text-white">{choice.label}</span>
            {choice.description && (
              <span className="text-xs text-slate-600 dark:text-slate-300">
                {choice.description}
              </span>
            )}
            {choice.note && (
              <span className="text-xs font-medium text-amber-800 dark:text-amber-300">
                {choice.note}
              </span>
            )}
            {active && (
              <Check
                aria-hidden="true"
                className="absolute top-3 right-3 h-5 w-5 text-indigo-700 dark:text-indigo-300"
              />
            )}
          </button>
        );
      })}
    </div>
  );
}

// ---- step 3: file or database ----

export function FileUploadFields({
  accept,
  hint,
  file,
  saved,
  onFile,
  busy,
  onSubmit,
}: {
  accept: string;
  hint: string;
  file: File | null;
  /** The file the server already holds for this source, kept unless another one is picked. */
  saved: { name: string; size: number } | null;
  onFile: (file: File | null) => void;
  busy: boolean;
  onSubmit: () => void;
}) {
  return (
    <StepForm onSubmit={onSubmit}>
      <TextField
        type="file"
        label="Source File"
        accept={accept}
        hint={hint}
        onChange={(event) => onFile(event.target.files?.[0] ?? null)}
      />
      {file ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Selected: <span className="font-medium">{file.name}</span> ({formatBytes(file.size)})
        </p>
      ) : (
        saved && (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Uploaded: <span className="font-medium">{saved.name}</span> ({formatBytes(saved.size)})
          </p>
        )
      )}
      <SubmitButton busy={busy} label="Upload & Continue" busyLabel="Uploading…" />
    </StepForm>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export type DatabaseFieldsValue = { uri: string; database: string; table: string };

export function DatabaseFields({
  labels,
  uriPlaceholder,
  value,
  onChange,
  busy,
  onSubmit,
  tablePicker,
}: {
  labels: { uri: string; database: string; table: string };
  uriPlaceholder: string;
  value: DatabaseFieldsValue;
  onChange: (value: DatabaseFieldsValue) => void;
  busy: boolean;
  onSubmit: () => void;
  /** Under the fields: the tables found in the database, to pick one. */
  tablePicker?: ReactNode;
}) {
  return (
    <StepForm onSubmit={onSubmit}>
      <TextField
        label={labels.uri}
        placeholder={uriPlaceholder}
        value={value.uri}
        onChange={(event) => onChange({ ...value, uri: event.target.value })}
        required
        autoComplete="off"
        spellCheck={false}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={labels.database}
          value={value.database}
          onChange={(event) => onChange({ ...value, database: event.target.value })}
          required
          autoComplete="off"
        />
        <TextField
          label={labels.table}
          value={value.table}
          onChange={(event) => onChange({ ...value, table: event.target.value })}
          required
          autoComplete="off"
        />
      </div>
      {tablePicker}
      <SubmitButton busy={busy} label="Connect & Continue" busyLabel="Connecting…" />
    </StepForm>
  );
}

/** Examples of a connection URI for each database source. */
export const URI_PLACEHOLDERS: Record<string, string> = {
  postgres: 'postgresql://user:password@localhost:5432/mydb',
  mysql: 'mysql://user:password@localhost:3306/mydb',
  sqlite: 'sqlite:///data/mydb.sqlite',
  mongo: 'mongodb://user:password@localhost:27017',
};

// ---- system prompt ----

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

// ---- UI type ----

const ILLUSTRATIONS: Record<TUiFramework, () => ReactNode> = {
  gradio: GradioIllustration,
  streamlit: StreamlitIllustration,
};

export function UiTypeCards({
  order,
  selected,
  busy,
  onChoose,
}: {
  order: readonly TUiFramework[];
  selected: TUiFramework | '';
  busy: boolean;
  onChoose: (ui: TUiFramework) => void;
}) {
  return (
    <div role="group" aria-label="UI framework" className="grid gap-4 md:grid-cols-2">
      {order.map((ui) => {
        const card = UI_FRAMEWORK_CARDS[ui];
        const Illustration = ILLUSTRATIONS[ui];
        const active = selected === ui;
        return (
          <button
            key={ui}
            type="button"
            aria-pressed={active}
            disabled={busy}
            onClick={() => onChoose(ui)}
            className={clsx(
              'flex flex-col gap-3 rounded-2xl border-2 p-4 text-left transition-colors',
              'focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:focus-visible:ring-offset-slate-900',
              'disabled:cursor-not-allowed disabled:opacity-60',
              active
                ? 'border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950'
                : 'border-slate-200 hover:border-indigo-300 dark:border-slate-700 dark:hover:border-indigo-500',
            )}
          >
            <Illustration />
            <span className="text-lg font-semibold text-slate-900 dark:text-white">
              {card.title}
            </span>
            <span className="text-sm text-slate-600 dark:text-slate-300">{card.description}</span>
            <span className="flex flex-wrap gap-2">
              {card.features.map((feature) => (
                <Badge key={feature} tone="indigo">
                  {feature}
                </Badge>
              ))}
            </span>
          </button>
        );
      })}
    </div>
  );
}

// ---- build ----

export type SummaryRow = { label: string; value: string | undefined; fallback: string };

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

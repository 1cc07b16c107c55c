import {
  LLM_API_KEY_PLACEHOLDERS,
  LLM_MODEL_CATALOGUE,
  LLM_MODELS,
  LLM_PROVIDER_KEY_PAGES,
  LLM_PROVIDER_LABELS,
  LLM_PROVIDERS,
  maskApiKey,
  RECOMMENDED_LLM_MODELS,
  type TApiKey,
  type TKeyCheckResult,
  type TLlmProvider,
} from '@agentloom/contracts';
import { clsx } from 'clsx';
import { useId } from 'react';
import { Button, Select, TextField } from '../../components/ui';
import { useApiKeys } from '../../pages/dashboard/dashboard-api';
import { ChoiceSelect, StepForm, SubmitButton } from './step-form';
import type { LlmKey } from './wizard-api';

export type LlmValue = {
  provider: TLlmProvider | '';
  /** null: not chosen yet — a saved key when the vault has one for the provider. */
  keySource: 'vault' | 'typed' | null;
  apiKey: string;
  apiKeyId: string;
  model: string;
  /** A typed key also goes to the API key vault, so the next agent is offered it. */
  remember: boolean;
};

export const EMPTY_LLM: LlmValue = {
  provider: '',
  keySource: null,
  apiKey: '',
  apiKeyId: '',
  model: '',
  remember: true,
};

/** The form for a newly chosen provider: no key yet, its recommended model chosen already. */
export function freshLlm(provider: TLlmProvider | ''): LlmValue {
  return { ...EMPTY_LLM, provider, model: provider ? RECOMMENDED_LLM_MODELS[provider].model : '' };
}

/** What the provider said about the key now in the form, shown beside it. */
export type KeyVerdict = { tone: 'ok' | 'warning' | 'error'; text: string; models?: string[] };

export function verdictOf(result: TKeyCheckResult): KeyVerdict {
  if (result.ok) return { tone: 'ok', text: result.detail, models: result.models };
  return { tone: result.rejected ? 'error' : 'warning', text: result.detail };
}

export type ModelOption = { value: string; label: string; disabled?: boolean };

/**
 * The model dropdown: the catalogue's models, then what the provider lists for the key and the
 * catalogue does not name. A catalogue model the provider retired, or does not serve this key, is
 * marked and cannot be picked — unless the agent already uses it (it still loads as it is).
 */
export function modelOptions(
  provider: TLlmProvider,
  live: readonly string[] | undefined,
  current: string,
): ModelOption[] {
  const spec = LLM_MODELS[provider].map((model): ModelOption => {
    const entry = LLM_MODEL_CATALOGUE[model];
    const unserved = live !== undefined && !live.includes(entry.apiId);
    const note = entry.retired ? ' (retired)' : unserved ? ' (not offered for this key)' : '';
    const disabled = (entry.retired || unserved) && model !== current;
    return { value: model, label: model + note, disabled };
  });
  const named = new Set<string>(LLM_MODELS[provider].map((m) => LLM_MODEL_CATALOGUE[m].apiId));
  const extra = (live ?? [])
    .filter((id) => !named.has(id))
    .map((id): ModelOption => ({ value: id, label: id }));
  return [...spec, ...extra];
}

/** The key the form would send: a vault key, a typed one, or null when none is given. */
export function chosenKey(value: LlmValue, vaultKeyIds: readonly string[]): LlmKey | null {
  const source = value.keySource ?? (vaultKeyIds.length > 0 ? 'vault' : 'typed');
  if (source === 'vault' && vaultKeyIds.length > 0) {
    const id = value.apiKeyId || vaultKeyIds[0];
    return id ? { api_key_id: id } : null;
  }
  return value.apiKey.trim() ? { api_key: value.apiKey.trim() } : null;
}

const VERDICT_TONES: Record<KeyVerdict['tone'], string> = {
  ok: 'text-green-700 dark:text-green-400',
  warning: 'text-amber-700 dark:text-amber-300',
  error: 'text-red-700 dark:text-red-400',
};

/**
 * The provider's keys in the user's vault, where the key comes from (a saved one by default when
 * there is any), the saved key picked, and the key the form would send.
 */
function useKeyChoice(value: LlmValue) {
  // The dashboard's own query: a key added or deleted there is offered (or gone) here at once.
  const vault = useApiKeys();
  const provider = value.provider;
  const savedKeys = provider ? (vault.data ?? []).filter((key) => key.provider === provider) : [];
  const source = value.keySource ?? (savedKeys.length > 0 ? 'vault' : 'typed');
  const apiKeyId = value.apiKeyId || savedKeys[0]?.id || '';
  const key = () =>
    chosenKey(
      value,
      savedKeys.map((saved) => saved.id),
    );
  return { savedKeys, source, apiKeyId, key };
}

/** The line under the key before it is checked: where the key comes from and what happens. */
function keyHint(fromVault: boolean, keptKey: string | null): string {
  if (fromVault) return 'Keys from your API key vault; the key itself never leaves the server.';
  if (keptKey) return `Saved key ${keptKey}. Leave empty to keep it.`;
  return 'We check the key with the provider before saving it.';
}

type LlmFieldsProps = {
  value: LlmValue;
  /** The typed key the server holds, masked: left blank, the field keeps it. */
  keptKey: string | null;
  verdict: KeyVerdict | null;
  /** What the provider listed for the last key it accepted. */
  liveModels: readonly string[] | undefined;
  checking: boolean;
  /** The model the agent uses now, pickable even if retired. */
  currentModel: string;
  onChange: (value: LlmValue) => void;
  onProviderChange: (provider: TLlmProvider | '') => void;
  onCheck: (key: LlmKey | null) => void;
  busy: boolean;
  onSubmit: (key: LlmKey | null) => void;
};

/**
 * Provider, key and model. The key is typed (masked) or picked from the user's vault keys for
 * that provider; "Check key" asks the provider at once, and the verdict stays beside the field.
 */
export function LlmFields({
  value,
  keptKey,
  verdict,
  liveModels,
  checking,
  currentModel,
  onChange,
  onProviderChange,
  onCheck,
  busy,
  onSubmit,
}: LlmFieldsProps) {
  const verdictId = useId();
  const provider = value.provider;
  const { savedKeys, source, apiKeyId, key } = useKeyChoice(value);

  return (
    <StepForm onSubmit={() => onSubmit(key())}>
      <ChoiceSelect
        label="LLM Provider"
        placeholder="Select a provider"
        value={provider}
        disabled={busy}
        options={LLM_PROVIDERS.map((id) => ({ value: id, label: LLM_PROVIDER_LABELS[id] }))}
        onPick={(id) => onChange(freshLlm(id as TLlmProvider | ''))}
        onCommit={(id) => onProviderChange(id as TLlmProvider | '')}
        required
      />

      {provider && savedKeys.length > 0 && (
        <KeySourceChoice
          source={source}
          onPick={(option) => onChange({ ...value, keySource: option })}
        />
      )}

      <div className="flex items-end gap-2">
        <KeyInput
          value={value}
          savedKeys={source === 'vault' ? savedKeys : []}
          apiKeyId={apiKeyId}
          verdict={verdict}
          verdictId={verdictId}
          onChange={onChange}
        />
        <Button
          type="button"
          variant="secondary"
          disabled={!provider || busy || checking}
          loading={checking}
          onClick={() => onCheck(key())}
        >
          Check key
        </Button>
      </div>
      <KeyNote
        verdict={verdict}
        verdictId={verdictId}
        hint={keyHint(source === 'vault' && savedKeys.length > 0, keptKey)}
      />
      {provider && source === 'typed' && <KeyPageLink provider={provider} />}

      {provider && source === 'typed' && value.apiKey !== '' && (
        <label className="-mt-2 flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
          <input
            type="checkbox"
            checked={value.remember}
            onChange={(event) => onChange({ ...value, remember: event.target.checked })}
          />
          Save this key for other agents (in your API key vault)
        </label>
      )}

      <ModelSelect
        provider={provider}
        value={value.model}
        options={provider ? modelOptions(provider, liveModels, currentModel) : []}
        onChange={(model) => onChange({ ...value, model })}
      />
      <SubmitButton busy={busy || checking} label="Connect & Continue" busyLabel="Connecting…" />
    </StepForm>
  );
}

/** Only offered when the vault holds keys for the provider: use one of them or type a new one. */
function KeySourceChoice({
  source,
  onPick,
}: {
  source: 'vault' | 'typed';
  onPick: (source: 'vault' | 'typed') => void;
}) {
  const radioName = useId();
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">
        API Key Source
      </legend>
      <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
        {(
          [
            ['vault', 'Use a saved key'],
            ['typed', 'Enter a new key'],
          ] as const
        ).map(([option, text]) => (
          <label
            key={option}
            className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200"
          >
            <input
              type="radio"
              name={radioName}
              value={option}
              checked={source === option}
              onChange={() => onPick(option)}
              className="h-4 w-4 accent-indigo-600 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
            />
            {text}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The saved-key picker when `savedKeys` has any, else the masked field for a typed key. */
function KeyInput({
  value,
  savedKeys,
  apiKeyId,
  verdict,
  verdictId,
  onChange,
}: {
  value: LlmValue;
  savedKeys: readonly TApiKey[];
  apiKeyId: string;
  verdict: KeyVerdict | null;
  verdictId: string;
  onChange: (value: LlmValue) => void;
}) {
  const provider = value.provider;
  if (provider && savedKeys.length > 0) {
    return (
      <Select
        label="Saved Key"
        wrapperClassName="min-w-0 flex-1"
        value={apiKeyId}
        options={savedKeys.map((saved) => ({
          value: saved.id,
          label: `${saved.name ?? LLM_PROVIDER_LABELS[saved.provider]} · ${maskApiKey(saved.key)}`,
        }))}
        onChange={(event) => onChange({ ...value, apiKeyId: event.target.value })}
        aria-describedby={verdict ? verdictId : undefined}
      />
    );
  }
  return (
    <TextField
      type="password"
      label="API Key"
      wrapperClassName="min-w-0 flex-1"
      placeholder={
        provider
          ? `Enter your ${LLM_PROVIDER_LABELS[provider]} API key (${LLM_API_KEY_PLACEHOLDERS[provider]})`
          : 'Select a provider first'
      }
      value={value.apiKey}
      disabled={!provider}
      onChange={(event) => onChange({ ...value, apiKey: event.target.value })}
      autoComplete="off"
      spellCheck={false}
      aria-invalid={verdict?.tone === 'error' || undefined}
      aria-describedby={verdict ? verdictId : undefined}
    />
  );
}

/** Where to make a key, for the owner who has none yet (one reason first hours stalled). */
function KeyPageLink({ provider }: { provider: TLlmProvider }) {
  return (
    <a
      href={LLM_PROVIDER_KEY_PAGES[provider]}
      target="_blank"
      rel="noopener noreferrer"
      className="-mt-2 text-sm font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
    >
      No key yet? Get a {LLM_PROVIDER_LABELS[provider]} API key (opens in a new tab)
    </a>
  );
}

/** The provider's verdict on the key once checked; before that, where the key comes from. */
function KeyNote({
  verdict,
  verdictId,
  hint,
}: {
  verdict: KeyVerdict | null;
  verdictId: string;
  hint: string;
}) {
  if (verdict) {
    return (
      <p
        id={verdictId}
        role={verdict.tone === 'ok' ? 'status' : 'alert'}
        className={clsx('-mt-3 text-sm', VERDICT_TONES[verdict.tone])}
      >
        {verdict.text}
      </p>
    );
  }
  return <p className="-mt-3 text-xs text-slate-600 dark:text-slate-400">{hint}</p>;
}

/** The model dropdown, with the provider's recommended model and why, in one line. */
function ModelSelect({
  provider,
  value,
  options,
  onChange,
}: {
  provider: TLlmProvider | '';
  value: string;
  options: ModelOption[];
  onChange: (model: string) => void;
}) {
  const recommended = provider ? RECOMMENDED_LLM_MODELS[provider] : null;
  return (
    <Select
      label="Model"
      placeholder="Select a model"
      value={value}
      disabled={!provider}
      options={options}
      onChange={(event) => onChange(event.target.value)}
      hint={recommended ? `Recommended: ${recommended.model} — ${recommended.why}.` : undefined}
    />
  );
}

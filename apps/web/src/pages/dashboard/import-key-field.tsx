import { LLM_PROVIDER_LABELS, type TApiKey, type TLlmProvider } from '@agentloom/contracts';
import { Select, TextField } from '../../components/ui';
import { useApiKeys } from './dashboard-api';

/** The choice of "Enter a new key" in the vault key list. */
export const NEW_KEY = 'new';

/** The LLM key the import sends: a vault key's id, or the typed key. */
export type ImportKey = { choice: string | null; typed: string };

/** The provider's keys in the vault, newest first as the vault lists them. */
export function useVaultKeys(provider: TLlmProvider): TApiKey[] {
  const vault = useApiKeys();
  return (vault.data ?? []).filter((key) => key.provider === provider);
}

/**
 * The fields the import sends for the key: the vault's key when it holds one for the provider
 * (the first, unless another or a new one is chosen), else what was typed.
 */
export function importKeyFields(key: ImportKey, vaultKeys: readonly TApiKey[]) {
  const id = key.choice === NEW_KEY ? null : (key.choice ?? vaultKeys[0]?.id ?? null);
  return id ? { api_key_id: id, api_key: '' } : { api_key_id: '', api_key: key.typed };
}

/**
 * The LLM key of an imported agent. A key already in the vault for the provider is used, not asked
 * again (issue 43, item 8); "Enter a new key" types another.
 */
export function ImportKeyField({
  provider,
  model,
  value,
  onChange,
}: {
  provider: TLlmProvider;
  model: string;
  value: ImportKey;
  onChange: (value: ImportKey) => void;
}) {
  const vaultKeys = useVaultKeys(provider);
  const label = `${LLM_PROVIDER_LABELS[provider]} API key`;
  const typedField = (fieldLabel: string) => (
    <TextField
      label={fieldLabel}
      type="password"
      autoComplete="off"
      required
      hint={`For ${model}.`}
      value={value.typed}
      onChange={(event) => onChange({ ...value, typed: event.target.value })}
    />
  );
  if (vaultKeys.length === 0) return typedField(label);
  const choice = value.choice ?? vaultKeys[0]!.id;
  return (
    <>
      <Select
        label={label}
        value={choice}
        hint={
          choice === NEW_KEY
            ? undefined
            : `For ${model}: the key saved in your API key vault is used; it never leaves the server.`
        }
        options={[
          ...vaultKeys.map((key) => ({
            value: key.id,
            label: `Saved key ${key.name ? `“${key.name}” ` : ''}${key.key}`,
          })),
          { value: NEW_KEY, label: 'Enter a new key' },
        ]}
        onChange={(event) => onChange({ ...value, choice: event.target.value })}
      />
      {choice === NEW_KEY && typedField(`New ${label}`)}
    </>
  );
}

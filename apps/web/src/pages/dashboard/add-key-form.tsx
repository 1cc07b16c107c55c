import { LLM_PROVIDER_LABELS, LLM_PROVIDERS, type TLlmProvider } from '@agentloom/contracts';
import { useState, type FormEvent } from 'react';
import { Alert, CancelAndSubmit, Card, Select, TextField } from '../../components/ui';
import { checkLlmKey } from '../../features/wizard/wizard-api';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useCreateApiKey } from './dashboard-api';

const PROVIDER_OPTIONS = LLM_PROVIDERS.map((value) => ({
  value,
  label: LLM_PROVIDER_LABELS[value],
}));

/** The keys view's add form: provider, optional name, the key. */
export function AddKeyForm({ onDone }: { onDone: () => void }) {
  const create = useCreateApiKey();
  const [provider, setProvider] = useState('');
  const [name, setName] = useState('');
  const [key, setKey] = useState('');

  const { submit, checking, refusal, setRefusal } = useCheckedSave(create, onDone);

  return (
    <Card as="section" id="add-key-form" aria-labelledby="add-key-title" className="mb-6">
      <h3 id="add-key-title" className="mb-4 text-lg font-semibold text-slate-900 dark:text-white">
        Add a new API key
      </h3>
      {/* noValidate: the product's own 'Missing Info' message explains what is missing. */}
      <form
        className="grid gap-4 md:grid-cols-3"
        onSubmit={(event) => void submit(event, { provider, name, key })}
        noValidate
      >
        <Select
          label="Provider"
          name="provider"
          options={PROVIDER_OPTIONS}
          placeholder="Select a provider"
          value={provider}
          onChange={(event) => {
            setProvider(event.target.value);
            setRefusal(null);
          }}
        />
        <TextField
          label="Name (optional)"
          name="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="e.g. Personal OpenAI key"
        />
        <TextField
          label="API Key"
          name="key"
          type="password"
          autoComplete="off"
          value={key}
          onChange={(event) => {
            setKey(event.target.value);
            setRefusal(null);
          }}
          placeholder="sk-…"
          hint="Checked with the provider before it is saved."
        />
        {refusal && (
          <Alert className="md:col-span-3">
            {refusal} The key was not saved; copy it again from the provider&apos;s site.
          </Alert>
        )}
        <CancelAndSubmit
          submitLabel="Save Key"
          busy={checking || create.isPending}
          onCancel={onDone}
          className="md:col-span-3"
        />
      </form>
    </Card>
  );
}

/**
 * Save after the provider's check: the vault keeps keys that work, as the wizard does. A key the
 * provider refuses stays in the form with the refusal; an unreachable provider does not block.
 */
function useCheckedSave(create: ReturnType<typeof useCreateApiKey>, onDone: () => void) {
  const [checking, setChecking] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function submit(
    event: FormEvent,
    { provider, name, key }: { provider: string; name: string; key: string },
  ) {
    event.preventDefault();
    if (!provider || !key.trim()) {
      notify.error('Missing Info', 'Please fill out all fields');
      return;
    }
    const typed = key.trim();
    setChecking(true);
    const verdict = await checkLlmKey(provider as TLlmProvider, { api_key: typed }).then(
      (result) => result,
      () => null, // the check itself failed: store the key, as for an unreachable provider
    );
    setChecking(false);
    if (verdict?.rejected) {
      setRefusal(verdict.detail);
      return;
    }
    create.mutate(
      { provider: provider as TLlmProvider, key: typed, name: name.trim() || null },
      {
        onSuccess: () => {
          notify.success(
            'API key added',
            verdict?.ok ? verdict.detail : 'The provider could not be reached to check it.',
          );
          onDone();
        },
        onError: (error) => notify.error('Could not store API key', errorDetail(error)),
      },
    );
  }
  return { submit, checking, refusal, setRefusal };
}

import { LLM_PROVIDER_LABELS, LLM_PROVIDERS, type TLlmProvider } from '@agentloom/contracts';
import { useState, type FormEvent } from 'react';
import { CancelAndSubmit, Card, Select, TextField } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useCreateApiKey } from './dashboard-api';

const PROVIDER_OPTIONS = LLM_PROVIDERS.map((value) => ({
  value,
  label: LLM_PROVIDER_LABELS[value],
}));

/** SPEC §2 Keys view's add form: provider, optional name, the key. */
export function AddKeyForm({ onDone }: { onDone: () => void }) {
  const create = useCreateApiKey();
  const [provider, setProvider] = useState('');
  const [name, setName] = useState('');
  const [key, setKey] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!provider || !key.trim()) {
      notify.error('Missing Info', 'Please fill out all fields');
      return;
    }
    create.mutate(
      { provider: provider as TLlmProvider, key: key.trim(), name: name.trim() || null },
      {
        onSuccess: () => {
          notify.success('API key added');
          onDone();
        },
        onError: (error) => notify.error('Could not store API key', errorDetail(error)),
      },
    );
  }

  return (
    <Card as="section" id="add-key-form" aria-labelledby="add-key-title" className="mb-6">
      <h3 id="add-key-title" className="mb-4 text-lg font-semibold text-slate-900 dark:text-white">
        Add a new API key
      </h3>
      {/* noValidate: the SPEC's own 'Missing Info' message explains what is missing. */}
      <form className="grid gap-4 md:grid-cols-3" onSubmit={submit} noValidate>
        <Select
          label="Provider"
          name="provider"
          options={PROVIDER_OPTIONS}
          placeholder="Select a provider"
          value={provider}
          onChange={(event) => setProvider(event.target.value)}
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
          onChange={(event) => setKey(event.target.value)}
          placeholder="sk-…"
        />
        <CancelAndSubmit
          submitLabel="Save Key"
          busy={create.isPending}
          onCancel={onDone}
          className="md:col-span-3"
        />
      </form>
    </Card>
  );
}

import {
  LLM_PROVIDER_LABELS,
  llmProviderLabelList,
  type TApiKey,
  type TLlmProvider,
} from '@agentloom/contracts';
import { useMutation, useMutationState } from '@tanstack/react-query';
import { Check, Copy, Eye, EyeOff, KeyRound, Plus, Trash2, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Alert, Badge, Button, Card, IconButton, Spinner } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { displayServerMask, formatKeyDate, maskApiKey } from './api-key-format';
import { BackToDashboard, VIEW_TITLE_ID, ViewHeader } from './back-button';
import {
  fetchApiKeySecret,
  keyDeletionEffect,
  useApiKeys,
  useApiKeyUsage,
  useDeleteApiKey,
} from './dashboard-api';
import { VaultKeyCheck } from './vault-key-check';
import { AddKeyForm } from './add-key-form';

function providerLabel(provider: string): string {
  return LLM_PROVIDER_LABELS[provider as TLlmProvider] ?? provider;
}

const REVEAL_MUTATION = ['apikeys', 'reveal'] as const;
const COPY_MUTATION = ['apikeys', 'copy'] as const;

/**
 * The key ids a reveal or copy is still fetching for. Read from react-query's mutation cache, so
 * each call keeps its own spinner: a mutation's `variables` only hold the latest call, and a second
 * key's call would otherwise hide the first key's spinner while that one is still running.
 */
function usePendingIds(mutationKey: readonly string[]): ReadonlySet<string> {
  const ids = useMutationState({
    filters: { mutationKey, status: 'pending' },
    select: (mutation) => mutation.state.variables as string,
  });
  return new Set(ids);
}

/**
 * The plain keys this visit fetched (only held while the view is open), which are revealed, and
 * the reveal/copy actions that fetch them once.
 */
function useKeySecrets() {
  /** Plain keys fetched this visit, by id; only held while the view is open. */
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [revealed, setRevealed] = useState<Record<string, boolean>>({});
  const [copiedId, setCopiedId] = useState<string | null>(null);

  useEffect(() => {
    if (!copiedId) return;
    const timer = setTimeout(() => setCopiedId(null), 2000);
    return () => clearTimeout(timer);
  }, [copiedId]);

  async function secretOf(id: string): Promise<string> {
    const known = secrets[id];
    if (known !== undefined) return known;
    const key = await fetchApiKeySecret(id);
    setSecrets((current) => ({ ...current, [id]: key }));
    return key;
  }

  const reveal = useMutation({
    mutationKey: REVEAL_MUTATION,
    mutationFn: (id: string) => secretOf(id),
    onSuccess: (_key, id) => setRevealed((current) => ({ ...current, [id]: true })),
    onError: (error) =>
      notify.error('Could not reveal key', errorDetail(error) ?? 'Please try again.'),
  });

  function toggleReveal(id: string) {
    if (revealed[id]) setRevealed((current) => ({ ...current, [id]: false }));
    else reveal.mutate(id);
  }

  const copy = useMutation({
    mutationKey: COPY_MUTATION,
    mutationFn: async (id: string) => navigator.clipboard.writeText(await secretOf(id)),
    onSuccess: (_done, id) => {
      setCopiedId(id);
      notify.success('API key copied to clipboard');
    },
    onError: () => notify.error('Failed to copy key'),
  });

  const revealing = usePendingIds(REVEAL_MUTATION);
  const copying = usePendingIds(COPY_MUTATION);

  return {
    secrets,
    revealed,
    copiedId,
    revealing,
    copying,
    toggleReveal,
    copy: (id: string) => copy.mutate(id),
    forget: (id: string) => setSecrets(({ [id]: _gone, ...rest }) => rest),
  };
}

type KeySecrets = ReturnType<typeof useKeySecrets>;

/** docs/product.md#the-dashboard-api-keys: list, add form, per-key reveal/mask, copy, delete. */
export function KeysView({ onBack }: { onBack: () => void }) {
  const keys = useApiKeys();
  const remove = useDeleteApiKey();
  const [formOpen, setFormOpen] = useState(false);
  /** Focus returns to the Add/Close toggle when the add form closes under it. */
  const addToggle = useRef<HTMLButtonElement>(null);
  const [toDelete, setToDelete] = useState<TApiKey | null>(null);
  const usage = useApiKeyUsage(toDelete?.id ?? null);
  const secrets = useKeySecrets();

  function closeForm() {
    setFormOpen(false);
    // The form's Save or Cancel button goes away with it; the toggle stays.
    addToggle.current?.focus();
  }

  function confirmDelete() {
    if (!toDelete) return;
    const id = toDelete.id;
    remove.mutate(id, {
      onSuccess: () => {
        notify.success('API key removed');
        secrets.forget(id);
        setToDelete(null);
      },
      onError: () => notify.error('Failed to delete key'),
    });
  }

  return (
    <section aria-labelledby={VIEW_TITLE_ID}>
      <BackToDashboard onBack={onBack} />
      <ViewHeader
        title="API Keys"
        actions={
          <Button
            ref={addToggle}
            variant={formOpen ? 'outline' : 'primary'}
            onClick={() => setFormOpen((open) => !open)}
            aria-expanded={formOpen}
            aria-controls="add-key-form"
          >
            {formOpen ? (
              <X aria-hidden="true" className="h-4 w-4" />
            ) : (
              <Plus aria-hidden="true" className="h-4 w-4" />
            )}
            {formOpen ? 'Close Form' : 'Add API Key'}
          </Button>
        }
      />

      {formOpen && <AddKeyForm onDone={closeForm} />}

      {/* The product's message, announced once by the alert role (no toast as well). A failed
          refetch keeps the list it already has below the alert. */}
      {keys.isError && (
        <LoadFailed onRetry={() => void keys.refetch()} retrying={keys.isFetching} />
      )}

      <KeyList pending={keys.isPending} list={keys.data} secrets={secrets} onDelete={setToDelete} />

      <ConfirmDialog
        open={toDelete !== null}
        onCancel={() => setToDelete(null)}
        title="Delete this API key?"
        description={keyDeletionEffect(usage.data)}
        confirmLabel="Delete Key"
        onConfirm={confirmDelete}
        busy={remove.isPending}
      />
    </section>
  );
}

/** The list could not be loaded: the product's words and a way to try again. */
function LoadFailed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <Alert className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <span>Failed to load API keys</span>
      <Button variant="outline" size="sm" onClick={onRetry} loading={retrying}>
        Retry
      </Button>
    </Alert>
  );
}

/** The stored keys with their loading and empty states; nothing while a failed load shows. */
function KeyList({
  pending,
  list,
  secrets,
  onDelete,
}: {
  pending: boolean;
  list: TApiKey[] | undefined;
  secrets: KeySecrets;
  onDelete: (key: TApiKey) => void;
}) {
  if (pending) {
    return (
      <div className="grid min-h-48 place-items-center text-indigo-600 dark:text-indigo-400">
        <Spinner size="lg" label="Loading API keys…" />
      </div>
    );
  }
  if (list === undefined) return null;
  if (list.length === 0) {
    return (
      <Card className="flex flex-col items-center gap-3 py-12 text-center">
        <KeyRound aria-hidden="true" className="h-12 w-12 text-slate-400 dark:text-slate-500" />
        <p className="text-lg font-semibold text-slate-900 dark:text-white">No API keys yet</p>
        <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">
          Add a key for {llmProviderLabelList('or')}; your agents use it to call the model. Keys are
          encrypted and shown masked.
        </p>
      </Card>
    );
  }
  return (
    <ul className="space-y-3" aria-label="Stored API keys">
      {list.map((key) => (
        <li key={key.id}>
          <KeyRow apiKey={key} secrets={secrets} onDelete={() => onDelete(key)} />
        </li>
      ))}
    </ul>
  );
}

/** One stored key: provider, name, its value masked or revealed, and the per-key actions. */
function KeyRow({
  apiKey: key,
  secrets: state,
  onDelete,
}: {
  apiKey: TApiKey;
  secrets: KeySecrets;
  onDelete: () => void;
}) {
  const secret = state.secrets[key.id];
  const shown = state.revealed[key.id] && secret !== undefined;
  const copied = state.copiedId === key.id;
  const label = key.name
    ? `${key.name} (${providerLabel(key.provider)})`
    : providerLabel(key.provider);
  return (
    <Card
      className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
      aria-label={`${label} key`}
    >
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone="indigo">{providerLabel(key.provider)}</Badge>
          {key.name && (
            <span className="font-medium text-slate-900 dark:text-white">{key.name}</span>
          )}
        </div>
        <code
          className="block font-mono text-sm break-all text-slate-800 dark:text-slate-200"
          data-testid="api-key-value"
        >
          {shown ? secret : secret !== undefined ? maskApiKey(secret) : displayServerMask(key.key)}
        </code>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Added {formatKeyDate(key.created_at)}
        </p>
        <VaultKeyCheck apiKey={key} />
      </div>
      <div className="flex shrink-0 gap-1">
        <IconButton
          icon={shown ? EyeOff : Eye}
          label={shown ? `Hide ${label} key` : `Reveal ${label} key`}
          title={shown ? 'Hide key' : 'Reveal key'}
          onClick={() => state.toggleReveal(key.id)}
          loading={state.revealing.has(key.id)}
        />
        <IconButton
          icon={copied ? Check : Copy}
          iconClassName={copied ? 'text-green-700 dark:text-green-400' : undefined}
          label={`Copy ${label} key`}
          title="Copy key"
          onClick={() => state.copy(key.id)}
          loading={state.copying.has(key.id)}
        />
        <IconButton
          icon={Trash2}
          variant="dangerGhost"
          label={`Delete ${label} key`}
          title="Delete key"
          onClick={onDelete}
        />
      </div>
    </Card>
  );
}

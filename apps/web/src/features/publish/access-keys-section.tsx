import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Badge, Button, CopyButton, TextField } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useAccessKeys, useCreateAccessKey, useRevokeAccessKey } from './publish-api';

/** The agent's access keys: make one (shown once), list them masked with their use, revoke. */
export function AccessKeysSection({
  agentId,
  onCreated,
}: {
  agentId: string;
  /** Told the new key's secret, which is shown only once (the examples fill it in). */
  onCreated?: (secret: string) => void;
}) {
  const list = useAccessKeys(agentId);
  const create = useCreateAccessKey(agentId);
  const revoke = useRevokeAccessKey(agentId);
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string | null>(null);

  function makeKey() {
    create.mutate(
      { name },
      {
        onSuccess: (key) => {
          setShown(key.secret);
          setName('');
          onCreated?.(key.secret);
        },
        onError: (error) =>
          notify.error('Could not make the key', errorDetail(error) ?? 'Please try again.'),
      },
    );
  }

  return (
    <div className="space-y-2 text-sm">
      <h4 className="font-semibold text-slate-900 dark:text-white">Access keys</h4>
      <div className="flex flex-wrap items-end gap-2">
        <TextField
          label="Key name (optional)"
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
        />
        <Button size="sm" loading={create.isPending} onClick={makeKey}>
          <KeyRound aria-hidden="true" className="h-4 w-4" />
          New access key
        </Button>
      </div>
      {shown && <NewKey secret={shown} />}
      <ul className="space-y-1">
        {(list.data ?? []).map((key) => (
          <li key={key.id} className="flex flex-wrap items-center gap-2">
            <code>{key.key}</code>
            <span>{key.name ?? 'Unnamed'}</span>
            <span className="text-slate-600 dark:text-slate-400">
              {key.request_count} requests · {key.rate_limit_per_minute}/min
            </span>
            {key.revoked_at ? (
              <Badge tone="red">Revoked</Badge>
            ) : (
              <Button
                size="sm"
                variant="dangerGhost"
                loading={revoke.isPending && revoke.variables === key.id}
                onClick={() =>
                  revoke.mutate(key.id, {
                    onSuccess: () => notify.success('Access key revoked'),
                    onError: (error) =>
                      notify.error('Could not revoke', errorDetail(error) ?? 'Please try again.'),
                  })
                }
              >
                Revoke
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A key just made: its secret, shown this once, to copy. */
function NewKey({ secret }: { secret: string }) {
  return (
    <div
      role="status"
      className="rounded border border-amber-300 bg-amber-50 p-2 dark:border-amber-700 dark:bg-amber-950"
    >
      <p>Copy this key now: it is shown only once.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 break-all" data-testid="new-access-key">
          {secret}
        </code>
        <CopyButton text={secret} label="Copy access key" what="Access key" />
      </div>
    </div>
  );
}

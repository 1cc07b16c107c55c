import type { TApiKey, TKeyCheckResult } from '@agentloom/contracts';
import { LLM_PROVIDER_LABELS } from '@agentloom/contracts';
import { useMutation } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { Button } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { checkLlmKey } from '../../features/wizard/wizard-api';

/**
 * Asks the key's provider whether it still takes a vault key (its list-models call), and says
 * so beside the key: "Connected — 23 models available" or "OpenAI rejected this key. …".
 */
export function VaultKeyCheck({ apiKey }: { apiKey: TApiKey }) {
  const check = useMutation<TKeyCheckResult, unknown>({
    mutationFn: () => checkLlmKey(apiKey.provider, { api_key_id: apiKey.id }),
  });
  const result = check.data;
  const failure = check.isError
    ? (errorDetail(check.error) ?? 'The key could not be checked. Try again in a moment.')
    : null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="ghost" size="sm" loading={check.isPending} onClick={() => check.mutate()}>
        Check with {LLM_PROVIDER_LABELS[apiKey.provider]}
      </Button>
      {(result || failure) && (
        <p
          role={result?.ok ? 'status' : 'alert'}
          className={clsx(
            'text-xs',
            result?.ok
              ? 'text-green-700 dark:text-green-400'
              : result?.rejected
                ? 'text-red-700 dark:text-red-400'
                : 'text-amber-700 dark:text-amber-300',
          )}
        >
          {result?.detail ?? failure}
        </p>
      )}
    </div>
  );
}

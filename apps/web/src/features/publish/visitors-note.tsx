import type { TPublication } from '@agentloom/contracts';
import { clsx } from 'clsx';
import { Rocket } from 'lucide-react';
import { useState } from 'react';
import { Alert, Button } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useScoreCheckedPublish } from '../evaluation/build-evaluation';
import { usePublication, usePublishBuild } from './publish-api';

/** The newer Built build visitors do not see yet, or null when they see the newest. */
export function newerBuild(state: TPublication | undefined) {
  if (!state?.published || !state.latest_build_id || state.latest_build_id === state.build_id) {
    return null;
  }
  if (state.build_number === null || state.latest_build_number === null) return null;
  return {
    id: state.latest_build_id,
    served: state.build_number,
    latest: state.latest_build_number,
  };
}

/**
 * "Visitors see build 1 of 2 — publish build 2?" with the button that does it, while a newer
 * Built build than the published one exists (a prompt change, or after a rollback). Nothing
 * otherwise. Shown on the agent's card, on the build screen and in the publishing panel.
 */
export function VisitorsNote({ agentId, className }: { agentId: string; className?: string }) {
  const publication = usePublication(agentId);
  const publish = usePublishBuild(agentId);
  const checked = useScoreCheckedPublish(agentId);
  const [error, setError] = useState<string | null>(null);
  const newer = newerBuild(publication.data);
  if (!newer) return null;
  return (
    <Alert tone="info" className={clsx('flex flex-wrap items-center gap-x-3 gap-y-2', className)}>
      <span>
        Visitors see build {newer.served} of {newer.latest} — publish build {newer.latest}?
      </span>
      <Button
        size="sm"
        loading={publish.isPending}
        onClick={() => {
          setError(null);
          checked.ask(newer.id, () =>
            publish.mutate(newer.id, {
              onSuccess: () => notify.success(`Visitors now see build ${newer.latest}`),
              onError: (failure) =>
                setError(errorDetail(failure) ?? 'The build could not be published.'),
            }),
          );
        }}
      >
        <Rocket aria-hidden="true" className="h-4 w-4" />
        Publish build {newer.latest}
      </Button>
      {error && <span className="w-full font-semibold">{error}</span>}
      {checked.dialog}
    </Alert>
  );
}

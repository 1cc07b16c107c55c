import type { TAgentType } from '@agentloom/contracts';
import { useCallback } from 'react';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useWizardMutations, type WizardCall } from './wizard-api';

/**
 * Runs a wizard call and reports a failure with the SPEC §8 text as the title and the server's
 * detail (why it failed: wrong file type, unreachable database…) as the description.
 */
export function useStepSaver(type: TAgentType) {
  const mutations = useWizardMutations(type);
  const { mutateAsync } = mutations.save;
  const saveStep = useCallback(
    async (call: WizardCall, failure: string): Promise<boolean> => {
      try {
        await mutateAsync(call);
        return true;
      } catch (error) {
        notify.error(failure, errorDetail(error));
        return false;
      }
    },
    [mutateAsync],
  );
  return { ...mutations, saveStep };
}

/** SPEC §4's alert texts for a missing required value, through the app's toasts. */
export function invalid(message: string): void {
  notify.error(message);
}

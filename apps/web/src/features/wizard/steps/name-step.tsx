import { ZCreatePipelineRequest, type TAgentType } from '@agentloom/contracts';
import { useState } from 'react';
import { errorDetail } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import { AgentNameFields } from '../agent-name-fields';
import { checked, type WizardStepProps } from '../wizard-step';

const TYPE_LABELS: Record<TAgentType, string> = { rag: 'RAG Agent', sql: 'SQL Agent' };

/**
 * Each wizard words a failed creation its own way (docs/product.md#notices-and-failure-messages).
 */
const CREATE_FAILED: Record<TAgentType, (error: unknown) => void> = {
  rag: (error) => notify.error('Failed to create agent.', errorDetail(error)),
  sql: (error) => notify.error(errorDetail(error) ?? 'Failed to create pipeline.'),
};

/** Step 1 (docs/product.md#the-wizard-agent-name): creates the agent and only then advances. */
export function NameStep({ type, pipeline, busy, mutations, advance, created }: WizardStepProps) {
  const [name, setName] = useState(pipeline?.name ?? '');

  async function submit() {
    const request = checked(ZCreatePipelineRequest, { name, agent_type: type });
    if (!request) return;
    // Coming back to step 1 continues the same agent: renamed in place, never a second one.
    if (pipeline) {
      if (request.name === pipeline.name) return advance();
      try {
        await mutations.rename.mutateAsync({ sessionId: pipeline.id, name: request.name });
        return advance();
      } catch (error) {
        return notify.error('Could not rename the agent', errorDetail(error));
      }
    }
    try {
      const answer = await mutations.create.mutateAsync(request.name);
      created(answer.session_id);
    } catch (error) {
      CREATE_FAILED[type](error);
    }
  }

  return (
    <AgentNameFields
      name={name}
      onNameChange={setName}
      typeValue={type}
      typeLabel={TYPE_LABELS[type]}
      busy={busy}
      // The product's label creates; an agent that exists is renamed (or kept) instead.
      submitLabel={pipeline ? 'Save & Continue' : 'Create & Continue'}
      onSubmit={() => void submit()}
    />
  );
}

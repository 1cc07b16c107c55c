import type { TAgentType, TPipelineDetail } from '@agentloom/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useLayoutEffect, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { Alert, buttonClasses, PageContainer, Spinner } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { STORAGE_KEYS } from '../../lib/storage';
import { BuildStep } from './steps/build-step';
import { firstUnfinishedStep, nextStep, useWizardRoute, wizardPath } from './step-navigation';
import { pipelineKey, usePipeline, useWizardMutations, type WizardCall } from './wizard-api';
import { WizardLayout } from './wizard-layout';
import type { WizardStep, WizardStepProps } from './wizard-step';

/**
 * A wizard's step table: the contracts' steps in their order, each with its screen (the compiler
 * wants one for every key), then Build (nine RAG steps, eight SQL steps:
 * docs/product.md#the-wizards).
 */
export function stepTable<K extends string>(
  order: readonly { key: K; label: string }[],
  screens: Record<K, ComponentType<WizardStepProps>>,
): WizardStep[] {
  return [
    ...order.map(({ key, label }) => ({ key, label, Component: screens[key] })),
    { key: 'build', label: 'Build', Component: BuildStep },
  ];
}

/**
 * The frame of both wizards: it reads the agent from the server, finds the step in the URL and
 * shows that row of the wizard's step table. The steps keep no copy of the answers beyond the
 * form being edited; what they show comes from `GET /pipelines/{id}`.
 */
export function WizardShell({
  type,
  title,
  description,
  steps,
}: {
  type: TAgentType;
  title: string;
  description: string;
  steps: readonly WizardStep[];
}) {
  const total = steps.length;
  const { sessionId, requested, review, goTo } = useWizardRoute(type, total);
  const pipeline = usePipeline(sessionId);
  const client = useQueryClient();
  const mutations = useWizardMutations(type);
  const { busy } = mutations;
  const { mutateAsync } = mutations.save;

  // docs/product.md#stored-in-the-browser: the build screens still read the session from local
  // storage. A layout effect, so it is stored by the time the step the new session opens is on
  // screen (not a paint later).
  useLayoutEffect(() => {
    if (sessionId) localStorage.setItem(STORAGE_KEYS.sessionId, sessionId);
  }, [sessionId]);

  const save = useSaveStep(mutateAsync);

  const agent = pipeline.data;
  // Another type's id in this wizard is as unknown as an id that does not exist.
  const mismatch = agent !== undefined && agent.agent_type !== type;
  if (sessionId && (pipeline.isError || mismatch)) {
    return <AgentLoadFailure title={title} error={pipeline.error} />;
  }
  if (sessionId && !agent) {
    return (
      <PageContainer size="md" className="grid min-h-64 place-items-center">
        <Spinner size="lg" label="Loading your agent…" />
      </PageContainer>
    );
  }

  const step = !agent ? 1 : (requested ?? firstUnfinishedStep(agent, total));
  const current = steps[step - 1]!;
  const { Component } = current;
  const positionOf = (key: string) => steps.findIndex((row) => row.key === key) + 1;

  function advance() {
    if (!review) return goTo(sessionId, nextStep(step, total));
    // Opened from the summary: back to it, unless this change undid a step that was done (a new
    // source type needs its file or database again), which opens next, still on the way back.
    const saved = client.getQueryData<TPipelineDetail>(pipelineKey(sessionId));
    const undone = saved?.steps.findIndex(
      (after, index) => !after.complete && agent?.steps[index]?.complete,
    );
    if (undone !== undefined && undone >= 0) goTo(sessionId, undone + 1, false, true);
    else goTo(sessionId, total);
  }

  return (
    <WizardLayout
      title={title}
      description={description}
      labels={steps.map((row) => row.label)}
      step={step}
      busy={busy}
      onPrevious={() => goTo(sessionId, step - 1)}
      // A step already answered opens from the list; from the summary (or on the way back to
      // it) the step returns to the summary once saved.
      stepHref={(position) => {
        const done = agent?.steps[position - 1]?.complete ?? false;
        if (!agent || position === step || !done) return undefined;
        return wizardPath(type, sessionId, position, review || step === total);
      }}
      summaryHref={review ? wizardPath(type, sessionId, total) : undefined}
    >
      <Component
        // A step opened again starts from the server's answers, not from an abandoned edit.
        key={`${sessionId}:${current.key}`}
        type={type}
        sessionId={sessionId}
        pipeline={agent}
        busy={busy}
        mutations={mutations}
        save={save}
        advance={advance}
        changeHref={(key) => wizardPath(type, sessionId, positionOf(key), true)}
        created={(id) => {
          // The new agent's step 1 replaces the blank form in history: Back returns to the
          // agent's own first step instead of a form that would create it a second time.
          goTo(id, 1, true);
          goTo(id, 2);
        }}
      />
    </WizardLayout>
  );
}

/** A step's save: true when it went through, else false after the toast with `failure`. */
function useSaveStep(mutateAsync: (call: WizardCall) => Promise<unknown>) {
  return useCallback(
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
}

/** An agent that could not be loaded (or is of another type): say so and lead back. */
function AgentLoadFailure({ title, error }: { title: string; error: unknown }) {
  return (
    <PageContainer size="md" className="space-y-4 py-10">
      <h1 className="text-2xl font-bold text-slate-900 dark:text-white">{title}</h1>
      <Alert>{errorDetail(error) ?? 'This agent could not be loaded.'}</Alert>
      <Link to="/dashboard?view=agents" className={buttonClasses('outline')}>
        Back to My Agents
      </Link>
    </PageContainer>
  );
}

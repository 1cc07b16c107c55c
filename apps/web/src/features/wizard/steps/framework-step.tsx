import {
  frameworkFitsSource,
  SQL_FRAMEWORK_NEEDS,
  SQL_FRAMEWORKS,
  ZSqlFrameworkRequest,
  type TSqlConfigView,
  type TSqlFramework,
} from '@agentloom/contracts';
import { useState } from 'react';
import { ChoiceCards, type Choice } from '../choice-cards';
import { StepForm, SubmitButton } from '../step-form';
import { sqlCalls } from '../wizard-api';
import { SQL_FRAMEWORK_CARDS } from '../wizard-content';
import { checked, type WizardStepProps } from '../wizard-step';

function frameworkChoices(source: string): Choice<TSqlFramework>[] {
  return SQL_FRAMEWORKS.map((framework) => {
    const fits = !source || frameworkFitsSource(framework, source);
    return {
      value: framework,
      label: SQL_FRAMEWORK_CARDS[framework].title,
      description: SQL_FRAMEWORK_CARDS[framework].description,
      disabled: !fits,
      note: fits ? undefined : SQL_FRAMEWORK_NEEDS[framework].note,
    };
  });
}

/** SQL step 6: the query engine, among those that can serve the chosen source. */
export function FrameworkStep({ sessionId, pipeline, busy, save, advance }: WizardStepProps) {
  const config = pipeline?.config as TSqlConfigView | undefined;
  const source = config?.source_type ?? '';
  // The gateway drops a framework that cannot serve the source; so does the form.
  const saved = config?.framework && frameworkFitsSource(config.framework, source);
  const [framework, setFramework] = useState<TSqlFramework | ''>(
    saved ? (config?.framework ?? '') : '',
  );

  async function submit() {
    const request = checked(ZSqlFrameworkRequest, { session_id: sessionId, framework });
    if (!request) return;
    const call = sqlCalls.framework(sessionId, request.framework);
    if (await save(call, 'Failed to save framework selection.')) advance();
  }

  return (
    <StepForm onSubmit={() => void submit()}>
      <ChoiceCards
        label="SQL framework"
        choices={frameworkChoices(source)}
        selected={framework}
        busy={busy}
        onChoose={setFramework}
        columns="sm:grid-cols-2 lg:grid-cols-3"
      />
      <SubmitButton busy={busy} label="Save & Continue" busyLabel="Saving…" />
    </StepForm>
  );
}

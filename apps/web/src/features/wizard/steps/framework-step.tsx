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

/**
 * The engine recommended for a source: plain read-only SQL, one query per question, shown with
 * the answer, so every number can be checked. The others are expert choices.
 */
export function recommendedFramework(source: string): TSqlFramework {
  return frameworkFitsSource('sql_query_db', source) ? 'sql_query_db' : 'sql_query_file';
}

/**
 * SQL step 6: the query engine, among those that can serve the chosen source. The recommended
 * one is chosen already; the other engines are under Advanced.
 */
export function FrameworkStep({ sessionId, pipeline, busy, save, advance }: WizardStepProps) {
  const config = pipeline?.config as TSqlConfigView | undefined;
  const source = config?.source_type ?? '';
  // The gateway drops a framework that cannot serve the source; so does the form.
  const saved = config?.framework && frameworkFitsSource(config.framework, source);
  const recommended = recommendedFramework(source);
  const [framework, setFramework] = useState<TSqlFramework | ''>(
    saved ? (config?.framework ?? recommended) : recommended,
  );
  const choices = frameworkChoices(source);
  const others = choices.filter((choice) => choice.value !== recommended);

  async function submit() {
    const request = checked(ZSqlFrameworkRequest, { session_id: sessionId, framework });
    if (!request) return;
    const call = sqlCalls.framework(sessionId, request.framework);
    if (await save(call, 'Failed to save framework selection.')) advance();
  }

  return (
    <StepForm onSubmit={() => void submit()}>
      <ChoiceCards
        label="Recommended query engine"
        choices={choices.filter((choice) => choice.value === recommended)}
        selected={framework}
        busy={busy}
        onChoose={setFramework}
        columns="sm:grid-cols-1"
      />
      <p className="text-sm text-slate-700 dark:text-slate-300">
        <strong>Recommended:</strong> it writes one read-only SQL query per question and shows it
        with the answer, so you can check every number.
      </p>
      {/* Open when the agent already uses one of them, so its choice is seen. */}
      <details
        open={framework !== recommended}
        className="rounded-lg border border-slate-200 p-4 dark:border-slate-700"
      >
        <summary className="cursor-pointer text-sm font-medium text-slate-800 dark:text-slate-200">
          Advanced: other query engines (PandasAI, Vanna AI)
        </summary>
        <div className="mt-4">
          <ChoiceCards
            label="SQL framework"
            choices={others}
            selected={framework}
            busy={busy}
            onChoose={setFramework}
            columns="sm:grid-cols-2"
          />
        </div>
      </details>
      <SubmitButton busy={busy} label="Save & Continue" busyLabel="Saving…" />
    </StepForm>
  );
}

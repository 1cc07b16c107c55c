import {
  AGENT_NAME_REQUIRED,
  frameworkFitsSource,
  isFileSourceType,
  LLM_FIELDS_REQUIRED,
  SOURCE_TYPE_LABELS,
  SQL_DB_FIELDS_REQUIRED,
  SQL_FRAMEWORK_REQUIRED,
  SQL_FRAMEWORKS,
  SQL_SOURCE_TYPES,
  SQL_WIZARD_STEPS,
  SYSTEM_PROMPT_REQUIRED,
  UPLOAD_EXTENSIONS,
  type TLlmProvider,
  type TSqlFramework,
  type TSqlSourceType,
  type TUiFramework,
} from '@agentloom/contracts';
import { Database, FileSpreadsheet } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import {
  AgentNameStep,
  ChoiceCards,
  BuildStep,
  llmAndUiRows,
  DatabaseStep,
  EMPTY_LLM,
  FileUploadStep,
  LlmStep,
  StepForm,
  SubmitButton,
  SystemPromptStep,
  UiTypeStep,
  URI_PLACEHOLDERS,
  type Choice,
  type LlmValue,
} from './steps';
import { useAgentDraft } from './use-agent-draft';
import { invalid } from './use-step-saver';
import { sqlCalls, type LlmKey } from './wizard-api';
import { SQL_FRAMEWORK_CARDS, SQL_PROMPT_TEMPLATES } from './wizard-content';
import { WizardLayout } from './wizard-layout';

/** SPEC §2: eight steps, the seven that hold configuration and Build. */
export const SQL_STEP_LABELS = [...SQL_WIZARD_STEPS.map((step) => step.label), 'Build'] as const;

const SOURCE_CHOICES: Choice<TSqlSourceType>[] = SQL_SOURCE_TYPES.map((type) => {
  const file = isFileSourceType(type);
  const Icon = file ? FileSpreadsheet : Database;
  return {
    value: type,
    label: SOURCE_TYPE_LABELS[type],
    description: file ? 'Upload a file' : 'Connect a database',
    icon: <Icon className="h-6 w-6" />,
  };
});

function frameworkChoices(source: TSqlSourceType | ''): Choice<TSqlFramework>[] {
  return SQL_FRAMEWORKS.map((framework) => {
    const fits = !source || frameworkFitsSource(framework, source);
    return {
      value: framework,
      label: SQL_FRAMEWORK_CARDS[framework].title,
      description: SQL_FRAMEWORK_CARDS[framework].description,
      disabled: !fits,
      note: fits
        ? undefined
        : framework.endsWith('_db')
          ? 'Needs a database source'
          : 'Needs a CSV or Excel source',
    };
  });
}

/** The SQL wizard (SPEC §2, §4): every step saves to the gateway before it advances. */
export function SqlWizard() {
  const navigate = useNavigate();
  const draft = useAgentDraft<TSqlSourceType>('sql', SQL_STEP_LABELS.length);
  const { step, next, previous, build, busy, saveStep, sessionId, sourceType } = draft;
  const [llm, setLlm] = useState<LlmValue>(EMPTY_LLM);
  const [prompt, setPrompt] = useState('');
  const [framework, setFramework] = useState<TSqlFramework | ''>('');
  const [ui, setUi] = useState<TUiFramework | ''>('');

  async function chooseSource(type: TSqlSourceType) {
    const call = sqlCalls.source(sessionId, type);
    // The gateway drops a framework that cannot serve the new source; so does the form.
    if (await draft.chooseSource(type, call, 'Failed to set source type.')) {
      if (framework && !frameworkFitsSource(framework, type)) setFramework('');
    }
  }

  async function connectDatabase() {
    const fields = draft.databaseFields();
    if (!fields) return invalid(SQL_DB_FIELDS_REQUIRED);
    const call = sqlCalls.database(sessionId, {
      db_uri: fields.uri,
      db_name: fields.database,
      table_name: fields.table,
    });
    if (await saveStep(call, 'Failed to save DB config.')) next();
  }

  function chooseProvider(provider: TLlmProvider | '') {
    if (provider !== llm.provider) setLlm({ ...EMPTY_LLM, provider });
  }

  /** SPEC §4: the SQL LLM step saves the provider, then the key, then the model, then advances. */
  async function connectLlm(key: LlmKey | null) {
    const { provider, model } = llm;
    if (!provider || !key || !model) return invalid(LLM_FIELDS_REQUIRED);
    if (!(await saveStep(sqlCalls.provider(sessionId, provider), 'Failed to set LLM provider.')))
      return;
    if (!(await saveStep(sqlCalls.key(sessionId, key), 'Failed to submit LLM credentials.')))
      return;
    if (!(await saveStep(sqlCalls.model(sessionId, model), 'Failed to submit LLM credentials.')))
      return;
    next();
  }

  async function savePrompt() {
    const text = prompt.trim();
    if (!text) return invalid(SYSTEM_PROMPT_REQUIRED);
    if (await saveStep(sqlCalls.systemPrompt(sessionId, text), 'Failed to save system prompt.')) {
      next();
    }
  }

  async function saveFramework() {
    if (!framework) return invalid(SQL_FRAMEWORK_REQUIRED);
    const call = sqlCalls.framework(sessionId, framework);
    if (await saveStep(call, 'Failed to save framework selection.')) next();
  }

  async function chooseUi(choice: TUiFramework) {
    if (await saveStep(sqlCalls.ui(sessionId, choice), 'Failed to save UI type')) {
      setUi(choice);
      next();
    }
  }

  async function startBuild() {
    try {
      await build.mutateAsync(sessionId);
      void navigate(`/sql/build/animation/sql/${sessionId}`);
    } catch (error) {
      notify.error(
        errorDetail(error) ??
          (error instanceof Error ? error.message : undefined) ??
          'Build failed. Please try again.',
      );
    }
  }

  function renderStep() {
    switch (step) {
      case 1:
        return (
          <AgentNameStep
            name={draft.name}
            onNameChange={draft.setName}
            typeValue="sql"
            typeLabel="SQL Agent"
            busy={busy}
            onSubmit={() =>
              void draft.createAgent(AGENT_NAME_REQUIRED, (error) =>
                notify.error(errorDetail(error) ?? 'Failed to create pipeline.'),
              )
            }
          />
        );
      case 2:
        return (
          <ChoiceCards
            label="Source type"
            choices={SOURCE_CHOICES}
            selected={sourceType}
            busy={busy}
            onChoose={(type) => void chooseSource(type)}
            columns="sm:grid-cols-3 lg:grid-cols-5"
          />
        );
      case 3:
        return isFileSourceType(sourceType) ? (
          <FileUploadStep
            accept={UPLOAD_EXTENSIONS[sourceType]}
            hint={sourceType === 'csv' ? 'Supports: CSV files' : 'Supports: Excel (.xlsx) files'}
            file={draft.file}
            onFile={draft.setFile}
            busy={busy}
            onSubmit={() => void draft.uploadFile(sqlCalls.upload, 'Failed to upload file.')}
          />
        ) : (
          <DatabaseStep
            labels={{ uri: 'Database URI', database: 'Database Name', table: 'Table Name' }}
            uriPlaceholder={URI_PLACEHOLDERS[sourceType] ?? ''}
            value={draft.db}
            onChange={draft.setDb}
            busy={busy}
            onSubmit={() => void connectDatabase()}
          />
        );
      case 4:
        return (
          <LlmStep
            value={llm}
            onChange={setLlm}
            onProviderChange={chooseProvider}
            busy={busy}
            onSubmit={(key) => void connectLlm(key)}
          />
        );
      case 5:
        return (
          <SystemPromptStep
            templates={SQL_PROMPT_TEMPLATES}
            prompt={prompt}
            onChange={setPrompt}
            busy={busy}
            onSubmit={() => void savePrompt()}
          />
        );
      case 6:
        return (
          <StepForm onSubmit={() => void saveFramework()}>
            <ChoiceCards
              label="SQL framework"
              choices={frameworkChoices(sourceType)}
              selected={framework}
              busy={busy}
              onChoose={setFramework}
              columns="sm:grid-cols-2 lg:grid-cols-3"
            />
            <SubmitButton busy={busy} label="Save & Continue" busyLabel="Saving…" />
          </StepForm>
        );
      case 7:
        return (
          <UiTypeStep
            order={['streamlit', 'gradio']}
            selected={ui}
            busy={busy}
            onChoose={(choice) => void chooseUi(choice)}
          />
        );
      default:
        return (
          <BuildStep
            rows={[
              { label: 'Agent Name', value: draft.createdName, fallback: 'Not named' },
              {
                label: 'Database Type',
                value: sourceType && SOURCE_TYPE_LABELS[sourceType],
                fallback: 'Not selected',
              },
              { label: 'Connection', value: draft.sourceDetail, fallback: 'Not connected' },
              ...llmAndUiRows(llm, ui),
              {
                label: 'Query Engine',
                value: framework && SQL_FRAMEWORK_CARDS[framework].title,
                fallback: 'Not selected',
              },
            ]}
            label="Build & Deploy SQL Agent"
            busy={busy}
            onSubmit={() => void startBuild()}
          />
        );
    }
  }

  return (
    <WizardLayout
      title="Build a SQL Agent"
      description="An analyst that answers questions by running SQL over your data."
      labels={SQL_STEP_LABELS}
      step={step}
      busy={busy}
      onPrevious={previous}
    >
      {renderStep()}
    </WizardLayout>
  );
}

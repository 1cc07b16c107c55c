import {
  AGENT_NAME_REQUIRED,
  frameworkFitsSource,
  isFileSourceType,
  LLM_FIELDS_REQUIRED,
  NO_FILE_SELECTED,
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
import { STORAGE_KEYS } from '../../lib/storage';
import { useStepNavigation } from './step-navigation';
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
  type DatabaseFieldsValue,
  type LlmValue,
} from './steps';
import { invalid, useStepSaver } from './use-step-saver';
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
  const { step, next, previous } = useStepNavigation(SQL_STEP_LABELS.length);
  const { create, build, busy, saveStep } = useStepSaver('sql');

  const [sessionId, setSessionId] = useState('');
  const [createdName, setCreatedName] = useState('');
  const [name, setName] = useState('');
  const [sourceType, setSourceType] = useState<TSqlSourceType | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const [uploadedName, setUploadedName] = useState('');
  const [db, setDb] = useState<DatabaseFieldsValue>({ uri: '', database: '', table: '' });
  const [llm, setLlm] = useState<LlmValue>(EMPTY_LLM);
  const [prompt, setPrompt] = useState('');
  const [framework, setFramework] = useState<TSqlFramework | ''>('');
  const [ui, setUi] = useState<TUiFramework | ''>('');

  async function createAgent() {
    const trimmed = name.trim();
    if (!trimmed) return invalid(AGENT_NAME_REQUIRED);
    if (sessionId && trimmed === createdName) return next();
    try {
      const created = await create.mutateAsync(trimmed);
      localStorage.setItem(STORAGE_KEYS.sessionId, created.session_id);
      setSessionId(created.session_id);
      setCreatedName(trimmed);
      next();
    } catch (error) {
      notify.error(errorDetail(error) ?? 'Failed to create pipeline.');
    }
  }

  async function chooseSource(type: TSqlSourceType) {
    if (await saveStep(sqlCalls.source(sessionId, type), 'Failed to set source type.')) {
      // Another source type makes the file or connection of the previous one meaningless.
      if (type !== sourceType) resetSourceDetails();
      setSourceType(type);
      // The gateway drops a framework that cannot serve the new source; so does the form.
      if (framework && !frameworkFitsSource(framework, type)) setFramework('');
      next();
    }
  }

  function resetSourceDetails() {
    setFile(null);
    setUploadedName('');
    setDb({ uri: '', database: '', table: '' });
  }

  async function uploadFile() {
    if (!file) return invalid(NO_FILE_SELECTED);
    if (await saveStep(sqlCalls.upload(sessionId, file), 'Failed to upload file.')) {
      setUploadedName(file.name);
      next();
    }
  }

  async function connectDatabase() {
    const fields = {
      db_uri: db.uri.trim(),
      db_name: db.database.trim(),
      table_name: db.table.trim(),
    };
    if (!fields.db_uri || !fields.db_name || !fields.table_name) {
      return invalid(SQL_DB_FIELDS_REQUIRED);
    }
    if (await saveStep(sqlCalls.database(sessionId, fields), 'Failed to save DB config.')) next();
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

  const fileSource = isFileSourceType(sourceType);
  const connection = fileSource
    ? uploadedName
    : db.database && db.table
      ? `${db.database}.${db.table}`
      : '';

  function renderStep() {
    switch (step) {
      case 1:
        return (
          <AgentNameStep
            name={name}
            onNameChange={setName}
            typeValue="sql"
            typeLabel="SQL Agent"
            busy={busy}
            onSubmit={() => void createAgent()}
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
            file={file}
            onFile={setFile}
            busy={busy}
            onSubmit={() => void uploadFile()}
          />
        ) : (
          <DatabaseStep
            labels={{ uri: 'Database URI', database: 'Database Name', table: 'Table Name' }}
            uriPlaceholder={URI_PLACEHOLDERS[sourceType] ?? ''}
            value={db}
            onChange={setDb}
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
              { label: 'Agent Name', value: createdName, fallback: 'Not named' },
              {
                label: 'Database Type',
                value: sourceType && SOURCE_TYPE_LABELS[sourceType],
                fallback: 'Not selected',
              },
              { label: 'Connection', value: connection, fallback: 'Not connected' },
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

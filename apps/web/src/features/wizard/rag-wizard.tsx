import {
  AGENT_NAME_AND_TYPE_REQUIRED,
  DEFAULT_DISTANCE_METRIC,
  DEFAULT_VECTOR_DIMENSIONS,
  EMBEDDING_MODELS,
  isFileSourceType,
  LLM_FIELDS_REQUIRED,
  LOCAL_VECTOR_DB_FIELDS_REQUIRED,
  PINECONE_FIELDS_REQUIRED,
  RAG_DB_FIELDS_REQUIRED,
  RAG_SOURCE_TYPES,
  RAG_WIZARD_STEPS,
  SOURCE_TYPE_LABELS,
  SYSTEM_PROMPT_REQUIRED,
  VECTOR_STORE_LABELS,
  VECTOR_STORES,
  type TDistanceMetric,
  type TEmbeddingModel,
  type TLlmProvider,
  type TRagSourceType,
  type TUiFramework,
  type TVectorStore,
} from '@agentloom/contracts';
import { Database, FileSpreadsheet, FileText, FileType } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Select, Spinner, TextField } from '../../components/ui';
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
import { ragCalls } from './wizard-api';
import { RAG_PROMPT_TEMPLATES } from './wizard-content';
import { StepActions, WizardLayout } from './wizard-layout';

/** SPEC §2: nine steps, the eight that hold configuration and Build. */
export const RAG_STEP_LABELS = [...RAG_WIZARD_STEPS.map((step) => step.label), 'Build'] as const;

const SOURCE_ICONS: Record<TRagSourceType, typeof FileText> = {
  pdf: FileText,
  csv: FileSpreadsheet,
  excel: FileSpreadsheet,
  text_file: FileType,
  postgres: Database,
  mysql: Database,
  sqlite: Database,
  mongo: Database,
};

const SOURCE_CHOICES: Choice<TRagSourceType>[] = RAG_SOURCE_TYPES.map((type) => {
  const Icon = SOURCE_ICONS[type];
  return {
    value: type,
    label: SOURCE_TYPE_LABELS[type],
    description: isFileSourceType(type) ? 'Upload a file' : 'Connect a database',
    icon: <Icon className="h-6 w-6" />,
  };
});

const VECTOR_STORE_CHOICES: Choice<TVectorStore>[] = VECTOR_STORES.map((store) => ({
  value: store,
  label: VECTOR_STORE_LABELS[store],
  description: store === 'pinecone' ? 'Managed cloud index' : 'Self-hosted server',
}));

/** Where each self-hosted store listens by default, offered as the URL placeholder. */
const LOCAL_STORE_URLS: Record<Exclude<TVectorStore, 'pinecone'>, string> = {
  chromadb: 'http://localhost:8000',
  qdrant: 'http://localhost:6333',
  milvus: 'http://localhost:19530',
};

const DISTANCE_OPTIONS: { value: TDistanceMetric; label: string }[] = [
  { value: 'cosine', label: 'Cosine' },
  { value: 'euclidean', label: 'Euclidean' },
  { value: 'dot', label: 'Dot Product' },
];

const embeddingLabel = (model: TEmbeddingModel) =>
  model === 'text-embedding-ada-002' ? `${model} (OpenAI)` : model;

/** The RAG wizard (SPEC §2, §4): every step saves to the gateway before it advances. */
export function RagWizard() {
  const navigate = useNavigate();
  const draft = useAgentDraft<TRagSourceType>('rag', RAG_STEP_LABELS.length);
  const { step, next, previous, build, busy, saveStep, sessionId, sourceType } = draft;
  const [embedding, setEmbedding] = useState<TEmbeddingModel | ''>('');
  const [savedEmbedding, setSavedEmbedding] = useState<TEmbeddingModel | ''>('');
  const [vectorDb, setVectorDb] = useState<TVectorStore | ''>('');
  const [pinecone, setPinecone] = useState({ apiKey: '', environment: '', indexName: '' });
  const [local, setLocal] = useState<{ url: string; dimensions: string; metric: TDistanceMetric }>({
    url: '',
    dimensions: '',
    metric: DEFAULT_DISTANCE_METRIC,
  });
  const [llm, setLlm] = useState<LlmValue>(EMPTY_LLM);
  const [prompt, setPrompt] = useState('');
  const [ui, setUi] = useState<TUiFramework | ''>('');

  async function connectDatabase() {
    const fields = draft.databaseFields();
    if (!fields) return invalid(RAG_DB_FIELDS_REQUIRED);
    const call = ragCalls.database(sessionId, {
      source_type: sourceType,
      uri: fields.uri,
      database: fields.database,
      collection_or_table: fields.table,
    });
    if (await saveStep(call, 'DB configuration failed.')) next();
  }

  async function chooseEmbedding(model: TEmbeddingModel | '') {
    if (!model) return;
    const before = embedding;
    setEmbedding(model);
    if (await saveStep(ragCalls.embedding(sessionId, model), 'Failed to set embedding model.')) {
      setSavedEmbedding(model);
      next();
    } else {
      setEmbedding(before);
    }
  }

  /** SPEC §4: the vector-store choice saves at once and stays on the step for its settings. */
  async function chooseVectorStore(store: TVectorStore) {
    if (await saveStep(ragCalls.vectorDb(sessionId, store), 'Failed to set vector DB.')) {
      setVectorDb(store);
    }
  }

  async function saveVectorSettings() {
    if (vectorDb === 'pinecone') {
      const fields = {
        api_key: pinecone.apiKey.trim(),
        environment: pinecone.environment.trim(),
        index_name: pinecone.indexName.trim(),
      };
      if (!fields.api_key || !fields.environment || !fields.index_name) {
        return invalid(PINECONE_FIELDS_REQUIRED);
      }
      if (await saveStep(ragCalls.pinecone(sessionId, fields), 'Failed to configure Pinecone.')) {
        next();
      }
      return;
    }
    const url = local.url.trim();
    if (!vectorDb || !url) return invalid(LOCAL_VECTOR_DB_FIELDS_REQUIRED);
    const call = ragCalls.localVectorDb(sessionId, {
      vector_db: vectorDb,
      url,
      dimensions: local.dimensions.trim() || String(DEFAULT_VECTOR_DIMENSIONS),
      distance_metric: local.metric,
    });
    if (await saveStep(call, 'Failed to configure local vector DB.')) next();
  }

  /** SPEC §4: the provider choice saves at once and stays on the step for key and model. */
  async function chooseProvider(provider: TLlmProvider | '') {
    if (!provider || provider === llm.provider) return;
    if (await saveStep(ragCalls.provider(sessionId, provider), 'Failed to set LLM provider.')) {
      // The gateway clears the key and model of the previous provider; so does the form.
      setLlm({ ...EMPTY_LLM, provider });
    }
  }

  async function connectLlm(key: Parameters<typeof ragCalls.credentials>[1] | null) {
    if (!llm.provider || !key || !llm.model) return invalid(LLM_FIELDS_REQUIRED);
    const call = ragCalls.credentials(sessionId, key, llm.model);
    if (await saveStep(call, 'Failed to submit LLM credentials.')) next();
  }

  async function savePrompt() {
    const text = prompt.trim();
    if (!text) return invalid(SYSTEM_PROMPT_REQUIRED);
    if (await saveStep(ragCalls.systemPrompt(sessionId, text), 'Failed to save system prompt.')) {
      next();
    }
  }

  async function chooseUi(choice: TUiFramework) {
    if (await saveStep(ragCalls.ui(sessionId, choice), 'Failed to save UI type')) {
      setUi(choice);
      next();
    }
  }

  async function startBuild() {
    try {
      await build.mutateAsync(sessionId);
      notify.success('RAG agent build started!');
      void navigate(`/build/rag/${sessionId}`);
    } catch (error) {
      notify.error(errorDetail(error) ?? 'Build failed. Please check configuration.');
    }
  }

  const source = sourceType ? SOURCE_TYPE_LABELS[sourceType] : '';
  const { sourceDetail } = draft;

  function renderStep() {
    switch (step) {
      case 1:
        return (
          <AgentNameStep
            name={draft.name}
            onNameChange={draft.setName}
            typeValue="rag"
            typeLabel="RAG Agent"
            busy={busy}
            onSubmit={() =>
              void draft.createAgent(AGENT_NAME_AND_TYPE_REQUIRED, (error) =>
                notify.error('Failed to create agent.', errorDetail(error)),
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
            onChoose={(type) =>
              void draft.chooseSource(
                type,
                ragCalls.source(sessionId, type),
                'Failed to set source type',
              )
            }
          />
        );
      case 3:
        return isFileSourceType(sourceType) ? (
          <FileUploadStep
            accept=".pdf,.csv,.txt,.xlsx"
            hint="Supports: PDF, CSV, TXT, Excel files"
            file={draft.file}
            onFile={draft.setFile}
            busy={busy}
            onSubmit={() => void draft.uploadFile(ragCalls.upload, 'File upload failed')}
          />
        ) : (
          <DatabaseStep
            labels={{
              uri: 'Connection URI',
              database: 'Database Name',
              table: 'Table / Collection',
            }}
            uriPlaceholder={URI_PLACEHOLDERS[sourceType] ?? ''}
            value={draft.db}
            onChange={draft.setDb}
            busy={busy}
            onSubmit={() => void connectDatabase()}
          />
        );
      case 4:
        return (
          <div className="space-y-4">
            <Select
              label="Embedding Model"
              placeholder="Select an embedding model"
              value={embedding}
              disabled={busy}
              options={EMBEDDING_MODELS.map((model) => ({
                value: model,
                label: embeddingLabel(model),
              }))}
              onChange={(event) => void chooseEmbedding(event.target.value as TEmbeddingModel)}
              hint="Turns your documents into vectors for semantic search. Choosing a model saves it and moves to the next step."
            />
            {busy ? (
              <p
                role="status"
                className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300"
              >
                <Spinner size="sm" label={null} />
                Setting up embedding model...
              </p>
            ) : (
              savedEmbedding &&
              savedEmbedding === embedding && (
                // Back on a step already saved: keep the choice and move on.
                <StepActions>
                  <Button size="lg" onClick={next}>
                    Continue
                  </Button>
                </StepActions>
              )
            )}
          </div>
        );
      case 5:
        return (
          <div className="space-y-6">
            <ChoiceCards
              label="Vector store"
              choices={VECTOR_STORE_CHOICES}
              selected={vectorDb}
              busy={busy}
              onChoose={(store) => void chooseVectorStore(store)}
            />
            {vectorDb === 'pinecone' && (
              <StepForm onSubmit={() => void saveVectorSettings()}>
                <TextField
                  type="password"
                  label="API Key"
                  value={pinecone.apiKey}
                  onChange={(event) => setPinecone({ ...pinecone, apiKey: event.target.value })}
                  autoComplete="off"
                  required
                />
                <div className="grid gap-5 sm:grid-cols-2">
                  <TextField
                    label="Environment"
                    placeholder="us-west1-gcp"
                    value={pinecone.environment}
                    onChange={(event) =>
                      setPinecone({ ...pinecone, environment: event.target.value })
                    }
                    required
                  />
                  <TextField
                    label="Index Name"
                    value={pinecone.indexName}
                    onChange={(event) =>
                      setPinecone({ ...pinecone, indexName: event.target.value })
                    }
                    required
                  />
                </div>
                <SubmitButton busy={busy} label="Save & Continue" busyLabel="Saving…" />
              </StepForm>
            )}
            {vectorDb && vectorDb !== 'pinecone' && (
              <StepForm onSubmit={() => void saveVectorSettings()}>
                <TextField
                  type="url"
                  label="Database URL"
                  placeholder={LOCAL_STORE_URLS[vectorDb]}
                  value={local.url}
                  onChange={(event) => setLocal({ ...local, url: event.target.value })}
                  required
                />
                <div className="grid gap-5 sm:grid-cols-2">
                  <TextField
                    type="number"
                    label="Vector Dimensions"
                    placeholder={String(DEFAULT_VECTOR_DIMENSIONS)}
                    min={1}
                    value={local.dimensions}
                    onChange={(event) => setLocal({ ...local, dimensions: event.target.value })}
                  />
                  <Select
                    label="Distance Metric"
                    value={local.metric}
                    options={DISTANCE_OPTIONS}
                    onChange={(event) =>
                      setLocal({ ...local, metric: event.target.value as TDistanceMetric })
                    }
                  />
                </div>
                <SubmitButton busy={busy} label="Save & Continue" busyLabel="Saving…" />
              </StepForm>
            )}
          </div>
        );
      case 6:
        return (
          <LlmStep
            value={llm}
            onChange={setLlm}
            onProviderChange={(provider) => void chooseProvider(provider)}
            busy={busy}
            onSubmit={(key) => void connectLlm(key)}
          />
        );
      case 7:
        return (
          <SystemPromptStep
            templates={RAG_PROMPT_TEMPLATES}
            prompt={prompt}
            onChange={setPrompt}
            busy={busy}
            onSubmit={() => void savePrompt()}
          />
        );
      case 8:
        return (
          <UiTypeStep
            order={['gradio', 'streamlit']}
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
                label: 'Data Source',
                value: source && (sourceDetail ? `${source} · ${sourceDetail}` : source),
                fallback: 'Not selected',
              },
              {
                label: 'Embedding Model',
                value: embedding && embeddingLabel(embedding),
                fallback: 'Not selected',
              },
              {
                label: 'Vector Store',
                value: vectorDb && VECTOR_STORE_LABELS[vectorDb],
                fallback: 'Not selected',
              },
              ...llmAndUiRows(llm, ui),
            ]}
            label="Build & Deploy RAG Agent"
            busy={busy}
            onSubmit={() => void startBuild()}
          />
        );
    }
  }

  return (
    <WizardLayout
      title="Build a RAG Agent"
      description="A chatbot that answers from your documents or database, step by step."
      labels={RAG_STEP_LABELS}
      step={step}
      busy={busy}
      onPrevious={previous}
    >
      {renderStep()}
    </WizardLayout>
  );
}

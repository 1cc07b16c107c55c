import {
  COMPOSE_VECTOR_STORE_URLS,
  DEFAULT_DISTANCE_METRIC,
  DEFAULT_VECTOR_DIMENSIONS,
  EMBEDDING_DIMENSIONS,
  VECTOR_STORE_CATALOG,
  VECTOR_STORE_LABELS,
  VECTOR_STORES,
  ZLocalVectorDbRequest,
  ZPineconeCredentialsRequest,
  type TDistanceMetric,
  type TRagConfigView,
  type TVectorStore,
} from '@agentloom/contracts';
import { useState } from 'react';
import { Select, TextField } from '../../../components/ui';
import { ChoiceCards, type Choice } from '../choice-cards';
import { StepForm, SubmitButton } from '../step-form';
import { ragCalls } from '../wizard-api';
import { checked, type WizardStepProps } from '../wizard-step';

/**
 * What an owner who has never heard of a vector store needs to choose one: a line each. Qdrant is
 * recommended because it needs nothing set up: the downloaded project keeps its vectors in a
 * folder without any server (its README says how), or runs Qdrant beside the agent in Docker.
 */
export const RECOMMENDED_VECTOR_STORE: TVectorStore = 'qdrant';

const CHOICES: Choice<TVectorStore>[] = VECTOR_STORES.map((store) => ({
  value: store,
  label: VECTOR_STORE_LABELS[store],
  description: VECTOR_STORE_CATALOG[store].description,
}));

const DISTANCE_OPTIONS: { value: TDistanceMetric; label: string }[] = [
  { value: 'cosine', label: 'Cosine' },
  { value: 'euclidean', label: 'Euclidean' },
  { value: 'dot', label: 'Dot Product' },
];

type StoredStore = NonNullable<TRagConfigView['vector_store']>;

/** Pinecone's form: its state, and a save that keeps the key on record when nothing changed. */
function usePineconeSettings(
  { sessionId, save, advance }: WizardStepProps,
  stored: StoredStore | null,
  done: boolean | undefined,
) {
  const [pinecone, setPinecone] = useState({
    apiKey: '',
    environment: stored?.environment ?? '',
    indexName: stored?.index_name ?? '',
  });

  async function savePinecone() {
    const fields = {
      api_key: pinecone.apiKey.trim(),
      environment: pinecone.environment.trim(),
      index_name: pinecone.indexName.trim(),
    };
    // The key on record (masked, never shown) is kept when nothing else changed.
    const unchanged =
      fields.environment === stored?.environment && fields.index_name === stored.index_name;
    if (!fields.api_key && stored?.api_key && unchanged && done) return advance();
    if (!checked(ZPineconeCredentialsRequest, { session_id: sessionId, ...fields })) return;
    if (await save(ragCalls.pinecone(sessionId, fields), 'Failed to configure Pinecone.')) {
      advance();
    }
  }

  return { pinecone, setPinecone, savePinecone };
}

/** A self-hosted store's form: address, vector size (the embedding model's) and metric. */
function useLocalSettings(
  { sessionId, pipeline, save, advance }: WizardStepProps,
  stored: StoredStore | null,
  vectorDb: TVectorStore,
) {
  const embedding = (pipeline?.config as TRagConfigView | undefined)?.embedding_model ?? null;
  // The embedding model decides the vectors' size; the form shows it rather than asking.
  const modelDimensions = embedding ? EMBEDDING_DIMENSIONS[embedding] : undefined;
  const [local, setLocal] = useState({
    /** null: the default address, until the person types their own. */
    url: stored?.url ?? (null as string | null),
    dimensions: String(modelDimensions ?? stored?.dimensions ?? ''),
    metric: stored?.distance_metric ?? DEFAULT_DISTANCE_METRIC,
  });
  // The address the generated project's own docker-compose gives the store: nothing to look up.
  const localUrl =
    local.url ?? (vectorDb !== 'pinecone' ? COMPOSE_VECTOR_STORE_URLS[vectorDb] : '');

  async function saveLocal() {
    const fields = {
      vector_db: vectorDb,
      url: localUrl.trim(),
      dimensions: local.dimensions.trim() || String(modelDimensions ?? DEFAULT_VECTOR_DIMENSIONS),
      distance_metric: local.metric,
    };
    if (!checked(ZLocalVectorDbRequest, { session_id: sessionId, ...fields })) return;
    const call = ragCalls.localVectorDb(sessionId, fields);
    if (await save(call, 'Failed to configure local vector DB.')) advance();
  }

  const dimensionsHint =
    embedding && modelDimensions
      ? `${embedding} makes vectors of ${modelDimensions} dimensions.`
      : undefined;
  return { local, setLocal, localUrl, dimensionsHint, saveLocal };
}

/**
 * RAG step 5 (docs/product.md#the-wizard-vector-store): the store choice saves at once and stays on
 * the step for its settings; the settings save and advance.
 */
export function VectorStoreStep(props: WizardStepProps) {
  const { sessionId, pipeline, busy, save } = props;
  const stored = (pipeline?.config as TRagConfigView | undefined)?.vector_store ?? null;
  const done = pipeline?.steps.some((step) => step.key === 'vector_store' && step.complete);
  // Nothing chosen yet: the recommended store is, and its settings' one press saves both.
  const vectorDb = stored?.vector_db ?? RECOMMENDED_VECTOR_STORE;
  // Both forms' state lives here: what was typed survives choosing the other store and back.
  const pinecone = usePineconeSettings(props, stored, done);
  const local = useLocalSettings(props, stored, vectorDb);

  function choose(store: TVectorStore) {
    void save(ragCalls.vectorDb(sessionId, store), 'Failed to set vector DB.');
  }

  return (
    <div className="space-y-6">
      <ChoiceCards
        label="Vector store"
        choices={CHOICES}
        selected={vectorDb}
        busy={busy}
        onChoose={choose}
      />
      {vectorDb === 'pinecone' && (
        <PineconeForm settings={pinecone} savedKey={stored?.api_key} busy={busy} />
      )}
      {vectorDb !== 'pinecone' && (
        <LocalStoreForm settings={local} vectorDb={vectorDb} storedUrl={stored?.url} busy={busy} />
      )}
    </div>
  );
}

function PineconeForm({
  settings: { pinecone, setPinecone, savePinecone },
  savedKey,
  busy,
}: {
  settings: ReturnType<typeof usePineconeSettings>;
  savedKey: string | null | undefined;
  busy: boolean;
}) {
  return (
    <StepForm onSubmit={() => void savePinecone()}>
      <TextField
        type="password"
        label="API Key"
        value={pinecone.apiKey}
        onChange={(event) => setPinecone({ ...pinecone, apiKey: event.target.value })}
        hint={savedKey ? `Saved key ${savedKey}. Leave empty to keep it.` : undefined}
        autoComplete="off"
        required
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Environment"
          placeholder="us-west1-gcp"
          hint="Your Pinecone project's region, shown beside the index in Pinecone's console."
          value={pinecone.environment}
          onChange={(event) => setPinecone({ ...pinecone, environment: event.target.value })}
          required
        />
        <TextField
          label="Index Name"
          hint="The index you made in Pinecone. Its dimensions must match the embedding model's."
          value={pinecone.indexName}
          onChange={(event) => setPinecone({ ...pinecone, indexName: event.target.value })}
          required
        />
      </div>
      <SubmitButton busy={busy} label="Save & Continue" busyLabel="Saving…" />
    </StepForm>
  );
}

function LocalStoreForm({
  settings: { local, setLocal, localUrl, dimensionsHint, saveLocal },
  vectorDb,
  storedUrl,
  busy,
}: {
  settings: ReturnType<typeof useLocalSettings>;
  vectorDb: Exclude<TVectorStore, 'pinecone'>;
  storedUrl: string | null | undefined;
  busy: boolean;
}) {
  return (
    <StepForm onSubmit={() => void saveLocal()}>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Your agent&apos;s project runs {VECTOR_STORE_LABELS[vectorDb]} next to it; the defaults
        below connect the two. Most people keep them.
      </p>
      {/* Open where the agent already has its own settings, so they are seen. */}
      <details
        open={Boolean(storedUrl) && storedUrl !== COMPOSE_VECTOR_STORE_URLS[vectorDb]}
        className="rounded-lg border border-slate-200 p-4 dark:border-slate-700"
      >
        <summary className="cursor-pointer text-sm font-medium text-slate-800 dark:text-slate-200">
          Advanced
        </summary>
        <div className="mt-4 space-y-5">
          <TextField
            type="url"
            label="Database URL"
            placeholder={COMPOSE_VECTOR_STORE_URLS[vectorDb]}
            value={localUrl}
            onChange={(event) => setLocal({ ...local, url: event.target.value })}
            hint="The store's address inside the generated project (its docker-compose service)."
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
              hint={dimensionsHint}
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
        </div>
      </details>
      <SubmitButton busy={busy} label="Save & Continue" busyLabel="Saving…" />
    </StepForm>
  );
}

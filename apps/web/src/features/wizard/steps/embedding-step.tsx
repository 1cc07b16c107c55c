import {
  DEFAULT_EMBEDDING_MODEL,
  EMBEDDING_MODELS,
  embeddingSpec,
  ZEmbeddingModelRequest,
  type TEmbeddingModel,
  type TRagConfigView,
} from '@agentloom/contracts';
import { useState } from 'react';
import { Button, Select, Spinner } from '../../../components/ui';
import { ragCalls } from '../wizard-api';
import { StepActions } from '../wizard-layout';
import { checked, type WizardStepProps } from '../wizard-step';

/** The catalogue's label: OpenAI's models say so in brackets, the local ones are their name. */
export const embeddingLabel = (model: TEmbeddingModel) => embeddingSpec(model).label;

/**
 * The model chosen for people who do not know what an embedding is: free, run by Agentloom and by
 * the downloaded agent without any key, good for English text.
 */
export const RECOMMENDED_EMBEDDING: TEmbeddingModel = DEFAULT_EMBEDDING_MODEL;

/**
 * RAG step 4 (docs/product.md#the-wizard-embedding-model): picking a model from the list only
 * chooses it, and "Use this model" saves it and moves on. Picking used to save and jump to the
 * next step, before the person had read what they picked (issue 43, item 8).
 */
export function EmbeddingStep({ sessionId, pipeline, busy, save, advance }: WizardStepProps) {
  const saved = (pipeline?.config as TRagConfigView | undefined)?.embedding_model ?? '';
  // Nothing chosen yet: the recommended model is, and one press of "Use this model" saves it.
  const [model, setModel] = useState<string>(saved || RECOMMENDED_EMBEDDING);

  async function choose(chosen: string) {
    if (!chosen) return;
    if (!checked(ZEmbeddingModelRequest, { session_id: sessionId, model_name: chosen })) return;
    if (await save(ragCalls.embedding(sessionId, chosen), 'Failed to set embedding model.')) {
      advance();
    } else {
      setModel(saved);
    }
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        How your agent finds the passages that match a question. <strong>Recommended:</strong>{' '}
        {RECOMMENDED_EMBEDDING} — free, needs no API key, good for English text. OpenAI&apos;s
        models suit other languages and use your OpenAI key.
      </p>
      <Select
        label="Embedding Model"
        placeholder="Select an embedding model"
        value={model}
        disabled={busy}
        options={EMBEDDING_MODELS.map((id) => ({ value: id, label: embeddingLabel(id) }))}
        onChange={(event) => setModel(event.target.value)}
        hint="Pick a model, then choose “Use this model”."
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
        model && (
          // Saving is explicit: the saved model only moves on, another one is saved first.
          <StepActions>
            <Button size="lg" onClick={() => (model === saved ? advance() : void choose(model))}>
              {model === saved ? 'Continue' : 'Use this model'}
            </Button>
          </StepActions>
        )
      )}
    </div>
  );
}

import {
  DEFAULT_EMBEDDING_MODEL,
  EMBEDDING_MODELS,
  embeddingSpec,
  ZEmbeddingModelRequest,
  type TEmbeddingModel,
  type TRagConfigView,
} from '@agentloom/contracts';
import { useState } from 'react';
import { Button, Spinner } from '../../../components/ui';
import { ChoiceSelect } from '../step-form';
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
 * RAG step 4 (docs/product.md#the-wizard-embedding-model): choosing a model saves it and advances,
 * as the customer's specification requires (SPEC.md, RAG wizard step 4); arrowing through the list
 * with the keyboard only moves the choice, and Enter commits it.
 */
export function EmbeddingStep({ sessionId, pipeline, busy, save, advance }: WizardStepProps) {
  const saved = (pipeline?.config as TRagConfigView | undefined)?.embedding_model ?? '';
  // Nothing chosen yet: the recommended model is shown, and one press of Continue saves it (a
  // pointer cannot choose the option already shown: the list sends no change for it).
  const [model, setModel] = useState<string>(saved || RECOMMENDED_EMBEDDING);

  async function choose(chosen: string) {
    setModel(chosen);
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
      <ChoiceSelect
        label="Embedding Model"
        placeholder="Select an embedding model"
        value={model}
        disabled={busy}
        options={EMBEDDING_MODELS.map((id) => ({ value: id, label: embeddingLabel(id) }))}
        onPick={setModel}
        onCommit={(chosen) => void choose(chosen)}
        hint="Choosing a model from the list saves it and moves to the next step."
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
          // The model shown without being chosen (the recommended one, or one reached with the
          // arrow keys) is saved first; the saved one only moves on.
          <StepActions>
            <Button size="lg" onClick={() => (model === saved ? advance() : void choose(model))}>
              Continue
            </Button>
          </StepActions>
        )
      )}
    </div>
  );
}

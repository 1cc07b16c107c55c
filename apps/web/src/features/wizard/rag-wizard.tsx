import { RAG_WIZARD_STEPS } from '@agentloom/contracts';
import { COMMON_STEPS } from './steps/common-steps';
import { EmbeddingStep } from './steps/embedding-step';
import { VectorStoreStep } from './steps/vector-store-step';
import { stepTable, WizardShell } from './wizard-shell';

const RAG_STEPS = stepTable(RAG_WIZARD_STEPS, {
  ...COMMON_STEPS,
  embedding: EmbeddingStep,
  vector_store: VectorStoreStep,
});

/**
 * The RAG wizard (docs/product.md#the-wizards): every step saves to the gateway before it advances.
 */
export function RagWizard() {
  return (
    <WizardShell
      type="rag"
      title="Answer questions from documents"
      description="RAG Agent: a chatbot that finds the passages of your files or tables that match a question and answers from them, citing each one."
      steps={RAG_STEPS}
    />
  );
}

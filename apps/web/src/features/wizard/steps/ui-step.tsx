import { ZUiRequest, type TAgentType, type TUiFramework } from '@agentloom/contracts';
import { UiTypeCards } from '../ui-type-cards';
import { ragCalls, sqlCalls } from '../wizard-api';
import { checked, type WizardStepProps } from '../wizard-step';

/**
 * docs/product.md#the-wizard-user-interface: the RAG wizard offers Gradio first, the SQL wizard
 * Streamlit first.
 */
const KINDS = {
  rag: { order: ['gradio', 'streamlit'], call: ragCalls.ui },
  sql: { order: ['streamlit', 'gradio'], call: sqlCalls.ui },
} satisfies Record<TAgentType, { order: readonly TUiFramework[]; call: unknown }>;

/** The UI step of both wizards: choosing a framework saves it and advances. */
export function UiStep({ type, sessionId, pipeline, busy, save, advance }: WizardStepProps) {
  const kind = KINDS[type];

  async function choose(ui: TUiFramework) {
    if (!checked(ZUiRequest, { session_id: sessionId, ui })) return;
    if (await save(kind.call(sessionId, ui), 'Failed to save UI type')) advance();
  }

  return (
    <UiTypeCards
      order={kind.order}
      selected={pipeline?.config.ui ?? ''}
      busy={busy}
      onChoose={(ui) => void choose(ui)}
    />
  );
}

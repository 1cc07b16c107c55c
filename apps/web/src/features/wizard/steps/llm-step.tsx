import {
  LLM_FIELDS_REQUIRED,
  ZLlmCredentialsRequest,
  ZSqlLlmKeyRequest,
  type TAgentType,
  type TLlmProvider,
} from '@agentloom/contracts';
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { EMPTY_LLM, LlmFields, type LlmValue } from '../step-fields';
import { ragCalls, sqlCalls, type LlmKey } from '../wizard-api';
import { checked, type WizardStepProps } from '../wizard-step';

type Saver = (props: WizardStepProps, llm: LlmValue, key: LlmKey | null) => Promise<boolean>;

/** The RAG wizard saves the provider as it is chosen; Connect saves key and model together. */
const saveRag: Saver = async ({ sessionId, pipeline, save }, llm, key) => {
  if (llm.provider !== pipeline?.config.llm.provider && !(await chooseRag(sessionId, llm, save)))
    return false;
  const request = checked(ZLlmCredentialsRequest, {
    session_id: sessionId,
    ...key,
    model_name: llm.model,
  });
  if (!request || !key) return false;
  return save(ragCalls.credentials(sessionId, key, llm.model), 'Failed to submit LLM credentials.');
};

const chooseRag = (sessionId: string, llm: LlmValue, save: WizardStepProps['save']) =>
  save(ragCalls.provider(sessionId, llm.provider), 'Failed to set LLM provider.');

/**
 * SPEC §4: the SQL LLM step saves the provider, then the key, then the model, then advances. A
 * key left empty while the agent holds one for the same provider is kept (no key call).
 */
const saveSql: Saver = async ({ sessionId, pipeline, save }, llm, key) => {
  const keep = !key && hasKeyFor(pipeline, llm.provider);
  if (!keep && !checked(ZSqlLlmKeyRequest, { session_id: sessionId, ...key })) return false;
  const failure = 'Failed to submit LLM credentials.';
  return (
    (await save(sqlCalls.provider(sessionId, llm.provider), 'Failed to set LLM provider.')) &&
    (keep || (key !== null && (await save(sqlCalls.key(sessionId, key), failure)))) &&
    save(sqlCalls.model(sessionId, llm.model), failure)
  );
};

const SAVERS: Record<TAgentType, Saver> = { rag: saveRag, sql: saveSql };

function hasKeyFor(pipeline: WizardStepProps['pipeline'], provider: string): boolean {
  const llm = pipeline?.config.llm;
  return Boolean(llm && llm.provider === provider && (llm.api_key || llm.api_key_id));
}

/** The LLM step of both wizards: provider, key (typed or from the vault) and model. */
export function LlmStep(props: WizardStepProps) {
  const { type, sessionId, pipeline, busy, save, advance } = props;
  const stored = pipeline?.config.llm;
  const done = pipeline?.steps.some((step) => step.key === 'llm' && step.complete);
  const [llm, setLlm] = useState<LlmValue>(
    stored?.provider
      ? {
          provider: stored.provider,
          keySource: stored.api_key_id ? 'vault' : stored.api_key ? 'typed' : null,
          apiKey: '',
          apiKeyId: stored.api_key_id ?? '',
          model: stored.model ?? '',
        }
      : EMPTY_LLM,
  );

  async function chooseProvider(provider: TLlmProvider | '') {
    if (!provider || (provider === llm.provider && provider === stored?.provider)) return;
    // The gateway clears the key and model of the previous provider; so does the form.
    const fresh = { ...EMPTY_LLM, provider };
    if (type === 'sql' || (await chooseRag(sessionId, fresh, save))) setLlm(fresh);
  }

  async function connect(key: LlmKey | null) {
    if (!llm.provider || !llm.model) return notify.error(LLM_FIELDS_REQUIRED);
    // Nothing changed on a finished step: the key on record stays, nothing is sent again.
    const typedKeyKept = llm.keySource !== 'vault' && !key && hasKeyFor(pipeline, llm.provider);
    if (done && typedKeyKept && llm.model === stored?.model) return advance();
    if (!key && !typedKeyKept) return notify.error(LLM_FIELDS_REQUIRED);
    if (await SAVERS[type](props, llm, key)) advance();
  }

  return (
    <LlmFields
      value={llm}
      keptKey={stored?.provider === llm.provider ? (stored.api_key ?? null) : null}
      onChange={setLlm}
      onProviderChange={(provider) => void chooseProvider(provider)}
      busy={busy}
      onSubmit={(key) => void connect(key)}
    />
  );
}

import {
  LLM_FIELDS_REQUIRED,
  llmKeyShapeProblem,
  maskApiKey,
  ZLlmCredentialsRequest,
  ZSqlLlmKeyRequest,
  type TAgentType,
  type TApiKey,
  type TLlmProvider,
} from '@agentloom/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorDetail } from '../../../lib/api';
import { notify } from '../../../lib/notify';
import {
  EMPTY_LLM,
  freshLlm,
  LlmFields,
  verdictOf,
  type KeyVerdict,
  type LlmValue,
} from '../llm-fields';
import { checkLlmKey, ragCalls, sqlCalls, type LlmKey } from '../wizard-api';
import { checked, type WizardStepProps } from '../wizard-step';
import { dashboardKeys, useCreateApiKey } from '../../../pages/dashboard/dashboard-api';

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
 * docs/product.md#the-wizard-language-model: the SQL LLM step saves the provider, then the key,
 * then the model, then advances. A key left empty while the agent holds one for the same provider
 * is kept (no key call).
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

/** What is wrong with a typed key before asking anyone, in the words shown beside the field. */
function keyShapeProblem(key: LlmKey): string | null {
  return 'api_key' in key ? llmKeyShapeProblem(key.api_key) : null;
}

/**
 * The provider's verdict on a key, kept with the key it is about: editing the key clears it. A
 * key the provider refuses is never saved; an unreachable provider only warns (the key may be
 * fine, and the preview will tell).
 */
function useKeyCheck(provider: TLlmProvider | '') {
  const [state, setState] = useState<{ about: string; verdict: KeyVerdict } | null>(null);
  const [checking, setChecking] = useState(false);
  const about = (key: LlmKey) => `${provider}:${JSON.stringify(key)}`;

  async function check(key: LlmKey): Promise<KeyVerdict | null> {
    if (!provider) return null;
    const problem = keyShapeProblem(key);
    if (problem) {
      const verdict: KeyVerdict = { tone: 'error', text: problem };
      setState({ about: about(key), verdict });
      return verdict;
    }
    setChecking(true);
    try {
      const verdict = verdictOf(await checkLlmKey(provider, key));
      setState({ about: about(key), verdict });
      return verdict;
    } catch (error) {
      const text = errorDetail(error) ?? 'The key could not be checked. Try again in a moment.';
      const verdict: KeyVerdict = { tone: 'warning', text };
      setState({ about: about(key), verdict });
      return verdict;
    } finally {
      setChecking(false);
    }
  }

  /** The verdict on this key, if it was checked; otherwise none. */
  const verdictFor = (key: LlmKey | null) =>
    key && state?.about === about(key) ? state.verdict : null;
  // The models the provider listed for the last key checked with it (none if it refused).
  const models = state?.about.startsWith(`${provider}:`) ? state.verdict.models : undefined;
  return { check, checking, verdictFor, models };
}

/**
 * The typed key, into the vault for the next agent — unless the vault holds it already. The
 * agent is saved either way; a vault that refuses only says so.
 */
function useRememberKey() {
  const client = useQueryClient();
  const createKey = useCreateApiKey();
  return async (provider: TLlmProvider, apiKey: string) => {
    const vault = await client.fetchQuery({
      queryKey: dashboardKeys.apiKeys,
      queryFn: () => api<TApiKey[]>('/apikeys'),
    });
    const masked = maskApiKey(apiKey);
    if (vault.some((saved) => saved.provider === provider && saved.key === masked)) return;
    try {
      await createKey.mutateAsync({ provider, key: apiKey, name: null });
      notify.success('Key saved for your other agents', 'It is in Dashboard → API Keys.');
    } catch (error) {
      notify.info('The agent is saved; the key was not added to your vault', errorDetail(error));
    }
  };
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
          remember: true,
        }
      : EMPTY_LLM,
  );
  const keys = useKeyCheck(llm.provider);
  const rememberKey = useRememberKey();
  const [shownKey, setShownKey] = useState<LlmKey | null>(null);
  /** "Check key" was pressed with no key in the field. */
  const [noKey, setNoKey] = useState(false);

  async function chooseProvider(provider: TLlmProvider | '') {
    if (!provider || (provider === llm.provider && provider === stored?.provider)) return;
    // The gateway clears the key and model of the previous provider; so does the form.
    const fresh = freshLlm(provider);
    // The form follows at once, so a key typed while the choice saves is kept; a choice the
    // gateway refused puts the form back.
    const previous = llm;
    setLlm(fresh);
    if (type === 'rag' && !(await chooseRag(sessionId, fresh, save))) setLlm(previous);
  }

  async function check(key: LlmKey | null) {
    setShownKey(key);
    setNoKey(!key);
    return key ? keys.check(key) : null;
  }

  async function connect(key: LlmKey | null) {
    if (!llm.provider || !llm.model) return notify.error(LLM_FIELDS_REQUIRED);
    // Nothing changed on a finished step: the key on record stays, nothing is sent again.
    const typedKeyKept = llm.keySource !== 'vault' && !key && hasKeyFor(pipeline, llm.provider);
    if (done && typedKeyKept && llm.model === stored?.model) return advance();
    if (!key && !typedKeyKept) return notify.error(LLM_FIELDS_REQUIRED);
    // A new key is checked with the provider first; one it refuses stays here, with its verdict.
    const verdict = key ? (keys.verdictFor(key) ?? (await check(key))) : null;
    if (verdict?.tone === 'error') return;
    if (!(await SAVERS[type](props, llm, key))) return;
    if (key && 'api_key' in key && llm.remember && llm.provider) {
      await rememberKey(llm.provider, key.api_key);
    }
    advance();
  }

  function change(next: LlmValue) {
    setLlm(next);
    if (next.apiKey !== llm.apiKey || next.apiKeyId !== llm.apiKeyId) {
      setShownKey(null);
      setNoKey(false);
    }
  }

  // The verdict shows while the key it is about is in the form; the models it brought stay.
  const verdict: KeyVerdict | null = noKey
    ? { tone: 'error', text: 'Enter an API key first.' }
    : shownKey
      ? keys.verdictFor(shownKey)
      : null;

  return (
    <LlmFields
      value={llm}
      keptKey={stored?.provider === llm.provider ? (stored.api_key ?? null) : null}
      verdict={verdict}
      liveModels={keys.models}
      checking={keys.checking}
      currentModel={stored?.provider === llm.provider ? (stored.model ?? '') : ''}
      onChange={change}
      onProviderChange={(provider) => void chooseProvider(provider)}
      onCheck={(key) => void check(key)}
      busy={busy}
      onSubmit={(key) => void connect(key)}
    />
  );
}

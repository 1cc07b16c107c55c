import { LLM_KEY_SHAPE_PROBLEM, type TApiKey } from '@agentloom/contracts';
import type { Pipeline, Prisma } from '@agentloom/db';
import type { ApiKeysService } from '../api-keys/api-keys.service';
import {
  COMPLETE_RAG_ANSWERS,
  completePipeline,
  fakeOf,
  OWNER,
  PipelineRows,
  pipelineRow,
  refusal,
  STRANGER,
  unitSecrets,
  wizardOver,
} from '../testing/unit-rows';
import { LlmStepService } from './llm-step.service';

const TYPED_KEY = 'sk-test-0123456789abcdefghij';
const VAULT_KEY_ID = '88888888-8888-4888-8888-888888888888';

function setUp(agent: Pipeline) {
  const rows = new PipelineRows(agent);
  const secrets = unitSecrets();
  const vaultKey = (provider: TApiKey['provider']) =>
    ({ id: VAULT_KEY_ID, provider, key: 'sk-vault...wxyz' }) as TApiKey;
  const apiKeys = {
    findOwnedKey: jest.fn((_user: string, _id: string) => Promise.resolve(vaultKey('openai'))),
  };
  const service = new LlmStepService(wizardOver(rows), secrets, fakeOf<ApiKeysService>(apiKeys));
  return { service, rows, secrets, apiKeys, vaultKey };
}

const rag = (userId = OWNER) => ({ userId, agentType: 'rag' as const });

describe('WizardSessions.open (every step starts here)', () => {
  it("another user's agent and an agent of the other wizard are a 404", async () => {
    const agent = completePipeline('rag');
    const { service } = setUp(agent);
    const call = { ...rag(STRANGER), sessionId: agent.id };
    expect((await refusal(service.setProvider(call, 'openai'))).status).toBe(404);
    const sqlCall = { userId: OWNER, sessionId: agent.id, agentType: 'sql' as const };
    expect((await refusal(service.setProvider(sqlCall, 'openai'))).status).toBe(404);
  });

  it('no step changes an agent while it is being built (409), and nothing is written', async () => {
    const agent = completePipeline('rag', { status: 'Building' });
    const { service, rows } = setUp(agent);
    expect(await refusal(service.setProvider({ ...rag(), sessionId: agent.id }, 'groq'))).toEqual({
      status: 409,
      detail:
        'This agent is being built. Wait for the build to finish before changing its configuration.',
    });
    expect(rows.writes).toEqual([]);
  });
});

describe('LlmStepService', () => {
  it('a new provider clears the model and both kinds of key; the same one keeps them', async () => {
    const agent = completePipeline('rag', { llmApiKeyId: VAULT_KEY_ID });
    const { service, rows } = setUp(agent);
    const call = { ...rag(), sessionId: agent.id };
    await service.setProvider(call, 'openai');
    expect(rows.get(agent.id)).toMatchObject({
      llmApiKeyEncrypted: agent.llmApiKeyEncrypted,
      config: { llm: { provider: 'openai', model: 'gpt-4o-mini' } },
    });
    const answer = await service.setProvider(call, 'groq');
    expect(answer.message).toBe('Groq selected.');
    const now = rows.get(agent.id);
    expect(now).toMatchObject({ llmApiKeyEncrypted: null, llmApiKeyId: null });
    expect((now.config as { llm: unknown }).llm).toEqual({ provider: 'groq' });
  });

  it('asks for a provider before a model (422)', async () => {
    const agent = pipelineRow();
    const { service } = setUp(agent);
    expect(await refusal(service.setModel({ ...rag(), sessionId: agent.id }, 'gpt-4o'))).toEqual({
      status: 422,
      detail: 'Choose an LLM provider first.',
    });
  });

  it("refuses another provider's model, listing the ones to choose from", async () => {
    const agent = completePipeline('rag');
    const { service } = setUp(agent);
    const refused = await refusal(
      service.setModel({ ...rag(), sessionId: agent.id }, 'claude-4-opus-20250522'),
    );
    expect(refused).toEqual({
      status: 422,
      detail:
        'claude-4-opus-20250522 is not a OpenAI model. Choose one of: gpt-4o, gpt-4o-mini, gpt-4.1, gpt-4.1-mini.',
    });
  });

  it('a retired model is refused as a new choice but kept where the agent already uses it', async () => {
    const answers = {
      ...COMPLETE_RAG_ANSWERS,
      llm: { provider: 'claude', model: 'claude-4-opus-20250522' },
    };
    const agent = completePipeline('rag', { config: answers as Prisma.JsonObject });
    const { service, rows } = setUp(agent);
    const call = { ...rag(), sessionId: agent.id };
    expect((await refusal(service.setModel(call, 'claude-3.5-haiku-20241022'))).detail).toMatch(
      /^Claude no longer offers claude-3\.5-haiku-20241022\. Choose one of: claude-4-opus-20250522\.$/,
    );
    const onRecord = {
      ...answers,
      llm: { provider: 'claude', model: 'claude-3.5-haiku-20241022' },
    };
    rows.rows.set(agent.id, { ...agent, config: onRecord });
    await expect(service.setModel(call, 'claude-3.5-haiku-20241022')).resolves.toMatchObject({
      saved: { model: 'claude-3.5-haiku-20241022' },
    });
  });

  it('a typed key: refused when it cannot be a key (400), else stored encrypted and shown masked', async () => {
    const agent = completePipeline('rag', { llmApiKeyEncrypted: null, llmApiKeyId: VAULT_KEY_ID });
    const { service, rows, secrets } = setUp(agent);
    const call = { ...rag(), sessionId: agent.id };
    for (const bad of ['short', 'sk-has a space-0123456789']) {
      expect(await refusal(service.setLlmCredentials(call, { api_key: bad }, 'gpt-4o'))).toEqual({
        status: 400,
        detail: LLM_KEY_SHAPE_PROBLEM,
      });
    }
    expect(rows.writes).toEqual([]);
    const answer = await service.setLlmCredentials(call, { api_key: TYPED_KEY }, 'gpt-4o');
    expect(answer.saved).toEqual({
      provider: 'openai',
      model_name: 'gpt-4o',
      api_key: 'sk-test-...ghij',
    });
    const now = rows.get(agent.id);
    expect(now.llmApiKeyId).toBeNull();
    expect(now.llmApiKeyEncrypted).not.toContain(TYPED_KEY);
    expect(secrets.decrypt(now, 'llm_api_key', now.llmApiKeyEncrypted!)).toBe(TYPED_KEY);
  });

  it("a vault key must be the provider's: another provider's is refused, the right one is linked", async () => {
    const agent = completePipeline('rag');
    const { service, rows, apiKeys, vaultKey } = setUp(agent);
    const call = { ...rag(), sessionId: agent.id };
    apiKeys.findOwnedKey.mockResolvedValueOnce(vaultKey('claude'));
    expect(await refusal(service.setLlmKey(call, { api_key_id: VAULT_KEY_ID }))).toEqual({
      status: 422,
      detail: 'That saved key is for Claude, not OpenAI.',
    });
    const answer = await service.setLlmKey(call, { api_key_id: VAULT_KEY_ID });
    expect(apiKeys.findOwnedKey).toHaveBeenLastCalledWith(OWNER, VAULT_KEY_ID);
    expect(answer.saved).toEqual({
      provider: 'openai',
      api_key: 'sk-vault...wxyz',
      api_key_id: VAULT_KEY_ID,
    });
    expect(rows.get(agent.id)).toMatchObject({
      llmApiKeyId: VAULT_KEY_ID,
      llmApiKeyEncrypted: null,
    });
  });
});

import type { TBuildInputs } from '@agentloom/contracts';
import { changesBetween } from './build-changes';

const first: TBuildInputs = {
  config: {
    agent_type: 'rag',
    source_type: 'csv',
    embedding_model: 'all-MiniLM-L6-v2',
    llm: { provider: 'openai', model: 'gpt-4o-mini' },
    system_prompt: 'Answer from the sales table.',
    ui: 'gradio',
  },
  llm_key: 'fp-1',
  vector_db_key: null,
  source_uri: null,
  source_file: 'a.csv',
};

describe('changesBetween', () => {
  it('calls the first build the first build', () => {
    expect(changesBetween(null, first)).toEqual(['First build']);
  });

  it('names each part that differs, in the wizard’s order', () => {
    const next: TBuildInputs = {
      ...first,
      config: { ...first.config, system_prompt: 'Be brief.', ui: 'streamlit' },
      llm_key: 'fp-2',
    };
    expect(changesBetween(first, next)).toEqual(['API key', 'System prompt', 'UI framework']);
  });

  it('says nothing changed when the agent was rebuilt as it was', () => {
    expect(changesBetween(first, structuredClone(first))).toEqual([]);
  });
});

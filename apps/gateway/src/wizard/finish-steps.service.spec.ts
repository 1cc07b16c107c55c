import type { Pipeline, Prisma } from '@agentloom/db';
import {
  COMPLETE_RAG_ANSWERS,
  completePipeline,
  OWNER,
  PipelineRows,
  refusal,
  wizardOver,
} from '../testing/unit-rows';
import { FinishStepsService } from './finish-steps.service';

function setUp(agent: Pipeline) {
  const rows = new PipelineRows(agent);
  return { rows, finish: new FinishStepsService(wizardOver(rows)) };
}

const rag = (agent: Pipeline) => ({
  userId: OWNER,
  sessionId: agent.id,
  agentType: 'rag' as const,
});
const configOf = (rows: PipelineRows, id: string) => rows.get(id).config as Prisma.JsonObject;

describe('FinishStepsService', () => {
  it('refuses a framework that cannot read the source on record (422)', async () => {
    const agent = completePipeline('sql');
    const { finish, rows } = setUp(agent);
    const call = { userId: OWNER, sessionId: agent.id, agentType: 'sql' as const };
    expect(await refusal(finish.setFramework(call, 'vannaai_db'))).toEqual({
      status: 422,
      detail:
        'The vannaai_db framework cannot serve a CSV source; it needs a MySQL, Postgres or SQLite database.',
    });
    expect(rows.writes).toEqual([]);
    await finish.setFramework(call, 'pandasai');
    expect(configOf(rows, agent.id).framework).toBe('pandasai');
  });

  it('saves the prompt and the UI, answering what was saved', async () => {
    const agent = completePipeline('rag');
    const { finish, rows } = setUp(agent);
    const answer = await finish.setSystemPrompt(rag(agent), 'Be brief.');
    expect(answer).toEqual({
      session_id: agent.id,
      message: 'System prompt saved.',
      saved: { prompt: 'Be brief.', characters: 9 },
    });
    await finish.setUi(rag(agent), 'streamlit');
    expect(configOf(rows, agent.id)).toMatchObject({
      system_prompt: 'Be brief.',
      ui: 'streamlit',
      llm: COMPLETE_RAG_ANSWERS.llm,
    });
  });
});

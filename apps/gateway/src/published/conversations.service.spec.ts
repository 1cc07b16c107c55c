import type { ConversationMessage } from '@agentloom/db';
import {
  completePipeline,
  fakeOf,
  OWNER,
  PipelineRows,
  pipelinesOver,
  refusal,
  STRANGER,
} from '../testing/unit-rows';
import type { ConversationsRepository, ConversationWithMessages } from './conversations.repository';
import { CONVERSATION_MISSING, ConversationsService } from './conversations.service';

const CONVERSATION = '99999999-9999-4999-8999-999999999999';
const at = new Date('2026-01-04T10:00:00Z');

function message(overrides: Partial<ConversationMessage>): ConversationMessage {
  return {
    id: 'm',
    conversationId: CONVERSATION,
    role: 'user',
    content: '',
    sources: [],
    feedback: null,
    unanswered: false,
    createdAt: at,
    ...overrides,
  };
}

function setUp() {
  const agent = completePipeline('rag');
  const conversation: ConversationWithMessages = {
    id: CONVERSATION,
    pipelineId: agent.id,
    userId: OWNER,
    channel: 'widget',
    accessKeyId: null,
    visitorHash: 'v',
    createdAt: at,
    updatedAt: at,
    messages: [
      message({ id: 'm1', content: '=HYPERLINK("http://x","click")' }),
      message({
        id: 'm2',
        role: 'assistant',
        content: 'North sold 12, "mostly" pens',
        sources: [{ citation: 'sales.csv, row 3', snippet: 'North', score: 0.9 }],
        feedback: -1,
      }),
    ],
  };
  const conversations = {
    listOwned: jest.fn().mockResolvedValue([conversation]),
    findOwned: jest.fn().mockResolvedValue(null),
    removeOwned: jest.fn().mockResolvedValue(false),
  };
  const service = new ConversationsService(
    pipelinesOver(new PipelineRows(agent)),
    fakeOf<ConversationsRepository>(conversations),
  );
  return { service, agent, conversation, conversations };
}

describe("ConversationsService (the owner's view of visitors' conversations)", () => {
  it("another user's agent is a 404 before any conversation is read", async () => {
    const { service, agent, conversations } = setUp();
    expect((await refusal(service.list(STRANGER, agent.id))).status).toBe(404);
    expect(conversations.listOwned).not.toHaveBeenCalled();
  });

  it('a malformed, unknown or already deleted conversation is the same 404', async () => {
    const { service, agent, conversations } = setUp();
    const notFound = { status: 404, detail: CONVERSATION_MISSING };
    expect(await refusal(service.get(OWNER, agent.id, 'nope'))).toEqual(notFound);
    expect(conversations.findOwned).not.toHaveBeenCalled();
    expect(await refusal(service.get(OWNER, agent.id, CONVERSATION))).toEqual(notFound);
    expect(await refusal(service.remove(OWNER, agent.id, CONVERSATION))).toEqual(notFound);
    expect(conversations.removeOwned).toHaveBeenCalledWith(CONVERSATION, agent.id, OWNER);
  });

  it('a summary: its first question as the title, its thumbs counted', async () => {
    const { service, agent } = setUp();
    const [summary] = await service.list(OWNER, agent.id);
    expect(summary).toMatchObject({
      messages: 2,
      thumbs_up: 0,
      thumbs_down: 1,
      title: '=HYPERLINK("http://x","click")',
    });
  });

  it('the CSV export quotes what needs quoting and defuses what a spreadsheet would run', async () => {
    const { service, agent } = setUp();
    const lines = (await service.export(OWNER, agent.id, 'csv')).split('\r\n');
    expect(lines[0]).toBe(
      'conversation_id,channel,message_id,role,content,sources,feedback,created_at',
    );
    // A visitor's formula is written as text (leading apostrophe), its quotes doubled.
    expect(lines[1]).toBe(
      `${CONVERSATION},widget,m1,user,"'=HYPERLINK(""http://x"",""click"")",,,2026-01-04T10:00:00.000Z`,
    );
    expect(lines[2]).toBe(
      `${CONVERSATION},widget,m2,assistant,"North sold 12, ""mostly"" pens","sales.csv, row 3",down,2026-01-04T10:00:00.000Z`,
    );
    expect(lines[3]).toBe('');
  });
});

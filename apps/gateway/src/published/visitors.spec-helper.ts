import { serverSentEvents } from '@agentloom/test-kit';
import type { TestApp } from '../testing/test-app';

/** A visitor of a share page or widget frame, driven as its page's script drives the gateway. */
export interface Visitor {
  session: string;
  /** POST /w/{id}/messages as the page sends it: JSON, its own Origin, its session. */
  send(message: string, conversationId?: string): Promise<{ status: number; text: string }>;
  rate(
    messageId: string,
    conversationId: string,
    rating: 'up' | 'down',
  ): Promise<{ status: number; body: { detail?: string } }>;
}

/** The session in a served page's agent-config, as published-chat.js reads it. */
export function pageSession(html: string): string {
  const json = /<script type="application\/json" id="agent-config">(.*?)<\/script>/s.exec(
    html,
  )?.[1];
  if (!json) throw new Error('The page has no agent-config.');
  return (JSON.parse(json) as { session: string }).session;
}

/** Opens the share page (no site) or the widget frame for `site`, and returns its visitor. */
export async function openVisitor(t: TestApp, id: string, site?: string): Promise<Visitor> {
  const path = site ? `/w/${id}/chat?site=${encodeURIComponent(site)}` : `/s/${id}/`;
  const page = await t.http.get(path).set('Sec-Fetch-Dest', site ? 'iframe' : 'document');
  if (page.status !== 200) throw new Error(`${path} answered ${page.status}`);
  return visitorWith(t, id, pageSession(page.text));
}

export function visitorWith(t: TestApp, id: string, session: string): Visitor {
  const post = (path: string, body: object) =>
    t.http
      .post(path)
      .set('Origin', t.url)
      .set('X-Visitor-Session', session)
      .send(body)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (part: string) => (text += part));
        res.on('end', () => done(null, text));
      });
  return {
    session,
    async send(message, conversationId) {
      const res = await post(`/w/${id}/messages`, { message, conversation_id: conversationId });
      return { status: res.status, text: res.body as string };
    },
    async rate(messageId, conversationId, rating) {
      const res = await post(`/w/${id}/messages/${messageId}/feedback`, {
        conversation_id: conversationId,
        rating,
      });
      return { status: res.status, body: JSON.parse(res.body as string) as { detail?: string } };
    },
  };
}

/** The conversation and saved message ids of an answer's events. */
export function answerIds(text: string): { conversationId: string; messageId: string } {
  const events = serverSentEvents<Record<string, string>>(text);
  return {
    conversationId: events.find((e) => e.type === 'conversation')?.conversation_id ?? '',
    messageId: events.find((e) => e.type === 'saved')?.message_id ?? '',
  };
}

import { createHash } from 'node:crypto';
import { DONT_KNOW_INSTRUCTIONS } from '../rag-agent';
import { SQL_ANSWER_RESULT, SQL_WRITING_INSTRUCTION } from '../sql-agent';

/**
 * What the LLM test server answers, whatever the protocol: a reply read off the prompt (the
 * previews' and the generated agents' prompts, SQL to write, a result to state), split into
 * pieces for streaming, and the stand-in embeddings.
 */

/** One message of a chat request, as the AI SDK and the generated agents send it. */
export interface ChatMessage {
  role: string;
  content: unknown;
}

export interface Prompt {
  system: string;
  user: string;
}

export function replyTo({ system, user }: Prompt, sqlReplies: string[]): string {
  const generated = replyToGeneratedAgent(system, user);
  if (generated !== undefined) return generated;
  if (system.includes(DONT_KNOW_INSTRUCTIONS)) {
    return 'I do not know this from the sources I was given.';
  }
  if (user.startsWith('Context:\n')) {
    const first = /^\[1\] \((.*?)\) ([\s\S]*?)(?=\n\[2\] \(|\n\nQuestion: )/m.exec(user);
    return first ? `According to [1]: ${first[2]}` : 'I do not know: no passage answers that.';
  }
  if (system.includes(SQL_WRITING_INSTRUCTION)) {
    const next = sqlReplies.shift();
    if (next !== undefined) return next;
    const table = /^- (\S+) \(/m.exec(system)?.[1] ?? 'data';
    return /how many/i.test(user) ? `SELECT COUNT(*) FROM ${table}` : `SELECT * FROM ${table}`;
  }
  const result = user.indexOf(`\n\n${SQL_ANSWER_RESULT}`);
  if (result !== -1) {
    const [, , firstRow] = user.slice(result + 2).split('\n'); // the heading, the columns, row 1
    const cell = firstRow?.split(' | ')[0];
    return cell === undefined || cell === ''
      ? 'The query returned no rows.'
      : `The answer is ${cell}.`;
  }
  return `You said: ${user}`;
}

/**
 * The prompts of the generated Python agents (apps/builder-worker/templates), so the live check
 * of downloaded projects runs them end to end through this server:
 * - RAG: "Passages:\n[1] (<citation>)\n<text>…\n\nQuestion: <q>" → "According to [1]: <text>";
 * - SQL (sql_prompts.py): "Reply with the SQL in a ```sql code block" under a "CREATE TABLE <name>"
 *   → a count of that table in a ```sql block; Vanna's "Write one read-only SELECT statement"
 *   system prompt with the table's DDL → the same count, bare;
 * - the answer after the query ran: "Its result (…):" then a header and " | "-separated rows →
 *   "The answer is <first cell of the first row>."
 * - PandasAI 2.x's code prompt ("Variable `dfs: list[pd.DataFrame]` is already declared.") →
 *   Python that counts the first frame's rows, or, when the question asks for a "bar chart",
 *   draws its first numeric column with matplotlib and saves it as a PNG.
 */
const PANDASAI_COUNT_CODE = [
  '```python',
  'import pandas as pd',
  '',
  'result = {"type": "number", "value": len(dfs[0])}',
  '```',
].join('\n');

const PANDASAI_CHART_CODE = [
  '```python',
  'import pandas as pd',
  'import matplotlib.pyplot as plt',
  '',
  'dfs[0].select_dtypes("number").iloc[:, 0].plot(kind="bar")',
  'plt.savefig("temp_chart.png")',
  'result = {"type": "plot", "value": "temp_chart.png"}',
  '```',
].join('\n');

function replyToGeneratedAgent(system: string, user: string): string | undefined {
  const passage = /\n\nPassages:\n\[1\] \((.*?)\)\n([\s\S]*?)(?=\n\n\[2\] \(|\n\nQuestion: )/.exec(
    user,
  );
  if (passage) return `According to [1]: ${passage[2]}`;
  const table = (text: string) => /^CREATE TABLE (.+) \($/m.exec(text)?.[1];
  if (user.includes('Reply with the SQL in a ```sql code block')) {
    return `\`\`\`sql\nSELECT COUNT(*) AS n FROM ${table(user) ?? 'data'}\n\`\`\``;
  }
  if (system.includes('Write one read-only SELECT statement')) {
    return `SELECT COUNT(*) AS n FROM ${table(`${system}\n${user}`) ?? 'data'}`;
  }
  if (user.includes('Variable `dfs: list[pd.DataFrame]` is already declared.')) {
    return /\bbar chart\b/i.test(user) ? PANDASAI_CHART_CODE : PANDASAI_COUNT_CODE;
  }
  const result = /\nIts result \([^\n]*\):\n[^\n]*\n([^\n]*)/.exec(user);
  if (result) return `The answer is ${result[1]!.split(' | ')[0]}.`;
  return undefined;
}

/** A few words per chunk, so a client really receives the answer in pieces. */
export function pieces(text: string): string[] {
  const words = text.match(/\S+\s*/g) ?? [''];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += 3) chunks.push(words.slice(i, i + 3).join(''));
  return chunks;
}

export function tokenCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { text?: unknown } | null) => (typeof part?.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/**
 * The system text (OpenAI: system/developer messages; Anthropic: the `system` field) and the
 * last user message's text.
 */
export function chatPrompt(
  messages: ChatMessage[] = [],
  systemSources: ChatMessage[] = [],
): Prompt {
  const system = systemSources
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => textOf(message.content))
    .join('\n');
  const user = textOf(messages.filter((message) => message.role === 'user').at(-1)?.content);
  return { system, user };
}

/**
 * Hashed bag of words: each word adds 1 to one of the `dimensions` entries (all of them, so a
 * 1536-number model's words rarely collide); vectors have unit length.
 */
export function testEmbedding(text: string, dimensions = 256): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    vector[createHash('sha256').update(word).digest().readUInt32BE(0) % dimensions]! += 1;
  }
  const length = Math.hypot(...vector) || 1;
  return vector.map((value) => value / length);
}

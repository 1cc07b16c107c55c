import { generateText, type LanguageModel } from 'ai';
import type { AgentEvent, ChatTurn } from './agent-events';
import { streamAnswer, systemPrompt, withHistory } from './answer-stream';
import { messageOf } from './error-messages';
import { providerErrorEvent } from './provider-errors';
import type { QueryResult, SqlEngine, TableSchema } from './sql-engines';
import type { SqlDialect } from './sql-dialect';
import { guardSelect, SqlRefusedError } from './sql-guard';

export interface SqlAgentOptions {
  model: LanguageModel;
  systemPrompt: string;
  engine: SqlEngine;
  /** Rows a query may return; 100 by default. */
  rowLimit?: number;
  /** A query's time limit; 5000 ms by default. */
  timeoutMs?: number;
}

/** Ends the SQL-writing system prompt; the tests' LLM server recognises the request by it. */
export const SQL_WRITING_INSTRUCTION =
  'Reply with one SELECT statement only: no explanation, no other statement, no comments.';

/** Heads the result in the answer prompt; the tests' LLM server recognises the request by it. */
export const SQL_ANSWER_RESULT = 'Result (';

const SQL_ANSWER_INSTRUCTIONS =
  "Answer the user's question in plain language from the SQL query and its result in the " +
  'message. If the result does not answer the question, say so. Do not write SQL.';

const DIALECT_LABELS: Record<SqlDialect, string> = {
  sqlite: 'SQLite',
  postgresql: 'PostgreSQL',
  mysql: 'MySQL',
};

/** Rows of the result the answering model sees, and how much of each cell. */
const ROWS_FOR_ANSWER = 50;
const CELL_MAX_CHARS = 200;

/**
 * Questions answered with SQL: the model writes one SELECT from the schema, the guard checks and
 * caps it, the engine runs it read-only with a time limit, and the model answers from the rows.
 */
export class SqlAgent {
  private readonly rowLimit: number;
  private readonly timeoutMs: number;
  /** The schema is read once per agent: it is in every question's prompt. */
  private schema: Promise<TableSchema[]> | undefined;

  constructor(private readonly o: SqlAgentOptions) {
    this.rowLimit = o.rowLimit ?? 100;
    this.timeoutMs = o.timeoutMs ?? 5000;
  }

  /** `history`: earlier turns, so a follow-up ("and in Porto?") is written and answered in context. */
  async *ask(
    question: string,
    signal?: AbortSignal,
    history?: ChatTurn[],
  ): AsyncGenerator<AgentEvent> {
    const { model, engine } = this.o;
    let tables: TableSchema[];
    try {
      tables = await this.tables();
    } catch (error) {
      yield { type: 'error', detail: `The data could not be read: ${messageOf(error)}` };
      return;
    }
    if (tables.length === 0) {
      yield { type: 'error', detail: 'The data source has no table to query.' };
      return;
    }

    let written: string;
    try {
      const result = await generateText({
        model,
        system: sqlWritingPrompt(this.o.systemPrompt, engine.dialect, tables),
        messages: withHistory(history, question),
        abortSignal: signal,
      });
      written = result.text;
    } catch (error) {
      if (!signal?.aborted) yield providerErrorEvent(error);
      return;
    }

    let sql: string;
    try {
      sql = guardSelect(written, engine.dialect, { rowLimit: this.rowLimit });
    } catch (error) {
      if (!(error instanceof SqlRefusedError)) throw error;
      // The refused SQL is shown, so the person sees what was not run.
      yield { type: 'sql', sql: error.sql || written };
      yield { type: 'error', detail: error.message };
      return;
    }
    yield { type: 'sql', sql };

    let result: QueryResult;
    try {
      result = await engine.query(sql, { timeoutMs: this.timeoutMs, maxRows: this.rowLimit });
    } catch (error) {
      yield { type: 'error', detail: messageOf(error) };
      return;
    }
    if (signal?.aborted) return;
    yield {
      type: 'table',
      columns: result.columns,
      rows: result.rows,
      truncated: result.rows.length >= this.rowLimit,
    };

    yield* streamAnswer({
      model,
      system: systemPrompt(this.o.systemPrompt, SQL_ANSWER_INSTRUCTIONS),
      prompt: sqlAnswerPrompt(question, sql, result, this.rowLimit),
      signal,
      history,
    });
  }

  private tables(): Promise<TableSchema[]> {
    if (!this.schema) {
      this.schema = this.o.engine.describe();
      this.schema.catch(() => (this.schema = undefined)); // try again at the next question
    }
    return this.schema;
  }
}

/**
 * The system prompt that asks for SQL (the question is the user message). The format the tests'
 * LLM server reads:
 *
 *     <the agent's own system prompt>
 *
 *     You write SQL for a PostgreSQL database to answer the user's question.
 *     Tables:
 *     - people (id integer, name text)
 *     Reply with one SELECT statement only: …
 */
export function sqlWritingPrompt(
  configured: string,
  dialect: SqlDialect,
  tables: TableSchema[],
): string {
  const schema = tables
    .map((table) => {
      const columns = table.columns.map((column) => `${column.name} ${column.type}`.trim());
      return `- ${table.name} (${columns.join(', ')})`;
    })
    .join('\n');
  return systemPrompt(
    configured,
    `You write SQL for a ${DIALECT_LABELS[dialect]} database to answer the user's question.\n` +
      `Tables:\n${schema}\n${SQL_WRITING_INSTRUCTION}`,
  );
}

/**
 * The user message that asks for the answer:
 *
 *     Question: how many people are there?
 *
 *     SQL:
 *     SELECT COUNT(*) FROM people
 *     LIMIT 100
 *
 *     Result (1 row):
 *     COUNT(*)
 *     5
 *
 * Cells are separated by " | "; long results show their first rows only.
 */
export function sqlAnswerPrompt(
  question: string,
  sql: string,
  result: QueryResult,
  rowLimit: number,
): string {
  const count = result.rows.length;
  const shown = result.rows.slice(0, ROWS_FOR_ANSWER);
  const notes = [
    count === 1 ? '1 row' : `${count} rows`,
    ...(count >= rowLimit ? ['cut at the row limit'] : []),
    ...(shown.length < count ? [`the first ${shown.length} shown`] : []),
  ];
  const lines = [result.columns.join(' | '), ...shown.map((row) => row.map(cellText).join(' | '))];
  return `Question: ${question}\n\nSQL:\n${sql}\n\n${SQL_ANSWER_RESULT}${notes.join(', ')}):\n${lines.join('\n')}`;
}

function cellText(value: string | number | null): string {
  if (value === null) return 'NULL';
  const text = String(value).replace(/\s+/g, ' ');
  return text.length > CELL_MAX_CHARS ? `${text.slice(0, CELL_MAX_CHARS - 1)}…` : text;
}

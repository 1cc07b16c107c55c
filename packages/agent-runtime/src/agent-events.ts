/**
 * What kind of failure it was, for the page to say it in plain words with the next step: the
 * key (update it), the model (choose another), the quota or the provider (try again later), the
 * network (try again). Here, with the events that carry it, so provider-errors (which makes
 * them) reads this module and not the other way round.
 */
export type ProviderErrorReason =
  'key' | 'forbidden' | 'model' | 'rate' | 'unavailable' | 'unreachable' | 'stopped' | 'other';

/**
 * How an answer's passages were found: by embeddings, or by keyword (full-text) search when the
 * agent's embedding model cannot be used. Here, with the event that carries it, so this module
 * imports nothing (retrieval and the provider-call observer read it, not the other way round).
 */
export type RetrievalMode = 'embeddings' | 'keyword';

/** A retrieved passage as the preview shows it under the answer. */
export interface SourceRef {
  id: string;
  /** e.g. "sales.csv, row 12"; the answer cites it as [n], n being its place in the list. */
  citation: string;
  /** The start of the passage's text. */
  snippet: string;
  score: number;
  /** Which search found it, when the agent searches both by meaning and by words. */
  found?: 'meaning' | 'words' | 'both';
}

/**
 * What an agent reports while it answers, in order: `retrieval` (RAG) or `sql` + `table` (SQL),
 * then `token`s as the model writes, then `done` — or an `error` that ends the answer. A question
 * close to one of the owner's curated answers is answered `curated`, then that answer's text as
 * one `token`, then `done`: no passage search, no query and no model call.
 */
export type AgentEvent =
  | {
      type: 'retrieval';
      mode: RetrievalMode;
      note?: string;
      sources: SourceRef[];
      /**
       * No passage cleared the relevance threshold and the agent answers only from its sources:
       * it says it does not know, and the question is flagged for its owner.
       */
      unanswered?: boolean;
    }
  | {
      type: 'curated';
      /** The curated answer's id, and the question the owner wrote it for. */
      id: string;
      question: string;
      /** How close the asked question is: a cosine similarity, or the share of words in common. */
      similarity: number;
    }
  | { type: 'sql'; sql: string }
  | {
      type: 'table';
      columns: string[];
      rows: (string | number | null)[][];
      /** The result reached the row limit, so the table may be cut short. */
      truncated: boolean;
    }
  | { type: 'token'; text: string }
  | { type: 'done' }
  /** `reason` is set when the model provider failed, for the page to say what to do next. */
  | { type: 'error'; detail: string; reason?: ProviderErrorReason };

/** A turn of a conversation that an agent remembers (published agents keep the last few). */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

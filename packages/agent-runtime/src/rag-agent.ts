import { APICallError, RetryError, type LanguageModel } from 'ai';
import type { AgentEvent, ChatTurn, SourceRef } from './agent-events';
import { streamAnswer, systemPrompt } from './answer-stream';
import { citationOf } from './chunks';
import { messageOf } from './error-messages';
import { providerErrorEvent } from './provider-errors';
import type { Hit, RetrievalIndex } from './retrieval';

export interface RagAgentOptions {
  model: LanguageModel;
  systemPrompt: string;
  index: RetrievalIndex;
  /** Passages retrieved per question; 4 by default. */
  topK?: number;
}

export const RAG_INSTRUCTIONS =
  'Answer the question using only the numbered passages after "Context:" in the user\'s message. ' +
  'Cite each passage you use as [n], n being its number. ' +
  'If the passages do not contain the answer, say that you do not know.';

/** One passage in the prompt is cut here, so a whole-file chunk cannot crowd out the rest. */
const PASSAGE_MAX_CHARS = 4000;
const SNIPPET_MAX_CHARS = 240;

/**
 * Retrieval-augmented answers: the question's best passages from the index, then the model's
 * answer from those passages alone, citing them as [n].
 */
export class RagAgent {
  private readonly topK: number;

  constructor(private readonly o: RagAgentOptions) {
    this.topK = o.topK ?? 4;
  }

  /** `history`: the conversation's earlier turns, which the model sees before the question. */
  async *ask(
    question: string,
    signal?: AbortSignal,
    history?: ChatTurn[],
  ): AsyncGenerator<AgentEvent> {
    let hits: Hit[];
    try {
      hits = await this.o.index.search(question, this.topK, signal);
    } catch (error) {
      if (!signal?.aborted) yield searchFailure(error);
      return;
    }
    yield {
      type: 'retrieval',
      mode: this.o.index.mode,
      note: this.o.index.note,
      sources: hits.map(sourceRef),
    };
    yield* streamAnswer({
      model: this.o.model,
      system: systemPrompt(this.o.systemPrompt, RAG_INSTRUCTIONS),
      prompt: ragPrompt(question, hits),
      signal,
      history,
    });
  }
}

/**
 * The user message, in the format the tests' LLM server recognises (keep them in step):
 *
 *     Context:
 *     [1] (sales.csv, row 3) <passage text>
 *     [2] (report.pdf, page 1) <passage text>
 *
 *     Question: <the question>
 */
export function ragPrompt(question: string, hits: Hit[]): string {
  const passages = hits.length
    ? hits
        .map(({ chunk }, index) => {
          const text = truncate(chunk.text, PASSAGE_MAX_CHARS);
          return `[${index + 1}] (${citationOf(chunk)}) ${text}`;
        })
        .join('\n')
    : '(no passage matched the question)';
  return `Context:\n${passages}\n\nQuestion: ${question}`;
}

/** OpenAI embeddings fail like any provider call; a local model's failure is our own. */
function searchFailure(error: unknown): AgentEvent {
  return APICallError.isInstance(error) || RetryError.isInstance(error)
    ? providerErrorEvent(error)
    : { type: 'error', detail: `The passages could not be searched: ${messageOf(error)}` };
}

function sourceRef({ chunk, score }: Hit): SourceRef {
  const snippet = truncate(chunk.text.replace(/\s+/g, ' ').trim(), SNIPPET_MAX_CHARS);
  return { id: chunk.id, citation: citationOf(chunk), snippet, score };
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

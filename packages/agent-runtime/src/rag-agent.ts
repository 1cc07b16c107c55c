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
  /**
   * Answer only from the sources: when no passage is relevant (its similarity under
   * `relevanceThreshold`, and no name, code or number of the question in it), the agent says it
   * does not know instead of answering from nothing.
   */
  answerOnlyFromSources?: boolean;
  relevanceThreshold?: number;
}

/** What the model is told when no passage answers the question (answer only from the sources). */
export const DONT_KNOW_INSTRUCTIONS =
  'None of your sources answers the question below. Reply in one short sentence, in the language ' +
  'of the question, that you do not know this from the sources you were given. Do not answer it ' +
  'from your own knowledge and do not guess.';

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

  private relevant(hit: Hit, question: string): boolean {
    return isRelevant(hit, question, this.o.relevanceThreshold ?? 0);
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
    if (this.o.answerOnlyFromSources && !hits.some((hit) => this.relevant(hit, question))) {
      yield {
        type: 'retrieval',
        mode: this.o.index.mode,
        note: this.o.index.note,
        sources: [],
        unanswered: true,
      };
      yield* streamAnswer({
        model: this.o.model,
        system: systemPrompt(this.o.systemPrompt, DONT_KNOW_INSTRUCTIONS),
        prompt: `Question: ${question}`,
        signal,
        history,
      });
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
 * Whether a passage answers the question well enough to be answered from:
 * - found by meaning: its similarity reaches the model's threshold (RELEVANCE_THRESHOLDS);
 * - whatever found it: it holds a name, code or number the question names (what search by words
 *   is for);
 * - found by words only: it holds two of the question's content words, or its only one (an
 *   index searched by words alone has no similarity to judge by).
 * An index that says neither (made before hybrid search) counts every hit, as it always did.
 */
export function isRelevant(hit: Hit, question: string, threshold: number): boolean {
  if (hit.similarity !== undefined && hit.similarity >= threshold) return true;
  if (hit.found === undefined && hit.similarity === undefined) return true;
  const text = hit.chunk.text.toLowerCase();
  if (distinctiveTerms(question).some((term) => text.includes(term))) return true;
  if (hit.similarity !== undefined) return false;
  const words = contentWords(question);
  const held = words.filter((word) => text.includes(word)).length;
  return words.length > 0 && held >= Math.min(2, words.length);
}

/**
 * English words that ask, or carry no subject, rather than say what is asked about: not counted
 * as the question's content.
 */
const ASKING_WORDS = new Set(
  (
    'what which where when does have with from that this there their about into your please ' +
    'tell could would should know were many much some been being them they then than also just ' +
    'only very more most such each other whom whose will shall'
  ).split(' '),
);

/** The question's words of four letters or more, asking words aside, lower-cased. */
export function contentWords(question: string): string[] {
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= 4 && !ASKING_WORDS.has(word)))];
}

/**
 * The question's names, codes and numbers: words with a digit, and words written with a capital
 * letter after the first word (at least three characters), lower-cased.
 */
export function distinctiveTerms(question: string): string[] {
  const words = question.match(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu) ?? [];
  return words
    .filter(
      (word, index) =>
        /\p{N}/u.test(word) || (index > 0 && word.length >= 3 && /^\p{Lu}/u.test(word)),
    )
    .map((word) => word.toLowerCase());
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

function sourceRef({ chunk, score, similarity, found }: Hit): SourceRef {
  const snippet = truncate(chunk.text.replace(/\s+/g, ' ').trim(), SNIPPET_MAX_CHARS);
  // The similarity reads as a score a person can compare (0–1); a fused rank's score does not.
  return {
    id: chunk.id,
    citation: citationOf(chunk),
    snippet,
    score: similarity ?? score,
    ...(found && { found }),
  };
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

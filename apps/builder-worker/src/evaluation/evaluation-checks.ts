import {
  citationOf,
  closestCurated,
  isRelevant,
  unitVector,
  type CuratedEntry,
  type Embedder,
  type RetrievalIndex,
} from '@agentloom/agent-runtime';
import type { TBuildEvaluation, TEvaluationFailure } from '@agentloom/contracts';
import type { CuratedRow, RatedAnswer } from './evaluation.repository';

/** What the checks search with: the build's index and settings, as its agent would. */
export interface CheckContext {
  index: RetrievalIndex;
  /** The agent's embedding model, when the index is searched by meaning. */
  embedder: Embedder | null;
  topK: number;
  relevanceThreshold: number;
  curatedThreshold: number;
}

/** What the checks replay: the owner's questions, liked answers, disliked ones and corrections. */
export interface CheckInputs {
  questions: string[];
  liked: RatedAnswer[];
  disliked: RatedAnswer[];
  curated: CuratedRow[];
}

type Outcome = TEvaluationFailure | null;

/** Curated questions embedded at once (an agent holds up to 500 of them). */
const CURATED_AT_ONCE = 8;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The build's evaluation: each check is retrieval only (no model call), the question embedded
 * once with the agent's own model. A thumbs-up answer that cited nothing, and a thumbs-down one
 * no curated answer covers, are not cases.
 */
export async function runChecks(ctx: CheckContext, inputs: CheckInputs): Promise<TBuildEvaluation> {
  const outcomes: Outcome[] = [];
  for (const question of new Set(inputs.questions)) outcomes.push(await expected(ctx, question));
  for (const answer of inputs.liked) {
    if (answer.citations.length > 0) outcomes.push(await liked(ctx, answer));
  }
  const corrections = await curatedChecks(ctx, inputs);
  outcomes.push(...corrections);
  const failed = outcomes.filter((outcome): outcome is TEvaluationFailure => outcome !== null);
  const cases = outcomes.length;
  return {
    cases,
    passed: cases - failed.length,
    failed,
    score: cases === 0 ? 1 : (cases - failed.length) / cases,
    evaluated_at: new Date().toISOString(),
  };
}

/** An expected question: some passage an answer would read counts as relevant. */
async function expected(ctx: CheckContext, question: string): Promise<Outcome> {
  const hits = await ctx.index.search(question, ctx.topK);
  if (hits.some((hit) => isRelevant(hit, question, ctx.relevanceThreshold))) return null;
  return {
    kind: 'expected',
    question,
    expected: 'a passage that answers it',
    got:
      hits.length === 0
        ? 'no passage'
        : `${plural(hits.length, 'passage')}, none relevant (closest: ${citationOf(hits[0]!.chunk)})`,
    reason:
      hits.length === 0
        ? 'No passage was found for it: the agent would say it does not know.'
        : `None of the ${plural(hits.length, 'passage')} found answers it: the agent would say it does not know.`,
  };
}

/** A liked answer: every passage it cited is still among those an answer would read. */
async function liked(ctx: CheckContext, answer: RatedAnswer): Promise<Outcome> {
  const hits = await ctx.index.search(answer.question, ctx.topK);
  const found = [...new Set(hits.map((hit) => citationOf(hit.chunk)))];
  const missing = answer.citations.filter((citation) => !found.includes(citation));
  if (missing.length === 0) return null;
  return {
    kind: 'thumbs_up',
    question: answer.question,
    expected: answer.citations.join('; '),
    got: found.length > 0 ? found.join('; ') : 'no passage',
    reason: `An answer visitors liked cited ${missing.join('; ')}, which ${missing.length === 1 ? 'is' : 'are'} no longer found for this question.`,
  };
}

/** Disliked answers the owner corrected: the curated answer would be served for the question. */
async function curatedChecks(ctx: CheckContext, inputs: CheckInputs): Promise<Outcome[]> {
  if (inputs.disliked.length === 0 || inputs.curated.length === 0) return [];
  const embed = async (text: string) =>
    ctx.embedder ? unitVector(await ctx.embedder.embedQuery(text)) : null;
  // Every curated question is compared, as the agent compares them: embedded a few at a time.
  const entries: CuratedEntry[] = [];
  for (let start = 0; start < inputs.curated.length; start += CURATED_AT_ONCE) {
    const batch = inputs.curated.slice(start, start + CURATED_AT_ONCE);
    const vectors = await Promise.all(batch.map((row) => embed(row.question)));
    batch.forEach((row, i) => entries.push({ ...row, ...(vectors[i] && { vector: vectors[i] }) }));
  }
  const outcomes: Outcome[] = [];
  for (const answer of inputs.disliked) {
    const match = closestCurated(
      answer.question,
      await embed(answer.question),
      entries,
      ctx.curatedThreshold,
    );
    const corrector = inputs.curated.find((row) => row.correctsMessageId === answer.id);
    if (!corrector && !match) continue;
    if (!corrector || match?.entry.id === corrector.id) {
      outcomes.push(null);
      continue;
    }
    outcomes.push({
      kind: 'curated',
      question: answer.question,
      expected: `your answer to “${corrector.question}”`,
      got: match ? `your answer to “${match.entry.question}”` : 'the agent’s own answer',
      reason: match
        ? 'Another of your curated answers would be given to this question.'
        : 'Your curated answer would not be given: the question is not close enough to the one you answered.',
    });
  }
  return outcomes;
}

import { isTableSourceType, type TPipelineDetail } from '@agentloom/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, TextArea } from '../../components/ui';
import { useExpectedQuestions } from '../evaluation/expected-questions';

/**
 * Words of a question that counts, totals or ranks rows. A RAG agent reads a handful of matching
 * rows per question (4 by default), so over a table it answers such questions from a sample and
 * gets them wrong; the SQL agent runs one query over every row.
 */
const COUNTING =
  /\b(how many|how much (did|have|has) (we|you|they|our)|how much .*\b(in total|altogether|overall|so far)|count|counts|counted|number of|total|totals|sum|average|avg|mean|median|percent|percentage|most|least|highest|lowest|largest|smallest|top \d+|per (day|week|month|quarter|year|customer|product))\b/i;

export function looksLikeCounting(question: string): boolean {
  return COUNTING.test(question);
}

/**
 * On a RAG agent, before it is built: the person writes the questions they expect, saved with
 * the agent so each build checks them (docs/evaluation.md); over a table, the ones that count or
 * total are named, with the way to the agent that answers them.
 */
export function CountingQuestionsCheck({ pipeline }: { pipeline: TPipelineDetail }) {
  const rag = pipeline.agent_type === 'rag';
  const expected = useExpectedQuestions(pipeline.id, rag);
  const [typed, setQuestions] = useState<string | null>(null);
  if (!rag) return null;
  const table = isTableSourceType(pipeline.config.source_type);
  const questions = typed ?? expected.saved ?? '';
  const counting = (table ? questions : '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && looksLikeCounting(line));
  return (
    <div className="space-y-3 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <TextArea
        label="Questions you expect people to ask (optional)"
        hint={
          table
            ? 'One per line. This agent answers from the few rows that best match a question; we check whether your questions need every row, and each build checks that it finds rows for them.'
            : 'One per line. Each build checks that your agent finds a passage answering each one.'
        }
        rows={3}
        value={questions}
        onChange={(event) => setQuestions(event.target.value)}
        onBlur={(event) => expected.save(event.target.value)}
      />
      {counting.length > 0 && (
        <Alert tone="info">
          <p className="font-semibold">
            {counting.length === 1
              ? 'This question counts or totals rows'
              : 'These questions count or total rows'}
            : {counting.map((question) => `“${question}”`).join(', ')}.
          </p>
          <p className="mt-1">
            This agent reads only a few matching rows per question, so its numbers would be wrong.
            Questions like these need a SQL agent, which calculates over the whole table.{' '}
            <Link to="/pipeline/sql" className="font-semibold underline underline-offset-2">
              Build a SQL agent (Calculate answers from tables)
            </Link>
          </p>
        </Alert>
      )}
    </div>
  );
}

import type { TRetrievedPassage, TRetrievalTestResult } from '@agentloom/contracts';
import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, TextField } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { useRetrievalTest } from './retrieval-api';

const FOUND_BY: Record<TRetrievedPassage['found_by'], string> = {
  meaning: 'found by meaning',
  words: 'found by words',
  both: 'found by meaning and words',
};

/**
 * The owner's retrieval test: a question, and the passages an answer to it would read in the
 * newest build, each with its source, its score and which search found it. Asks no LLM.
 */
export function RetrievalTest({ agentId }: { agentId: string }) {
  const test = useRetrievalTest(agentId);
  const [question, setQuestion] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    test.mutate(question, {
      onError: (error) =>
        setFailure(errorDetail(error) ?? 'The test could not run. Please try again.'),
    });
  }

  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          label="Test a question"
          wrapperClassName="flex-1"
          value={question}
          onChange={(event) => setQuestion(event.target.value)}
          hint="Shows the passages the agent would read to answer it. No model is asked."
        />
        <Button type="submit" variant="outline" loading={test.isPending}>
          Show passages
        </Button>
      </form>
      {failure !== null && <Alert>{failure}</Alert>}
      {test.data && !test.isPending && <TestResult result={test.data} />}
    </div>
  );
}

function TestResult({ result }: { result: TRetrievalTestResult }) {
  return (
    <div className="space-y-3">
      {!result.answers && (
        <Alert tone="info">
          No passage fits this question well enough: the agent would say it does not know, and list
          the question for you.
        </Alert>
      )}
      {result.note && <p className="text-sm text-slate-600 dark:text-slate-400">{result.note}</p>}
      {result.passages.length === 0 ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">No passage was found.</p>
      ) : (
        <ol aria-label="Passages" className="space-y-3">
          {result.passages.map((passage, index) => (
            <PassageItem key={passage.id} passage={passage} rank={index + 1} />
          ))}
        </ol>
      )}
    </div>
  );
}

function PassageItem({ passage, rank }: { passage: TRetrievedPassage; rank: number }) {
  return (
    <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-semibold text-slate-900 dark:text-white">
          {rank}. {passage.citation}
        </span>
        <Badge tone={passage.relevant ? 'green' : 'grey'}>
          {passage.relevant ? 'relevant' : 'weak match'}
        </Badge>
        <span className="text-xs text-slate-600 dark:text-slate-400">
          {FOUND_BY[passage.found_by]}
          {passage.similarity !== null && ` · similarity ${passage.similarity.toFixed(2)}`}
          {passage.word_score !== null && ` · word score ${passage.word_score.toFixed(2)}`}
        </span>
      </div>
      <p className="mt-2 line-clamp-4 text-sm break-words whitespace-pre-line text-slate-700 dark:text-slate-300">
        {passage.text}
      </p>
    </li>
  );
}

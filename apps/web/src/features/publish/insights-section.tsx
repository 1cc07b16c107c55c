import type { TInsightAnswers } from '@agentloom/contracts';
import { Spinner } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { RightAnswerForm } from './curated-answers-section';
import { useInsights } from './publish-api';

/**
 * What the owner learns from the last 14 days of conversations: questions per day, and the
 * answers given without a source or rated not helpful, each with its question and a way to write
 * the right answer.
 */
export function InsightsSection({ agentId }: { agentId: string }) {
  const insights = useInsights(agentId);
  if (insights.isPending) return <Spinner size="sm" label="Loading the insights…" />;
  if (insights.isError) {
    return (
      <p className="text-sm text-red-700 dark:text-red-300">
        {errorDetail(insights.error) ?? 'The insights could not be loaded.'}
      </p>
    );
  }
  const { days, questions, unanswered, thumbs_down: thumbsDown } = insights.data;
  const most = Math.max(1, ...days.map((day) => day.questions));
  return (
    <div className="space-y-3 text-sm">
      <h4 className="font-semibold text-slate-900 dark:text-white">
        Last 14 days: {questions} question{questions === 1 ? '' : 's'}
      </h4>
      <ol aria-label="Questions per day" className="flex h-16 items-end gap-1">
        {days.map((day) => (
          <li
            key={day.date}
            aria-label={`${day.date}: ${day.questions}`}
            title={`${day.date}: ${day.questions}`}
            className="w-3 rounded-t bg-indigo-500 dark:bg-indigo-400"
            style={{ height: `${Math.max(4, (day.questions / most) * 100)}%` }}
          />
        ))}
      </ol>
      <AnswerList
        agentId={agentId}
        title="Answered without a source"
        empty="Every question found a source."
        list={unanswered}
      />
      <AnswerList
        agentId={agentId}
        title="Rated not helpful"
        empty="No answer was rated not helpful."
        list={thumbsDown}
      />
    </div>
  );
}

function AnswerList({
  agentId,
  title,
  empty,
  list,
}: {
  agentId: string;
  title: string;
  empty: string;
  list: TInsightAnswers;
}) {
  return (
    <section aria-label={title} className="space-y-1">
      <h5 className="font-medium text-slate-900 dark:text-white">
        {title} ({list.total})
      </h5>
      {list.answers.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-300">{empty}</p>
      ) : (
        <ul className="space-y-2">
          {list.answers.map((item) => (
            <li
              key={item.message_id}
              className="rounded-lg border border-slate-200 p-2 dark:border-slate-700"
            >
              <p className="font-medium [overflow-wrap:anywhere]">{item.question}</p>
              <p className="whitespace-pre-wrap text-slate-700 [overflow-wrap:anywhere] dark:text-slate-300">
                {item.answer}
              </p>
              {item.curated_answer_id ? (
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  You wrote the right answer.
                </p>
              ) : (
                <RightAnswerForm agentId={agentId} messageId={item.message_id} />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import type { TCuratedAnswer } from '@agentloom/contracts';
import { PenLine, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button, IconButton, TextArea, TextField } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { useCuratedAnswerChange, useCuratedAnswers } from './publish-api';

const failed = (title: string) => (error: unknown) =>
  notify.error(title, errorDetail(error) ?? 'Please try again.');

/**
 * The owner's curated answers: a question close in meaning to one of them is answered with its
 * text, word for word, without the model, in the preview and on every channel. Add, change,
 * delete.
 */
export function CuratedAnswersSection({ agentId }: { agentId: string }) {
  const list = useCuratedAnswers(agentId);
  const change = useCuratedAnswerChange(agentId);
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const answers = list.data?.answers ?? [];

  function add() {
    change.mutate(
      { add: { question, answer } },
      {
        onSuccess: () => {
          setQuestion('');
          setAnswer('');
          notify.success('Curated answer saved');
        },
        onError: failed('Could not save the answer'),
      },
    );
  }

  return (
    <div className="space-y-2 text-sm">
      <h4 className="font-semibold text-slate-900 dark:text-white">
        Curated answers ({answers.length})
      </h4>
      <p className="text-slate-600 dark:text-slate-300">
        Your own answer to a question. A question that means the same is answered with your text,
        word for word, from the next question on.
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        <TextField
          label="Question"
          value={question}
          maxLength={500}
          onChange={(event) => setQuestion(event.target.value)}
        />
        <TextArea
          label="Answer"
          rows={2}
          value={answer}
          maxLength={4000}
          onChange={(event) => setAnswer(event.target.value)}
        />
      </div>
      <Button size="sm" loading={change.isPending} onClick={add}>
        <Plus aria-hidden="true" className="h-4 w-4" />
        Add curated answer
      </Button>
      <ul aria-label="Curated answers" className="space-y-2">
        {answers.map((item) => (
          <CuratedAnswerItem key={item.id} agentId={agentId} item={item} />
        ))}
      </ul>
    </div>
  );
}

function CuratedAnswerItem({ agentId, item }: { agentId: string; item: TCuratedAnswer }) {
  const change = useCuratedAnswerChange(agentId);
  const [editing, setEditing] = useState(false);
  const [question, setQuestion] = useState(item.question);
  const [answer, setAnswer] = useState(item.answer);
  const save = () =>
    change.mutate(
      { id: item.id, update: { question, answer } },
      { onSuccess: () => setEditing(false), onError: failed('Could not save the answer') },
    );
  return (
    <li className="rounded-lg border border-slate-200 p-2 dark:border-slate-700">
      {editing ? (
        <div className="space-y-2">
          <TextField
            label="Question"
            value={question}
            maxLength={500}
            onChange={(event) => setQuestion(event.target.value)}
          />
          <TextArea
            label="Answer"
            rows={3}
            value={answer}
            maxLength={4000}
            onChange={(event) => setAnswer(event.target.value)}
          />
          <div className="flex gap-2">
            <Button size="sm" loading={change.isPending} onClick={save}>
              Save
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-start gap-2">
          <div className="min-w-0 flex-1">
            <p className="font-medium [overflow-wrap:anywhere]">{item.question}</p>
            <p className="whitespace-pre-wrap text-slate-700 [overflow-wrap:anywhere] dark:text-slate-300">
              {item.answer}
            </p>
          </div>
          <IconButton
            icon={PenLine}
            variant="ghost"
            label={`Edit the answer to ${item.question}`}
            onClick={() => setEditing(true)}
          />
          <IconButton
            icon={Trash2}
            variant="dangerGhost"
            label={`Delete the answer to ${item.question}`}
            onClick={() =>
              change.mutate({ id: item.id, remove: true }, { onError: failed('Could not delete') })
            }
          />
        </div>
      )}
    </li>
  );
}

/**
 * Under an answer of a conversation: the owner writes the right one, and the question that answer
 * was given to is answered with it from then on.
 */
export function RightAnswerForm({ agentId, messageId }: { agentId: string; messageId: string }) {
  const change = useCuratedAnswerChange(agentId);
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState('');
  if (!open) {
    return (
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)}>
        <PenLine aria-hidden="true" className="h-4 w-4" />
        Write the right answer
      </Button>
    );
  }
  const save = () =>
    change.mutate(
      { add: { corrects_message_id: messageId, answer } },
      {
        onSuccess: () => {
          setOpen(false);
          setAnswer('');
          notify.success('Saved: this question gets your answer from now on');
        },
        onError: failed('Could not save the answer'),
      },
    );
  return (
    <div className="space-y-2">
      <TextArea
        label="The right answer"
        rows={3}
        value={answer}
        maxLength={4000}
        onChange={(event) => setAnswer(event.target.value)}
      />
      <div className="flex gap-2">
        <Button size="sm" loading={change.isPending} onClick={save}>
          Save the answer
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

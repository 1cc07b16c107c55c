import { ChevronDown, Download, ThumbsDown, ThumbsUp, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button, IconButton, Spinner } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { RightAnswerForm } from './curated-answers-section';
import {
  exportConversations,
  useConversation,
  useConversations,
  useDeleteConversation,
} from './publish-api';

/** Conversations people had with the published agent, with their feedback; export and delete. */
export function ConversationsSection({ agentId }: { agentId: string }) {
  const list = useConversations(agentId);
  const remove = useDeleteConversation(agentId);
  const [open, setOpen] = useState<string | null>(null);
  const download = (format: 'json' | 'csv') =>
    exportConversations(agentId, format).catch((error: unknown) =>
      notify.error('Export failed', errorDetail(error) ?? 'Please try again.'),
    );
  const conversations = list.data ?? [];

  return (
    <div className="space-y-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h4 className="font-semibold text-slate-900 dark:text-white">
          Conversations ({conversations.length})
        </h4>
        <Button size="sm" variant="outline" onClick={() => void download('json')}>
          <Download aria-hidden="true" className="h-4 w-4" />
          Export JSON
        </Button>
        <Button size="sm" variant="outline" onClick={() => void download('csv')}>
          <Download aria-hidden="true" className="h-4 w-4" />
          Export CSV
        </Button>
      </div>
      {conversations.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-300">No conversations yet.</p>
      ) : (
        <ul className="space-y-1">
          {conversations.map((conversation) => (
            <li key={conversation.id} className="flex flex-wrap items-center gap-2">
              <Button
                size="sm"
                variant="ghost"
                aria-expanded={open === conversation.id}
                aria-label={`Open conversation ${conversation.title}`}
                onClick={() => setOpen(open === conversation.id ? null : conversation.id)}
              >
                <ChevronDown aria-hidden="true" className="h-4 w-4" />
                Open
              </Button>
              <span className="font-medium">{conversation.title || 'Untitled'}</span>
              <span className="text-slate-600 dark:text-slate-400">
                {conversation.channel} · {conversation.messages} messages
              </span>
              <span aria-label={`${conversation.thumbs_up} helpful`}>
                <ThumbsUp aria-hidden="true" className="inline h-4 w-4" /> {conversation.thumbs_up}
              </span>
              <span aria-label={`${conversation.thumbs_down} not helpful`}>
                <ThumbsDown aria-hidden="true" className="inline h-4 w-4" />{' '}
                {conversation.thumbs_down}
              </span>
              <IconButton
                icon={Trash2}
                variant="dangerGhost"
                label={`Delete conversation ${conversation.title}`}
                onClick={() =>
                  remove.mutate(conversation.id, {
                    onError: (error) =>
                      notify.error('Could not delete', errorDetail(error) ?? 'Please try again.'),
                  })
                }
              />
              {open === conversation.id && (
                <ConversationTurns agentId={agentId} conversationId={conversation.id} />
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What was asked and answered, turn by turn, with each answer's rating and sources. */
function ConversationTurns({
  agentId,
  conversationId,
}: {
  agentId: string;
  conversationId: string;
}) {
  const conversation = useConversation(agentId, conversationId);
  if (conversation.isPending) return <Spinner size="sm" label="Loading the conversation…" />;
  if (conversation.isError) {
    return (
      <p className="w-full text-red-700 dark:text-red-300">
        {errorDetail(conversation.error) ?? 'The conversation could not be loaded.'}
      </p>
    );
  }
  return (
    <ol
      aria-label={`Conversation ${conversation.data.title}`}
      className="w-full space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
    >
      {conversation.data.turns.map((turn) => (
        <li key={turn.id} className="space-y-0.5">
          <p className="text-xs font-semibold text-slate-600 dark:text-slate-400">
            {turn.role === 'user' ? 'Visitor' : 'Agent'}
            {turn.feedback === 'up' && ' · rated helpful'}
            {turn.feedback === 'down' && ' · rated not helpful'}
          </p>
          <p className="whitespace-pre-wrap [overflow-wrap:anywhere] text-slate-900 dark:text-slate-100">
            {turn.content}
          </p>
          {turn.sources.some((source) => source.curated) ? (
            <p className="text-xs text-slate-600 dark:text-slate-400">Your curated answer</p>
          ) : (
            turn.sources.length > 0 && (
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {turn.sources.length} source{turn.sources.length === 1 ? '' : 's'}
              </p>
            )
          )}
          {turn.role === 'assistant' && !turn.sources.some((source) => source.curated) && (
            <RightAnswerForm agentId={agentId} messageId={turn.id} />
          )}
        </li>
      ))}
    </ol>
  );
}

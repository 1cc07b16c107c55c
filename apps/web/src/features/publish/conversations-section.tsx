import { Download, ThumbsDown, ThumbsUp, Trash2 } from 'lucide-react';
import { Button, IconButton } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { exportConversations, useConversations, useDeleteConversation } from './publish-api';

/** Conversations people had with the published agent, with their feedback; export and delete. */
export function ConversationsSection({ agentId }: { agentId: string }) {
  const list = useConversations(agentId);
  const remove = useDeleteConversation(agentId);
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
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

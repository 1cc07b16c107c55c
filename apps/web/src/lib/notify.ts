import { toast } from 'sonner';

/**
 * The app's toasts (SPEC §8 titles and descriptions). Browser alert() texts of the spec are shown
 * through `notify.error` too: same words, accessible and non-blocking.
 */
export const notify = {
  success: (title: string, description?: string) => toast.success(title, { description }),
  error: (title: string, description?: string) => toast.error(title, { description }),
  info: (title: string, description?: string) => toast(title, { description }),
};

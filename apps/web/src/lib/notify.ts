import { toast } from 'sonner';

/** Error toasts of the screen on show: they speak of its form, so they go when it is left. */
const screenErrors = new Set<string | number>();

/**
 * The app's toasts (titles and descriptions: docs/product.md#notices-and-failure-messages). Browser
 * alert() texts of the spec are shown through `notify.error` too: same words, accessible and
 * non-blocking.
 */
export const notify = {
  success: (title: string, description?: string) => toast.success(title, { description }),
  error: (title: string, description?: string) => {
    const id = toast.error(title, { description });
    screenErrors.add(id);
    return id;
  },
  info: (title: string, description?: string) => toast(title, { description }),
};

/**
 * Called on every change of screen (and of wizard step). Successes stay: they usually announce
 * the very move that changes the screen ("Logged in successfully", "RAG agent build started!").
 */
export function dismissScreenErrors(): void {
  for (const id of screenErrors) toast.dismiss(id);
  screenErrors.clear();
}

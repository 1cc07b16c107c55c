import { render, screen, waitFor } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { dismissAllToasts } from '../pages/toast-expectations';
import { dismissScreenErrors, notify } from './notify';

describe('notify', () => {
  afterEach(dismissAllToasts);

  it('clears the error toasts of a screen that is left, and keeps the successes', async () => {
    render(<Toaster />);
    notify.error('Please write or select a system prompt.');
    notify.success('RAG agent build started!');
    expect(await screen.findByText('Please write or select a system prompt.')).toBeInTheDocument();

    dismissScreenErrors();
    await waitFor(() =>
      expect(screen.queryByText('Please write or select a system prompt.')).not.toBeInTheDocument(),
    );
    expect(screen.getByText('RAG agent build started!')).toBeInTheDocument();
  });
});

import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { WizardPage } from '../wizard/wizard-page';
import { renderRoute, signIn } from './render';

/** The RAG wizard's tests' steps, driven as a person does, against the stand-in gateway. */
type User = ReturnType<typeof userEvent.setup>;

export function renderWizard(type = 'rag') {
  signIn();
  return renderRoute(`/pipeline/${type}`, '/pipeline/:type/:sessionId?', <WizardPage />);
}

export const stepBadge = (step: number) => screen.findByText(`Step ${step} of 9`);

export async function createAgent(user: User) {
  await user.type(screen.getByLabelText(/Agent Name/), 'Docs bot');
  await user.click(screen.getByRole('button', { name: 'Create & Continue' }));
  await stepBadge(2);
}

/** Steps 1–3 with a small CSV uploaded, up to the embedding model. */
export async function toEmbeddingStep(user: User) {
  await createAgent(user);
  await user.click(screen.getByRole('button', { name: /^CSV/ }));
  await user.upload(await screen.findByLabelText('Source File'), new File(['a,b\n1,2'], 'd.csv'));
  await user.click(screen.getByRole('button', { name: 'Upload & Continue' }));
  // What was read is said on the step; Continue moves on (issue 43, item 6).
  expect(await screen.findByRole('status')).toHaveTextContent('Read 2 rows, 3 columns');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await stepBadge(4);
}

/** Chooses a model from the list, which saves it and moves to step 5 (SPEC.md, RAG step 4). */
export async function chooseEmbedding(user: User, model: string) {
  await user.selectOptions(await screen.findByLabelText('Embedding Model'), model);
}

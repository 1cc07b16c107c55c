import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import type { LlmTestServer, RecordedRequest } from '@agentloom/agent-runtime/testing';
import { runProcess } from '../testing/run-process';
import { CURATED_ANSWERS } from '../testing/scenario-fixtures';

/**
 * The live check of curated answers (data/curated_answers.json): a paraphrase of a curated
 * question, asked of the real project with its real embedding model, gets the curated text word
 * for word and the model is never called. Each run uses an API key of its own, so the stand-in's
 * requests made with it are that run's alone, whatever else runs at the same time.
 */

/** The curated answer the live cases' paraphrases ask for (the scenarios' first). */
export const CURATED = CURATED_ANSWERS[0]!;
/** How `python -m agent ask` prints it: the text, then its source. */
export const CURATED_PRINTED = `${CURATED.answer}\n\nSources:\n- Curated answer`;

export interface CuratedOutcome {
  ok: boolean;
  detail: string;
}

/** A key of its own for one run of a project. */
export const runKey = () => `sk-live-check-${randomUUID()}`;

/**
 * The model requests the stand-in received with `key`: embeddings aside, and the list of models
 * aside too (a GET the agent's start check makes, before any question).
 */
export function modelCalls(llm: LlmTestServer, key: string): RecordedRequest[] {
  return llm.requests.filter(
    (request) =>
      request.method !== 'GET' &&
      !request.path.includes('embeddings') &&
      (JSON.stringify(request.headers).includes(key) || request.path.includes(key)),
  );
}

export interface CommandLineCase {
  python: string;
  dir: string;
  env: Record<string, string>;
  keyEnv: string;
  llm: LlmTestServer;
  /** The paraphrase of a curated question. */
  paraphrase: string;
  /** A question no curated answer covers: it must reach the model (so the count is not blind). */
  control: string;
}

/** `python -m agent ask` with the paraphrase, then with the control question. */
export async function curatedFromCommandLine(c: CommandLineCase): Promise<CuratedOutcome> {
  const ask = async (question: string) => {
    const key = runKey();
    const run = await runProcess(c.python, ['-m', 'agent', 'ask', question], c.dir, 600_000, {
      ...c.env,
      [c.keyEnv]: key,
    });
    return { run, calls: modelCalls(c.llm, key).length };
  };
  const curated = await ask(c.paraphrase);
  const control = await ask(c.control);
  const said = curated.run.stdout.trim();
  const ok =
    curated.run.status === 0 &&
    said === CURATED_PRINTED &&
    curated.calls === 0 &&
    control.run.status === 0 &&
    control.calls > 0;
  const detail =
    `"${said.split('\n')[0]}" (${said.split('\n').at(-1)}); model calls: ${curated.calls}, ` +
    `for a question no curated answer covers: ${control.calls}`;
  return { ok, detail: ok ? detail : `${detail}\n${curated.run.stderr.slice(-2000)}` };
}

/**
 * In a chat app already open at `page` whose app uses `key`, and that has answered one question
 * from the model: the paraphrase typed in the chat shows the curated text and its source, and
 * the model gets no request for it.
 */
export async function curatedInChat(
  page: Page,
  box: Locator,
  llm: LlmTestServer,
  key: string,
  paraphrase: string,
): Promise<CuratedOutcome> {
  const before = modelCalls(llm, key).length;
  await box.fill(paraphrase);
  await box.press('Enter');
  await page.getByText(CURATED.answer).last().waitFor({ timeout: 180_000 });
  await page
    .getByText(/Curated answer/)
    .first()
    .waitFor({ timeout: 180_000 });
  const calls = modelCalls(llm, key).length - before;
  return {
    ok: before > 0 && calls === 0,
    detail: `curated text and "Curated answer" shown; model calls for it: ${calls} (before: ${before})`,
  };
}

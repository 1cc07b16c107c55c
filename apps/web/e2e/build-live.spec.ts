import { RAG_BUILD_STAGES } from '@agentloom/contracts';
import { storeKeys } from '@agentloom/server-kit';
import { expect, test } from '@playwright/test';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { configureRagAgent, startBuild } from '@agentloom/test-kit';
import { E2E, GATEWAY_URL } from '../playwright.config';
import {
  holdSourceRead,
  salesRagAgent,
  screenshotBothThemes,
  signInThroughApi,
} from './wizard-support';

test('the build screen follows a build live over Socket.IO, without reloading', async ({
  page,
}) => {
  const user = await signInThroughApi(page);
  const sessionId = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Live build bot'));
  const heard: string[] = [];
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => heard.push(String(payload))),
  );

  // Opened before the build exists: the server says so, and the screen keeps listening.
  await page.goto(`/build/rag/${sessionId}`);
  await expect(page.getByText('This agent has not been built yet.')).toBeVisible();
  await expect.poll(() => heard.some((frame) => frame.includes('build:snapshot'))).toBe(true);

  expect((await startBuild(GATEWAY_URL, user, sessionId)).status).toBe(200);
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 60_000,
  });
  const stages = page.getByRole('list', { name: 'Build stages' });
  await expect(stages.getByRole('listitem')).toHaveCount(RAG_BUILD_STAGES.length);
  await expect(page.getByText('Live build bot · RAG agent')).toBeVisible();
  // Every stage arrived as a live event (started and finished), then the end.
  const stageFrames = heard.filter((frame) => frame.includes('build:stage'));
  expect(stageFrames.length).toBeGreaterThanOrEqual(RAG_BUILD_STAGES.length * 2);
  for (const stage of RAG_BUILD_STAGES) {
    expect(stageFrames.some((frame) => frame.includes(`"stage":"${stage}"`))).toBe(true);
  }
  expect(heard.some((frame) => frame.includes('build:completed'))).toBe(true);
});

test('a reload mid-build resumes from the server’s state, then the build completes', async ({
  page,
}) => {
  const user = await signInThroughApi(page);
  const sessionId = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Reload build bot'));
  const stages = page.getByRole('list', { name: 'Build stages' });
  const stage = (name: string) => stages.getByRole('listitem').filter({ hasText: name });
  const progress = page.getByRole('progressbar', { name: 'Build progress' });

  // The builder waits at 'training embeddings' until released, so the reload lands mid-build.
  const hold = await holdSourceRead(sessionId);
  try {
    await page.goto(`/build/rag/${sessionId}`);
    expect((await startBuild(GATEWAY_URL, user, sessionId)).status).toBe(200);
    await expect(stage('initializing environment')).toContainText('(done)');
    await expect(stage('training embeddings')).toContainText('(in progress)');

    await page.reload();
    // The server's record, not an animation started over: stage 1 done, stage 2 running, 1 of 7
    // steps; and the reloaded screen is following the build live again.
    await expect(page.getByRole('heading', { name: 'Building your RAG agent' })).toBeVisible();
    await expect(stage('initializing environment')).toContainText('(done)');
    await expect(stage('training embeddings')).toContainText('(in progress)');
    await expect(progress).toHaveAttribute('aria-valuenow', '14');
    await expect(page.getByText('Live', { exact: true })).toBeVisible();
  } finally {
    await hold.release();
  }

  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(stages.getByRole('listitem').filter({ hasText: '(done)' })).toHaveCount(
    RAG_BUILD_STAGES.length,
  );
  await expect(progress).toHaveAttribute('aria-valuenow', '100');
});

test('a failed build shows the server’s reason', async ({ page }) => {
  const user = await signInThroughApi(page);
  const sessionId = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Broken build bot'));
  // The uploaded file disappears from the shared data folder: the builder cannot read it.
  await rm(path.join(E2E.dataDir, storeKeys.uploads(sessionId)), { recursive: true, force: true });

  await page.goto(`/build/rag/${sessionId}`);
  await expect(page.getByText('This agent has not been built yet.')).toBeVisible();
  expect((await startBuild(GATEWAY_URL, user, sessionId)).status).toBe(200);
  await expect(page.getByRole('heading', { name: 'Build Failed' })).toBeVisible({
    timeout: 60_000,
  });
  // Said as the build's reason, and on the source it concerns in the Knowledge panel below.
  const reason = 'The uploaded source file is missing; upload it again.';
  await expect(page.getByRole('alert').filter({ hasText: reason }).first()).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'sales.csv' }).getByText(reason)).toBeVisible();
  // The stage that could not read the file is the one marked failed.
  const failedStage = page
    .getByRole('list', { name: 'Build stages' })
    .getByRole('listitem')
    .filter({ hasText: '(failed)' });
  await expect(failedStage).toHaveCount(1);
  await expect(failedStage).toContainText('training embeddings');
  await expect(page.getByRole('button', { name: 'Build again' })).toBeVisible();
  await screenshotBothThemes(page, 'rag-build-failed');
});

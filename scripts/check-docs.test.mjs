// check-docs must fail on a guide that names a route, a setting or a code name that does not
// exist, and pass the real ones. Run by `npm test` (node --test).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { brokenSections, repositoryFacts, staleNames } from './check-docs.mjs';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'check-docs.mjs');
const facts = await repositoryFacts();

test('passes the routes and settings the code declares', () => {
  const text = [
    'The screen reads `GET /builds/{sessionId}` and downloads',
    '`GET /{rag|sql}/builds/{sessionId}/download`; the wizard posts to `/rag/api/source/db`',
    'and the page is `/sql/build/animation/sql/{sessionId}`. Set `LOG_LEVEL=debug` or',
    '`PUBLISHED_RUNTIME_URLS`. Files such as `/etc/passwd` are not routes.',
  ].join('\n');
  assert.deepEqual(staleNames(text, facts), []);
});

test('names a stale route and a stale setting', () => {
  const text = [
    'Read it back with GET /builds/{sessionId}/stages, or open `/rag/api/source/database`.',
    'The worker reads `BUILD_STAGE_LABEL_LANGUAGE`.',
  ].join('\n');
  assert.deepEqual(staleNames(text, facts), [
    'route /builds/{sessionId}/stages',
    'route /rag/api/source/database',
    'setting BUILD_STAGE_LABEL_LANGUAGE',
  ]);
});

test('passes code names the source declares, and words that are not code', () => {
  const text = [
    '`closestCurated` picks the curated answer; `HostedIndexWriter` writes, `HostedIndexes.open`',
    'and `languageModel()` answer. `OpenAI`, `agent.json`, `rag`, `Built` and `GET` are not',
    'names of ours to check.',
  ].join('\n');
  assert.deepEqual(staleNames(text, facts), []);
});

test('names a removed function and class', () => {
  const text = 'It calls `buildRetrievalIndex`, which falls back to `Bm25Index.search()`.';
  assert.deepEqual(staleNames(text, facts), ['name buildRetrievalIndex', 'name Bm25Index']);
});

test('passes links to sections that exist, names one whose heading is gone', () => {
  const text = [
    '// The source step (docs/product.md#the-wizard-data-source); see',
    '[the wizards](product.md#the-wizards) and docs/operating.md#troubleshooting, but not',
    '`docs/product.md#the-data-source-step`.',
  ].join('\n');
  assert.deepEqual(brokenSections(text, facts.anchors), [
    'section product.md#the-data-source-step',
  ]);
});

test('the command fails on a guide with a stale route or setting, naming them', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'check-docs-'));
  try {
    const guide = path.join(dir, 'stale.md');
    writeFileSync(guide, 'POST /sql/config/llm-keys with `WORKER_TURBO_MODE=1`.\n');
    const run = spawnSync(process.execPath, [script, '--guide', guide], { encoding: 'utf8' });
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stderr, /route \/sql\/config\/llm-keys/);
    assert.match(run.stderr, /setting WORKER_TURBO_MODE/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the command fails on a guide naming a removed class or section', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'check-docs-'));
  try {
    const guide = path.join(dir, 'stale.md');
    writeFileSync(
      guide,
      'Previews load through `PreviewAgentLoader` ([rules](product.md#preview-rules)).\n',
    );
    const run = spawnSync(process.execPath, [script, '--guide', guide], { encoding: 'utf8' });
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stderr, /stale\.md: name PreviewAgentLoader/);
    assert.match(run.stderr, /stale\.md: section product\.md#preview-rules/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

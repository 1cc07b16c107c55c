import type { LlmTestServer } from '@agentloom/agent-runtime/testing';
import {
  addTextSource,
  embeddedTexts,
  removeSource,
  reportCounts,
  runIndex,
} from '../testing/reindex-check';

/** A source the check adds: longer than a passage (800 characters), so cut into several. */
export const ADDED_TEXT = [
  'Warranty. Every espresso machine sold by the shop carries a two-year warranty that covers ' +
    'the pump, the boiler and the grinder, but not the seals, which wear with use.',
  'Repairs under warranty are free and take about ten working days from the moment the machine ' +
    'reaches the workshop in Ghent; the shop pays for the courier both ways.',
  'Outside the warranty, a repair estimate costs twenty-five euros, deducted from the bill when ' +
    'the owner accepts it, and spare seals are sold in packs of five.',
  'Descaling is the owner’s task: the shop recommends its citric descaler every two months in ' +
    'hard-water regions, and a machine brought in clogged with scale is not repaired for free.',
  'Loan machines are lent while a repair takes more than a week, against a deposit of one ' +
    'hundred euros that is paid back in full when the loan machine comes back clean.',
].join('\n\n');

interface Step {
  step: string;
  ok: boolean;
  detail: string;
}

/**
 * `python -m agent index` run again on a project already indexed (with its real libraries and
 * store): nothing changed, so nothing may be embedded; a text source added as README.md says, so
 * exactly its passages are embedded (every text the embeddings stand-in receives is a piece of
 * it) and the others kept; the source removed again, so its passages leave the store. Its own
 * API key tells its embedding requests apart from the other projects' checks running meanwhile.
 */
export async function reindexSteps(
  python: string,
  dir: string,
  env: Record<string, string>,
  llm: LlmTestServer,
): Promise<Step[]> {
  const key = `sk-reindex-${Math.random().toString(36).slice(2)}`;
  const steps: Step[] = [];
  const index = async () => {
    const from = llm.requests.length;
    const { run, said } = await runIndex(python, dir, { ...env, OPENAI_API_KEY: key });
    if (run.status !== 0) throw new Error(`${said}\n${run.stderr}`);
    return { ...reportCounts(said), said, texts: embeddedTexts(llm, key, from) };
  };

  const unchanged = await index();
  steps.push({
    step: 'index again with nothing changed: nothing embedded',
    ok: unchanged.embedded === 0 && unchanged.removed === 0 && unchanged.texts.length === 0,
    detail: unchanged.said,
  });

  await addTextSource(dir, 'added', 'warranty.txt', ADDED_TEXT);
  const added = await index();
  const pieces = added.texts.filter((text) => ADDED_TEXT.includes(text));
  steps.push({
    step: 'a source added: only its passages embedded',
    ok:
      added.embedded >= 2 &&
      added.texts.length === added.embedded &&
      pieces.length === added.texts.length &&
      added.kept === unchanged.kept &&
      added.removed === 0,
    detail: `${added.said} (${added.texts.length} texts at the embeddings stand-in)`,
  });

  await removeSource(dir, 'added');
  const removed = await index();
  steps.push({
    step: 'the source removed: its passages leave the store',
    ok:
      removed.embedded === 0 &&
      removed.texts.length === 0 &&
      removed.removed === added.embedded &&
      removed.kept === unchanged.kept,
    detail: removed.said,
  });
  return steps;
}

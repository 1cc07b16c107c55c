// The order a jest run with tiers takes its test files in: every `unit` file first (seconds, no
// database), then the others, each tier in jest's own order (failed last time first, then the
// slowest). A broken rule then shows in the first seconds of `npm test`, not after the database
// specs. Plain JavaScript so jest reads it unbuilt.
import Sequencer from '@jest/test-sequencer';

const TestSequencer = Sequencer.default ?? Sequencer;
const tierOf = (test) => (test.context.config.displayName?.name === 'unit' ? 0 : 1);

export default class UnitFirst extends TestSequencer {
  async sort(tests) {
    const ordered = await super.sort(tests);
    // Array.prototype.sort is stable: within a tier, jest's order stands.
    return [...ordered].sort((a, b) => tierOf(a) - tierOf(b));
  }
}

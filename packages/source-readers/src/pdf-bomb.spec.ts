import { readPdfPages } from './pdf';
import { inspectUpload, UnreadableUploadError } from './inspect-upload';
import { fixture, limits, useFixtureDir } from './inspect-upload.spec-helper';
import { inflatingPdf, MB } from './testing/fixtures';

useFixtureDir();

/** The highest resident memory of this process while `work` runs, sampled every 10 ms. */
async function peakRss<T>(
  work: () => Promise<T>,
): Promise<{ peak: number; result: PromiseSettledResult<T> }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const [result] = await Promise.allSettled([work()]);
  clearInterval(timer);
  return { peak: Math.max(peak, process.memoryUsage().rss), result: result };
}

/**
 * Issue 42, finding 2: a 1 MB PDF whose one content stream inflates to 1 GB of spaces took the
 * gateway from 0.5 to 2.6 GB (the parser's heap cap does not bound decoded buffers). Decoded
 * content is now capped as it is decoded.
 */
describe('PDF decompression bombs', () => {
  it('reads a PDF whose streams inflate to 8 MB (under the caps) as usual', async () => {
    const file = await fixture('big.pdf', inflatingPdf(4, 2));
    await expect(readPdfPages(file)).resolves.toEqual([
      expect.stringContaining('Hello bomb'),
      expect.stringContaining('Hello bomb'),
    ]);
  });

  it('refuses a 1 MB PDF whose stream inflates to 1 GB, with a plain message and bounded memory', async () => {
    const bomb = inflatingPdf(1024);
    expect(bomb.length).toBeLessThan(1.5 * MB);
    const file = await fixture('bomb.pdf', bomb);
    const before = process.memoryUsage().rss;
    const { peak, result } = await peakRss(() => inspectUpload(file, 'pdf', limits));
    console.log(
      `PDF bomb (${(bomb.length / MB).toFixed(2)} MB inflating to 1 GB): RSS ${(before / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB (+${((peak - before) / MB).toFixed(0)} MB)`,
    );
    expect(result.status).toBe('rejected');
    const error = (result as PromiseRejectedResult).reason as Error;
    expect(error).toBeInstanceOf(UnreadableUploadError);
    expect(error.message).toBe(
      'The PDF could not be read: its compressed content expands beyond what an upload may unpack (64 MB in one part, 256 MB in all).',
    );
    expect(peak - before).toBeLessThan(400 * MB);
  }, 120_000);

  it('refuses a PDF whose streams, each under the cap, inflate past 256 MB together', async () => {
    const file = await fixture('many.pdf', inflatingPdf(20, 14));
    await expect(readPdfPages(file)).rejects.toThrow(/expands beyond what an upload may unpack/);
  }, 120_000);
});

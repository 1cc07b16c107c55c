import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { chunkText } from './chunking';
import { TEMPLATES_DIR } from './templates';

/** Python's chunk_text from the template, for the same inputs. */
function pythonChunks(cases: { text: string; size: number; overlap: number }[]): string[][] {
  const script = [
    'import importlib.util, json, sys',
    `spec = importlib.util.spec_from_file_location("chunking", ${JSON.stringify(
      path.join(TEMPLATES_DIR, 'rag/agent/chunking.py'),
    )})`,
    'chunking = importlib.util.module_from_spec(spec)',
    'sys.modules["chunking"] = chunking',
    'spec.loader.exec_module(chunking)',
    'cases = json.loads(sys.stdin.read())',
    'print(json.dumps([chunking.chunk_text(c["text"], c["size"], c["overlap"]) for c in cases]))',
  ].join('\n');
  const result = spawnSync('/usr/bin/python3', ['-c', script], {
    input: JSON.stringify(cases),
    encoding: 'utf8',
    // Never leave __pycache__ in the templates folder.
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as string[][];
}

const PROSE = Array.from(
  { length: 80 },
  (_, n) => `Sentence ${n} is about topic ${n % 9}.${n % 10 === 9 ? '\n\n' : ' '}`,
).join('');

describe('chunkText', () => {
  it('cuts at sentence ends, within the size, with overlap', () => {
    const chunks = chunkText(PROSE, 300, 60);

    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(Array.from(chunk).length).toBeLessThanOrEqual(300);
    expect(chunks.every((chunk) => chunk.endsWith('.'))).toBe(true);
    // Each chunk starts with words the previous one ended with.
    for (let i = 1; i < chunks.length; i += 1) {
      expect(chunks[i - 1]).toContain(chunks[i]!.split(' ').slice(0, 2).join(' '));
    }
  });

  it('refuses an overlap as large as the size', () => {
    expect(() => chunkText('x', 10, 10)).toThrow(RangeError);
  });

  it('splits exactly like the generated agent (agent/chunking.py)', () => {
    const cases = [
      { text: PROSE, size: 800, overlap: 100 },
      { text: PROSE, size: 120, overlap: 30 },
      { text: 'x'.repeat(2500), size: 800, overlap: 100 },
      { text: '🤖 emoji and astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 text. '.repeat(60), size: 200, overlap: 40 },
      { text: '  \n\n  padded\tparagraph\n\nsecond\n\n\n', size: 10, overlap: 0 },
      { text: 'line\nbreaks\neverywhere '.repeat(50), size: 64, overlap: 16 },
      { text: '', size: 800, overlap: 100 },
      // Texts that fit one chunk (the common CSV row) take a shorter path; it must agree too.
      { text: '  \tregion: North\namount: 120 \n', size: 800, overlap: 100 },
      { text: ' \n\t ', size: 800, overlap: 100 },
      { text: '𝔘'.repeat(30), size: 40, overlap: 10 },
      { text: '\u00a0non-breaking space stays\u00a0', size: 800, overlap: 100 },
    ];

    expect(cases.map((c) => chunkText(c.text, c.size, c.overlap))).toEqual(pythonChunks(cases));
  });
});

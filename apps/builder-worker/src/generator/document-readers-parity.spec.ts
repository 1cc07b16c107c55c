import { readDocumentFile, type DocumentKind, type TextDocument } from '@agentloom/source-readers';
import {
  GUIDE_MARKDOWN,
  LEGACY_HTML,
  LISTING_HTML,
  PRODUCT_HTML,
  TAG_SOUP_HTML,
  handbookDocx,
  largeDocx,
} from '@agentloom/source-readers/testing';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LOCKS_DIR } from './lock-file';
import { TEMPLATES_DIR } from './templates';
import { universeVenv } from '../testing/python-tools';

/**
 * Agentloom's readers (packages/source-readers, TypeScript) and the generated agent's loaders
 * (agent/loaders.py, with mammoth, markdown-it-py, Beautiful Soup and html5lib as its lock pins
 * them) read the same Word, Markdown and HTML files into the same documents: the same text, cut
 * at the same headings, with the same section, position and title. So the chunks a build ships
 * are the chunks the agent makes itself with `index --rebuild --from-source`.
 */

interface Fixture {
  name: string;
  kind: DocumentKind;
  content: () => Promise<Buffer | string>;
}

const MORE_MARKDOWN = [
  'Setext title',
  '============',
  '',
  '1) paren list',
  '2) second',
  '',
  '* star *nested **strong***',
  '+ plus item with `code | pipe`',
  '',
  '| a | b | c |',
  '|---|---|---|',
  '| 1 | | 3 |',
  '| | | |',
  '',
  '~~struck~~ text\\',
  'after a backslash break &copy; &#169; &unknown;',
  '',
  '<details>',
  '<summary>More</summary>',
  '',
  'Inside details.',
  '',
  '</details>',
  '',
  '## Heading with [link](x) and ![img](y)',
  '',
  '```',
  '',
  '  code with blank first line',
  '```',
  '',
  '- [ ] task',
  '- [x] done',
].join('\r\n');

const FIXTURES: Fixture[] = [
  { name: 'handbook.docx', kind: 'docx', content: handbookDocx },
  { name: 'large.docx', kind: 'docx', content: () => largeDocx(200, 15) },
  { name: 'guide.md', kind: 'markdown', content: () => Promise.resolve(GUIDE_MARKDOWN) },
  { name: 'more.md', kind: 'markdown', content: () => Promise.resolve(`\uFEFF${MORE_MARKDOWN}`) },
  { name: 'product.html', kind: 'html', content: () => Promise.resolve(PRODUCT_HTML) },
  { name: 'legacy.htm', kind: 'html', content: () => Promise.resolve(LEGACY_HTML) },
  { name: 'soup.html', kind: 'html', content: () => Promise.resolve(TAG_SOUP_HTML) },
  { name: 'listing.html', kind: 'html', content: () => Promise.resolve(LISTING_HTML) },
  {
    name: 'undeclared-latin1.html',
    kind: 'html',
    content: () => Promise.resolve(Buffer.from('<p>caf\xe9 <b>cr\xe8me</b></p>', 'latin1')),
  },
  {
    // Browsers read "iso-8859-1" as windows-1252 (0x80 is the euro sign); so must both readers.
    name: 'latin1-label.html',
    kind: 'html',
    content: () =>
      Promise.resolve(Buffer.from('<meta charset="iso-8859-1"><p>\x80 5 \x93ok\x94</p>', 'latin1')),
  },
  {
    name: 'utf16.html',
    kind: 'html',
    content: () =>
      Promise.resolve(Buffer.from('\ufeff<h1>Überschrift</h1><p>Grüße</p>', 'utf16le')),
  },
  {
    name: 'role-main.html',
    kind: 'html',
    content: () =>
      Promise.resolve(
        '<body><div role="banner">Logo</div><div role="main"><h1 hidden>Gone</h1><h1>Kept</h1>' +
          '<dl><dt>Term</dt><dd>Meaning</dd></dl><blockquote>Quote<br><br>after</blockquote>' +
          '<ol start=" 7x"><li>seven</li></ol><ul><li></li><li><p></p>late marker</li></ul>' +
          '<table><tr><th><h3>Cell heading</h3></th><td>v&nbsp;1</td></tr></table></div>' +
          '<main><p>second main ignored</p></main></body>',
      ),
  },
];

/** Runs agent/loaders.py's FILE_READERS over the files, in the main lock's environment. */
function pythonDocuments(dir: string, files: { path: string; kind: string }[]): TextDocument[][] {
  const python = universeVenv(path.join(LOCKS_DIR, 'main.lock'));
  const script = [
    'import json, sys',
    'from pathlib import Path',
    `sys.path.insert(0, ${JSON.stringify(dir)})`,
    'from agent.loaders import FILE_READERS',
    'def plain(document):',
    '    fields = ("text", "section", "position", "title")',
    '    return {k: getattr(document, k) for k in fields if getattr(document, k) is not None}',
    'files = json.loads(sys.stdin.read())',
    'print(json.dumps([[plain(d) for d in FILE_READERS[f["kind"]](Path(f["path"]), "x", {})]',
    '                  for f in files]))',
  ].join('\n');
  const result = spawnSync(python, ['-c', script], {
    input: JSON.stringify(files),
    encoding: 'utf8',
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as TextDocument[][];
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'agentloom-readers-parity-'));
  // The loaders as a project ships them: agent/ holds loaders.py, chunking.py and config.py.
  await mkdir(path.join(dir, 'agent'));
  await writeFile(path.join(dir, 'agent', '__init__.py'), '');
  for (const [from, to] of [
    ['rag/agent/loaders.py', 'loaders.py'],
    ['rag/agent/chunking.py', 'chunking.py'],
    ['common/agent/config.py', 'config.py'],
  ] as const) {
    await copyFile(path.join(TEMPLATES_DIR, from), path.join(dir, 'agent', to));
  }
  for (const fixture of FIXTURES) {
    await writeFile(path.join(dir, fixture.name), await fixture.content());
  }
}, 600_000); // the first run makes the lock's virtual environment

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the Word, Markdown and HTML readers of Agentloom and of the generated agent', () => {
  it('read every fixture into the same documents', async () => {
    const files = FIXTURES.map((fixture) => ({
      path: path.join(dir, fixture.name),
      kind: fixture.kind,
    }));
    const python = pythonDocuments(dir, files);
    for (const [index, fixture] of FIXTURES.entries()) {
      const typescript = await readDocumentFile(files[index]!.path, fixture.kind);
      expect(typescript.length).toBeGreaterThan(0);
      expect({ file: fixture.name, documents: python[index] }).toEqual({
        file: fixture.name,
        documents: typescript,
      });
    }
  }, 120_000);
});

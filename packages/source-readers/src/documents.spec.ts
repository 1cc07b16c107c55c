import { DEFAULT_DOCUMENT_LIMITS, inspectDocument, readDocumentFile } from './documents';
import { expectRejection, fixture, useFixtureDir } from './inspect-upload.spec-helper';
import {
  GUIDE_MARKDOWN,
  LEGACY_HTML,
  LISTING_HTML,
  MB,
  PRODUCT_HTML,
  TAG_SOUP_HTML,
  deflated,
  deflatedZeros,
  handbookDocx,
  largeDocx,
  twoPagePdf,
  zip,
  type ZipEntry,
} from './testing/fixtures';
import { UnreadableUploadError, UnsupportedUploadError } from './upload-errors';

useFixtureDir();

const TITLE = 'Trail Jacket – Zürich Outfitters';

/** The smallest package Word and mammoth accept, around one document part. */
function docxEntries(document: ZipEntry): ZipEntry[] {
  return [
    deflated(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    deflated(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    document,
  ];
}

const paragraphXml = (text: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`;

describe('Word documents', () => {
  it('are cut into sections at their headings, each with its heading and position', async () => {
    const file = await fixture('handbook.docx', await handbookDocx());
    const documents = await readDocumentFile(file, 'docx');
    expect(documents.map(({ section, position }) => [section, position])).toEqual([
      ['Staff handbook', 1], // the Title style counts as the first heading
      ['Refunds', 2],
      ['Exceptions', 3],
      ['Steps', 4],
      ['Prices', 5],
      // 6 is "Empty heading section": a heading with nothing under it is no passage.
      ['Examples', 7],
      ['Examples', 8],
    ]);
    expect(documents[0]!.text).toBe(
      'Staff handbook\n\nWelcome to Zürich Outfitters — read this first.',
    );
    expect(documents[1]!.text).toBe(
      'Refunds\n\nRefunds take 5 days[1] after we receive the parcel.',
    );
    expect(documents[2]!.text).toBe(
      'Exceptions\n\n- Gift cards are final.\n- Sale items: store credit only.\n- Opened software.',
    );
    expect(documents[3]!.text).toBe('Steps\n\n1. Check the receipt.\n2. Refund the card.');
    expect(documents[4]!.text).toBe(
      'Prices\n\nPlan | Monthly | Notes\nBasic | €9 |\nPro | €20 | Includes support\n\nQuestions: see our help centre.',
    );
    // Footnotes come last, without mammoth's "↑" links back to their references.
    expect(documents[6]!.text).toBe(
      'Examples\n\nSecond example: 😀 emoji and “quotes” survive.\n\n1. Counted in working days.',
    );
    expect(documents.every((document) => document.title === undefined)).toBe(true);
  });

  it('say what they hold when checked at upload', async () => {
    const file = await fixture('summary.docx', await handbookDocx());
    await expect(inspectDocument(file, 'docx')).resolves.toEqual({
      kind: 'docx',
      sections: 7,
      characters: expect.any(Number),
      headings: ['Staff handbook', 'Refunds', 'Exceptions', 'Steps', 'Prices', 'Examples'],
    });
  });

  it('are recognised by their content, never by their name', async () => {
    const pdf = await fixture('report.docx', await twoPagePdf());
    await expectRejection(
      readDocumentFile(pdf, 'docx'),
      UnsupportedUploadError,
      'The file is not a Word document (.docx).',
    );
    const workbook = await fixture('book.docx', zip([deflated('xl/workbook.xml', '<workbook/>')]));
    await expectRejection(
      readDocumentFile(workbook, 'docx'),
      UnsupportedUploadError,
      'The file is not a Word document (.docx).',
    );
    const legacy = await fixture(
      'old.docx',
      Buffer.concat([Buffer.from('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1', 'latin1'), Buffer.alloc(512)]),
    );
    await expectRejection(
      readDocumentFile(legacy, 'docx'),
      UnsupportedUploadError,
      /older Word file \(\.doc\): open it in Word or LibreOffice, save it as \.docx/,
    );
  });

  it('that are damaged are reported as unreadable', async () => {
    const truncated = (await handbookDocx()).subarray(0, 2000);
    const file = await fixture('truncated.docx', truncated);
    await expectRejection(
      readDocumentFile(file, 'docx'),
      UnreadableUploadError,
      /^The Word document could not be read: /,
    );
    const badXml = await fixture(
      'bad-xml.docx',
      zip(docxEntries(deflated('word/document.xml', '<w:document><w:body><w:p>'))),
    );
    await expectRejection(
      readDocumentFile(badXml, 'docx'),
      UnreadableUploadError,
      /^The Word document could not be read: /,
    );
  });

  it('with no text at all are refused at upload', async () => {
    const file = await fixture(
      'blank.docx',
      zip(docxEntries(deflated('word/document.xml', paragraphXml('')))),
    );
    await expect(readDocumentFile(file, 'docx')).resolves.toEqual([]);
    await expectRejection(
      inspectDocument(file, 'docx'),
      UnreadableUploadError,
      'The Word document has no text.',
    );
  });

  it('refuse a zip bomb from its central directory, before inflating anything', async () => {
    const bomb: ZipEntry = {
      name: 'word/document.xml',
      data: deflatedZeros(300),
      uncompressedSize: 300 * MB,
    };
    const file = await fixture('bomb.docx', zip(docxEntries(bomb)));
    await expectRejection(
      readDocumentFile(file, 'docx'),
      UnsupportedUploadError,
      'The document expands to more than 64 MB when unpacked, beyond the limit for uploads.',
    );
    const dense: ZipEntry = { ...bomb, data: deflatedZeros(20), uncompressedSize: 20 * MB };
    await expectRejection(
      readDocumentFile(await fixture('dense.docx', zip(docxEntries(dense))), 'docx'),
      UnsupportedUploadError,
      'The document part "word/document.xml" is compressed more than 200 times',
    );
  });

  it('stop a part whose header understates its size as soon as it passes it', async () => {
    const liar: ZipEntry = {
      name: 'word/document.xml',
      data: deflatedZeros(200),
      uncompressedSize: 1024,
    };
    const file = await fixture('liar.docx', zip(docxEntries(liar)));
    const before = process.memoryUsage().rss;
    await expectRejection(
      readDocumentFile(file, 'docx'),
      UnreadableUploadError,
      /^The Word document could not be read: too many bytes in the stream\. expected 1024/,
    );
    // 200 MB of zeros were never held: inflating stopped a chunk after the declared kilobyte.
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * MB);
  });

  it('are read whole within the limit, and refused past it', async () => {
    const file = await fixture('large.docx', await largeDocx(400));
    await expect(readDocumentFile(file, 'docx')).resolves.toHaveLength(400);
    await expectRejection(
      readDocumentFile(file, 'docx', {
        ...DEFAULT_DOCUMENT_LIMITS,
        docxMaxUncompressedBytes: 64 * 1024,
      }),
      UnsupportedUploadError,
      'The document expands to more than 64 KB when unpacked, beyond the limit for uploads.',
    );
  }, 30_000);
});

describe('Markdown files', () => {
  it('are cut into sections at their headings', async () => {
    const file = await fixture('guide.md', `\uFEFF${GUIDE_MARKDOWN}`);
    const documents = await readDocumentFile(file, 'markdown');
    expect(documents).toEqual([
      // The front matter is metadata, not a section.
      {
        text: 'Intro paragraph before any heading, wrapped over two lines with emphasis and code.',
      },
      {
        section: 'Installing',
        position: 1,
        text: 'Installing\n\nRun the installer. It takes about 2 minutes & needs no reboot.\nA hard break came before this line.\n\nnpm install agentloom\n  indented line',
      },
      {
        section: 'Requirements',
        position: 2,
        text: 'Requirements\n\n- Node 24\n- 2 GB of memory\n- more for large sites\n- A database:\nPostgres or MariaDB.\n3. third step\n4. fourth step',
      },
      {
        section: 'Setext heading',
        position: 3,
        // Raw HTML is markup, not text: the centred logo and <kbd> leave no trace.
        text: 'Setext heading\n\nPlan | Price\nBasic | €9\nPro | €20\n\nQuoted advice stays text.\n\nArchitecture diagram and a link with Ctrl.',
      },
      {
        section: 'Requirements',
        position: 4,
        text: 'Requirements\n\nA second section with the same heading.',
      },
      // An empty "#" is no heading; "### Empty section" (5) has nothing under it.
      { section: 'Last', position: 6, text: 'Last\n\nindented code block' },
    ]);
  });

  it('must be UTF-8 text, and not a whole HTML page', async () => {
    await expectRejection(
      readDocumentFile(await fixture('scan.md', await twoPagePdf()), 'markdown'),
      UnsupportedUploadError,
      'The file is not a Markdown file: it looks like a binary file.',
    );
    await expectRejection(
      readDocumentFile(
        await fixture('latin1.md', Buffer.from('# Caf\xe9\n', 'latin1')),
        'markdown',
      ),
      UnsupportedUploadError,
      'The file is not a Markdown file: it is not UTF-8 text.',
    );
    await expectRejection(
      readDocumentFile(await fixture('nul.md', '# a\0b\n'), 'markdown'),
      UnsupportedUploadError,
      'The file is not a Markdown file: it contains NUL bytes.',
    );
    await expectRejection(
      readDocumentFile(await fixture('page.md', PRODUCT_HTML), 'markdown'),
      UnsupportedUploadError,
      'The file is not a Markdown file: it is an HTML page.',
    );
  });

  it('are read no further than the limit', async () => {
    const file = await fixture('huge.md', `# Big\n\n${'word '.repeat(300_000)}\n`);
    await expectRejection(
      readDocumentFile(file, 'markdown', { ...DEFAULT_DOCUMENT_LIMITS, textMaxBytes: MB }),
      UnsupportedUploadError,
      'The Markdown file is larger than 1 MB, the most read from one file; split it into smaller files.',
    );
    await expect(readDocumentFile(file, 'markdown')).resolves.toHaveLength(1);
  });

  it('with only headings and markup are refused at upload', async () => {
    const file = await fixture('empty.md', '# Title\n\n<div></div>\n');
    await expectRejection(
      inspectDocument(file, 'markdown'),
      UnreadableUploadError,
      'The Markdown file has no text.',
    );
  });
});

describe('HTML files', () => {
  it('keep the main content, cut at its headings, and drop scripts, styles and page furniture', async () => {
    const file = await fixture('product.html', PRODUCT_HTML);
    const documents = await readDocumentFile(file, 'html');
    expect(documents).toEqual([
      {
        title: TITLE,
        section: 'Trail Jacket',
        position: 1,
        text: 'Trail Jacket\n\nUpdated weekly\n\nA light jacket for wet hikes.\nPacks into its own pocket.',
      },
      {
        title: TITLE,
        section: 'Sizes',
        position: 2,
        text: 'Sizes\n\nFit guide\n\nSize | Chest (cm)\nM | 96–100\nL (tall) | 104',
      },
      {
        title: TITLE,
        section: 'Care',
        position: 3,
        text: 'Care\n\n2. Wash cold.\n3. Hang dry.\nNever iron.\n- Reproof yearly\n- with spray\n\ncare code: W30\n    tumble: no\n\nQuantity',
      },
      {
        title: TITLE,
        section: 'Care',
        position: 4,
        text: 'Care\n\nSecond care section: spot clean stains.\n\nArticle footer stays.',
      },
    ]);
    const all = documents.map((document) => document.text).join('\n');
    for (const furniture of [
      'SHOULD NOT APPEAR',
      'Jackets',
      'Sale banner',
      'Zürich Outfitters\n',
    ]) {
      expect(all).not.toContain(furniture);
    }
  });

  it('take the only article when there is no <main>, and the body when there are several', async () => {
    const legacy = await readDocumentFile(await fixture('legacy.html', LEGACY_HTML), 'html');
    expect(legacy).toEqual([
      {
        title: 'Café menu',
        section: 'Café crème',
        position: 1,
        // windows-1252, as its meta tag says: €, en dash and curly quotes included.
        text: 'Café crème\n\n€ 3,50 – with “foam”.\n\nTeas',
      },
    ]);
    const listing = await readDocumentFile(await fixture('listing.html', LISTING_HTML), 'html');
    expect(listing.map((document) => document.text)).toEqual([
      'First story\n\nStory one.',
      'Second story\n\nStory two.\n\nBy Ana',
    ]);
  });

  it('are read as a browser repairs them', async () => {
    const documents = await readDocumentFile(await fixture('soup.html', TAG_SOUP_HTML), 'html');
    expect(documents.map(({ section, position, text }) => [section, position, text])).toEqual([
      [undefined, undefined, 'First para\n\nSecond bold both italic after\n\n- one\n- two'],
      ['Heading two', 1, 'Heading two\n\nstray text\n\na | b\n\nBlock end'],
      ['Dup', 2, 'Dup\n\nx'],
      ['Dup', 3, 'Dup\n\ny'],
    ]);
  });

  it('are recognised by their content', async () => {
    await expectRejection(
      readDocumentFile(await fixture('report.html', await twoPagePdf()), 'html'),
      UnsupportedUploadError,
      'The file is not an HTML file: it looks like a binary file.',
    );
    await expectRejection(
      readDocumentFile(await fixture('notes.html', 'Just some notes.\n'), 'html'),
      UnsupportedUploadError,
      'The file is not an HTML file: it does not start with markup.',
    );
  });

  it('are read no further than the limit, and refused at upload when they hold no text', async () => {
    const file = await fixture('huge.html', `<p>${'word '.repeat(300_000)}</p>`);
    await expectRejection(
      readDocumentFile(file, 'html', { ...DEFAULT_DOCUMENT_LIMITS, textMaxBytes: MB }),
      UnsupportedUploadError,
      'The HTML file is larger than 1 MB, the most read from one file; split it into smaller files.',
    );
    const empty = await fixture('scripts.html', '<script>alert(1)</script><nav>Home</nav>');
    await expectRejection(
      inspectDocument(empty, 'html'),
      UnreadableUploadError,
      'The HTML file has no text.',
    );
    await expect(inspectDocument(await fixture('p.html', PRODUCT_HTML), 'html')).resolves.toEqual({
      kind: 'html',
      sections: 4,
      characters: expect.any(Number),
      headings: ['Trail Jacket', 'Sizes', 'Care'],
      title: TITLE,
    });
  });
});

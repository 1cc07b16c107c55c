// Prose files the tests write themselves: Word documents made with the `docx` package (the
// library many apps use to write .docx files Word opens), and Markdown and HTML written as
// people and site generators write them. The parity test feeds the same files to the generated
// agent's Python loaders.
import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  PageBreak,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { deflateSync } from 'node:zlib';

/** A 1×1 PNG, so a document can carry a real image part. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A staff handbook as an office writes one: a title, headings of three levels, bold and italic
 * runs, a footnote, bulleted and numbered lists, a table, a link, an image, a page break, a
 * heading with nothing under it, and two sections with the same heading.
 */
export async function handbookDocx(): Promise<Buffer> {
  const document = new Document({
    numbering: {
      config: [
        {
          reference: 'steps',
          levels: [
            {
              level: 0,
              format: LevelFormat.DECIMAL,
              text: '%1.',
              alignment: AlignmentType.START,
            },
          ],
        },
      ],
    },
    footnotes: { 1: { children: [new Paragraph('Counted in working days.')] } },
    sections: [
      {
        children: [
          new Paragraph({ text: 'Staff handbook', heading: HeadingLevel.TITLE }),
          new Paragraph('Welcome to Zürich Outfitters — read this first.'),
          new Paragraph({ text: 'Refunds', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun('Refunds take '),
              new TextRun({ text: '5 days', bold: true }),
              new FootnoteReferenceRun(1),
              new TextRun({ text: ' after we receive the parcel.', italics: true }),
            ],
          }),
          new Paragraph({ text: 'Exceptions', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Gift cards are final.', bullet: { level: 0 } }),
          new Paragraph({ text: 'Sale items: store credit only.', bullet: { level: 0 } }),
          new Paragraph({ text: 'Opened software.', bullet: { level: 1 } }),
          new Paragraph({ text: 'Steps', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({
            text: 'Check the receipt.',
            numbering: { reference: 'steps', level: 0 },
          }),
          new Paragraph({ text: 'Refund the card.', numbering: { reference: 'steps', level: 0 } }),
          ...handbookPrices(),
          new Paragraph({ text: 'Empty heading section', heading: HeadingLevel.HEADING_3 }),
          new Paragraph({ text: 'Examples', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('First example: a jacket returned after 3 days.'),
          new Paragraph({ text: 'Examples', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Second example: 😀 emoji and “quotes” survive.'),
        ],
      },
    ],
  });
  return Packer.toBuffer(document);
}

/** The handbook's table, link, image and page break. */
function handbookPrices(): (Paragraph | Table)[] {
  return [
    new Paragraph({ text: 'Prices', heading: HeadingLevel.HEADING_1 }),
    new Table({
      rows: [
        row(['Plan', 'Monthly', 'Notes']),
        row(['Basic', '€9', '']),
        row(['Pro', '€20', 'Includes support']),
      ],
    }),
    new Paragraph({
      children: [
        new TextRun('Questions: see '),
        new ExternalHyperlink({
          children: [new TextRun('our help centre')],
          link: 'https://help.example.com/refunds',
        }),
        new TextRun('.'),
      ],
    }),
    new Paragraph({
      children: [
        new ImageRun({
          type: 'png',
          data: tinyPng(),
          transformation: { width: 10, height: 10 },
          altText: { name: 'logo', description: 'Company logo', title: 'Logo' },
        }),
      ],
    }),
    new Paragraph({ children: [new PageBreak()] }),
  ];
}

function row(cells: string[]): TableRow {
  return new TableRow({
    children: cells.map((text) => new TableCell({ children: [new Paragraph(text)] })),
  });
}

/** A Word document of `paragraphs` headed sections of `words` words each. */
export async function largeDocx(paragraphs: number, words = 40): Promise<Buffer> {
  const children: Paragraph[] = [];
  for (let index = 0; index < paragraphs; index += 1) {
    children.push(new Paragraph({ text: `Topic ${index}`, heading: HeadingLevel.HEADING_2 }));
    children.push(new Paragraph(Array.from({ length: words }, (_, w) => `word${w}`).join(' ')));
  }
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/** A project README with everything Markdown writers use. */
export const GUIDE_MARKDOWN = [
  '---',
  'title: Install guide',
  'tags: [setup]',
  '---',
  '',
  'Intro paragraph before any heading,',
  'wrapped over two lines with *emphasis* and `code`.',
  '',
  '# Installing',
  '',
  'Run the installer. It takes about 2 minutes &amp; needs no reboot.  ',
  'A hard break came before this line.',
  '',
  '```bash',
  'npm install agentloom',
  '  indented line',
  '```',
  '',
  '## Requirements',
  '',
  '- Node 24',
  '- 2 GB of memory',
  '  - more for large sites',
  '- A database:',
  '',
  '  Postgres or MariaDB.',
  '',
  '3. third step',
  '4. fourth step',
  '',
  'Setext heading',
  '--------------',
  '',
  '| Plan | Price |',
  '|------|------:|',
  '| Basic | €9 |',
  '| Pro | €20 |',
  '',
  '> Quoted advice stays text.',
  '',
  '<div align="center"><img src="logo.png"></div>',
  '',
  '![Architecture diagram](diagram.png) and a [link](https://example.com) with <kbd>Ctrl</kbd>.',
  '',
  '## Requirements',
  '',
  'A second section with the same heading.',
  '',
  '#',
  '',
  '### Empty section',
  '',
  '## Last',
  '',
  '    indented code block',
  '',
].join('\n');

/** A product page as a site generator writes it: banner, navigation, main content, footer. */
export const PRODUCT_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>  Trail Jacket &ndash; Zürich Outfitters </title>
  <style>body { color: red }</style>
  <script>var tracking = "SHOULD NOT APPEAR";</script>
</head>
<body>
  <header class="site">
    <a href="/">Zürich Outfitters</a>
    <nav><ul><li><a href="/jackets">Jackets</a></li><li><a href="/boots?size=42#top">Boots</a></li></ul></nav>
  </header>
  <div role="navigation"><a href="/sale">Sale banner link</a></div>
  <main>
    <article>
      <header><h1>Trail Jacket</h1><p class="byline">Updated weekly</p></header>
      <p>A light jacket for <strong>wet</strong> hikes.<br>Packs into its own pocket.</p>
      <p>&nbsp;</p>
      <h2>Sizes</h2>
      <table>
        <caption>Fit guide</caption>
        <thead><tr><th>Size</th><th>Chest (cm)</th></tr></thead>
        <tbody><tr><td>M</td><td>96&ndash;100</td></tr><tr><td><p>L</p><p>(tall)</p></td><td>104</td></tr></tbody>
      </table>
      <h2>Care</h2>
      <ol start="2"><li>Wash cold.</li><li><p>Hang dry.</p><p>Never iron.</p></li></ol>
      <ul><li>Reproof yearly<ul><li>with spray</li></ul></li></ul>
      <pre>  care code: W30
    tumble: no</pre>
      <div hidden>Hidden text SHOULD NOT APPEAR</div>
      <span aria-hidden="true">★</span>
      <noscript>Enable JavaScript SHOULD NOT APPEAR</noscript>
      <svg><title>Icon title SHOULD NOT APPEAR</title><text>svg text</text></svg>
      <template><p>Template SHOULD NOT APPEAR</p></template>
      <form><label>Quantity <input value="1"></label><button>Add to cart</button><select><option>Red</option></select></form>
      <h3>   </h3>
      <h2>Care</h2>
      <p>Second care section: spot clean <a href="stains.html">stains</a>.</p>
      <footer>Article footer stays.</footer>
    </article>
    <aside>Related products SHOULD NOT APPEAR</aside>
  </main>
  <footer><p>© 2026 SHOULD NOT APPEAR</p><a href="https://elsewhere.example/privacy">Privacy</a></footer>
  <script>document.write("SHOULD NOT APPEAR")</script>
</body>
</html>
`;

/** Old pages: windows-1252 declared in a meta tag, no <main>, one article, a base href. */
export const LEGACY_HTML = Buffer.from(
  `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">
<title>Caf\xe9 menu</title><base href="https://cafe.example/menu/"></head>
<body><div id="top">Top bar text</div>
<article><h2>Caf\xe9 cr\xe8me</h2><p>\x80 3,50 \x96 with \x93foam\x94.</p><a href="drinks.html#tea">Teas</a></article>
</body></html>`,
  'latin1',
);

/**
 * Tag soup a browser repairs: unclosed paragraphs and items, a table inside a paragraph, stray
 * end tags, a misnested inline element, text straight in a table. Both parsers follow the HTML
 * standard's repair rules, so both see the same tree.
 */
export const TAG_SOUP_HTML = `<title>Soup</title>
<p>First para
<p>Second <b>bold <i>both</b> italic</i> after
<ul><li>one<li>two</ul>
<h2>Heading <em>two</em></h2></p>
<table>stray text<tr><td>a<td>b</table>
<div>Block</span> end</div>
<h3>Dup</h3><p>x</p><h3>Dup</h3><p>y</p>
`;

/** Several articles and no <main>: the body is the content, the articles' own headers kept. */
export const LISTING_HTML = `<!doctype html><title>News</title><body>
<header><h1>Site name</h1></header>
<article><header><h2>First story</h2></header><p>Story one.</p></article>
<article><h2>Second story</h2><p>Story two.</p><footer>By Ana</footer></article>
<div role="contentinfo">Contact SHOULD NOT APPEAR</div>
</body>`;

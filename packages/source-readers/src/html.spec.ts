import { decodeHtml, readHtmlPage } from './html';
import { LEGACY_HTML, PRODUCT_HTML } from './testing/fixtures';

describe('readHtmlPage', () => {
  it("lists every link of the page, navigation included, resolved against the page's address", () => {
    const page = readHtmlPage(PRODUCT_HTML, { url: 'https://shop.example/jackets/trail' });
    expect(page.links).toEqual([
      'https://shop.example/',
      'https://shop.example/jackets',
      'https://shop.example/boots?size=42#top',
      'https://shop.example/sale',
      'https://shop.example/jackets/stains.html',
      'https://elsewhere.example/privacy',
    ]);
    expect(page.title).toBe('Trail Jacket – Zürich Outfitters');
    expect(page.robots).toEqual({ noindex: false, nofollow: false });
  });

  it('resolves links against the first <base href>, and skips what is no address', () => {
    const page = readHtmlPage(
      '<base href="/docs/"><base href="/ignored/"><a href="a.html">a</a><a href="http://[bad">x</a>' +
        '<a href=" b.html ">b</a><a href="a.html">again</a><a name="anchor">no href</a>',
      { url: 'https://site.example/start' },
    );
    expect(page.links).toEqual([
      'https://site.example/docs/a.html',
      'https://site.example/docs/b.html',
    ]);
  });

  it('reads the robots meta tag', () => {
    const page = (content: string) =>
      readHtmlPage(`<meta name="ROBOTS" content="${content}"><p>x</p>`).robots;
    expect(page('noindex')).toEqual({ noindex: true, nofollow: false });
    expect(page('index, nofollow')).toEqual({ noindex: false, nofollow: true });
    expect(page('none')).toEqual({ noindex: true, nofollow: true });
  });

  it('has no title when the page names none, and lists no links without its address', () => {
    const page = readHtmlPage('<title>  </title><p>Body <a href="/x">x</a></p>');
    expect(page.title).toBeUndefined();
    expect(page.links).toEqual([]);
    expect(page.documents).toEqual([{ text: 'Body x' }]);
  });
});

describe('decodeHtml', () => {
  it('follows the byte-order mark, then the transport, then <meta charset>, then UTF-8', () => {
    expect(decodeHtml(LEGACY_HTML)).toContain('Café crème');
    const utf8 = Buffer.from('<p>Café</p>');
    expect(decodeHtml(utf8)).toBe('<p>Café</p>');
    // A server that says windows-1252 is believed over the bytes.
    expect(decodeHtml(utf8, 'windows-1252')).toBe('<p>CafÃ©</p>');
    expect(decodeHtml(Buffer.from('\ufeff<p>é</p>', 'utf16le'))).toBe('<p>é</p>');
  });

  it('falls back to windows-1252 when undeclared bytes are not UTF-8', () => {
    expect(decodeHtml(Buffer.from('<p>caf\xe9</p>', 'latin1'))).toBe('<p>café</p>');
  });
});

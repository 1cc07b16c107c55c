import { sanitizeOriginalName } from './inspect-upload';

describe('sanitizeOriginalName', () => {
  it('keeps only the last path segment', () => {
    expect(sanitizeOriginalName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeOriginalName('C:\\Users\\ada\\report.pdf')).toBe('report.pdf');
    expect(sanitizeOriginalName('a/b\\c.csv')).toBe('c.csv');
  });

  it('removes NUL, control and bidi characters and trims', () => {
    expect(sanitizeOriginalName('  rep\u0000ort\n\t.txt  ')).toBe('report.txt');
    expect(sanitizeOriginalName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
  });

  it('falls back to "upload" when nothing is left', () => {
    for (const name of ['', '   ', 'dir/', '\u0000\u001f', '..', '../..']) {
      expect(sanitizeOriginalName(name)).toBe('upload');
    }
  });

  it('shortens long names to 120 characters, keeping the extension', () => {
    const result = sanitizeOriginalName(`${'a'.repeat(300)}.xlsx`);
    expect(result).toBe(`${'a'.repeat(115)}.xlsx`);
  });

  it('never splits a surrogate pair when shortening', () => {
    const result = sanitizeOriginalName(`${'😀'.repeat(100)}.csv`);
    expect(result).toBe(`${'😀'.repeat(58)}.csv`);
  });

  it('treats a very long "extension" as part of the name', () => {
    expect(sanitizeOriginalName(`x.${'b'.repeat(200)}`)).toBe(`x.${'b'.repeat(118)}`);
  });
});

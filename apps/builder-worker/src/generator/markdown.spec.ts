import { markdownText } from './markdown';

describe('markdownText', () => {
  it('keeps user text on one line and literal', () => {
    expect(markdownText('a\nb\r\n*c* `d` [e](f) <g> # h | i')).toBe(
      'a b \\*c\\* \\`d\\` \\[e\\](f) \\<g\\> \\# h \\| i',
    );
  });
});

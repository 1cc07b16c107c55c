/**
 * Text from users shown inline in generated Markdown (README): on one line, with the
 * characters that could start code, emphasis, a link, an HTML tag or entity, a table cell,
 * math or a heading's closing sequence backslash-escaped. It reads as typed and cannot break
 * the surrounding document. (Never at the start of a line, so list markers need no escaping.)
 */
export function markdownText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000a-\u001f\u007f\u0085\u2028\u2029]+/g, ' ')
      .replace(/[\t ]+/g, ' ')
      .trim()
      .replace(/[\\`*_[\]<>#|!~$&]/g, (char) => `\\${char}`)
  );
}

/** A Markdown table row; cells are inserted as given (escape user text first). */
export function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

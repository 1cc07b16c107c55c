import type { TUploadSummary } from '@agentloom/contracts';

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/**
 * What the gateway read in an upload, said before the wizard moves on (issue 43, item 6): "Read
 * 500 rows, 6 columns", "Read 12 pages" — a file that reads as 0 rows is seen at once, not at the
 * build.
 */
export function uploadReadLine(summary: TUploadSummary): string {
  switch (summary.kind) {
    case 'csv':
      return `Read ${count(summary.rows, 'row', 'rows')}, ${count(summary.columns.length, 'column', 'columns')}`;
    case 'excel':
      return `Read ${count(summary.rows, 'row', 'rows')}, ${count(summary.columns.length, 'column', 'columns')} from sheet “${summary.sheet}”`;
    case 'pdf':
      return `Read ${count(summary.pages, 'page', 'pages')}`;
    case 'text_file':
      return `Read ${count(summary.lines, 'line', 'lines')}`;
    case 'docx':
    case 'markdown':
    case 'html':
      return `Read ${count(summary.sections, 'section', 'sections')}`;
  }
}

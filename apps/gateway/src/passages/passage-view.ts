import { citationOf, type PassageRead } from '@agentloom/agent-runtime';
import type {
  TChunkLine,
  TPassageKind,
  TPassageNeighbour,
  TPassageView,
} from '@agentloom/contracts';

/**
 * What the citation viewer shows of a passage read from a build's index: a table's row among
 * its neighbours with the column names, a page's text or a web page's passages with the cited
 * one's place in it, or the passage between the ones before and after it.
 */
export function passageView(buildId: string, read: PassageRead): TPassageView {
  const { chunk, neighbours } = read;
  const kind = kindOf(chunk);
  const shown = neighbours.map((item) => neighbourOf(item, item.id === chunk.id, kind));
  const columns: string[] = [];
  for (const item of shown) {
    for (const cell of item.cells ?? [])
      if (!columns.includes(cell.column)) columns.push(cell.column);
  }
  const joined = kind === 'page' || kind === 'web' ? joinPassages(neighbours, chunk.id) : null;
  return {
    id: chunk.id,
    build_id: buildId,
    kind,
    citation: citationOf(chunk),
    source: chunk.source,
    row: chunk.row ?? null,
    page: chunk.page ?? null,
    ref: chunk.ref ?? null,
    url: chunk.url ?? null,
    section: chunk.section ?? null,
    text: chunk.text,
    columns,
    neighbours: shown,
    context: joined?.text ?? null,
    highlight: joined?.highlight ?? null,
  };
}

function kindOf(chunk: TChunkLine): TPassageKind {
  if (chunk.row !== undefined) return 'row';
  if (chunk.page !== undefined) return 'page';
  if (chunk.url !== undefined) return 'web';
  return 'text';
}

function neighbourOf(chunk: TChunkLine, cited: boolean, kind: TPassageKind): TPassageNeighbour {
  return {
    id: chunk.id,
    citation: citationOf(chunk),
    text: chunk.text,
    row: chunk.row ?? null,
    page: chunk.page ?? null,
    cells: kind === 'row' ? cellsOf(chunk.text) : null,
    cited,
  };
}

/** A row's "column: value" lines (how the build writes a table's or a spreadsheet's row). */
export function cellsOf(text: string): TPassageNeighbour['cells'] {
  const cells: { column: string; value: string }[] = [];
  for (const line of text.split('\n')) {
    const match = /^([^:\n]{1,120}): ?(.*)$/.exec(line);
    if (!match) {
      // A value running over lines belongs to the cell above it.
      const last = cells.at(-1);
      if (!last) return null;
      last.value += `\n${line}`;
      continue;
    }
    cells.push({ column: match[1]!.trim(), value: match[2]! });
  }
  return cells.length > 0 ? cells : null;
}

/** The shortest overlap two passages cut from one text are taken to share. */
const MIN_OVERLAP = 12;

/**
 * A page's passages as one text: consecutive passages overlap (a chunk repeats the end of the
 * one before), so the overlap is written once; where the cited passage lies in it.
 */
export function joinPassages(
  passages: TChunkLine[],
  citedId: string,
): { text: string; highlight: { start: number; end: number } } {
  let text = '';
  let highlight = { start: 0, end: 0 };
  for (const passage of passages) {
    const overlap = text === '' ? 0 : overlapOf(text, passage.text);
    const start =
      overlap >= MIN_OVERLAP ? text.length - overlap : text === '' ? 0 : text.length + 2;
    text =
      overlap >= MIN_OVERLAP
        ? text + passage.text.slice(overlap)
        : text === ''
          ? passage.text
          : `${text}\n\n${passage.text}`;
    if (passage.id === citedId) highlight = { start, end: start + passage.text.length };
  }
  return { text, highlight };
}

/** The length of the longest end of `before` that `after` starts with. */
function overlapOf(before: string, after: string): number {
  const most = Math.min(before.length, after.length);
  for (let length = most; length >= MIN_OVERLAP; length -= 1) {
    if (before.endsWith(after.slice(0, length))) return length;
  }
  return 0;
}

import { z } from 'zod';
import { routePath } from './routes';
import { zText } from './text';

/**
 * Citations you can open: the passage an answer cites, read from the build's own copy of its
 * source (the hosted index's segments), with what surrounds it — a table's neighbouring rows
 * and column names, a PDF page's whole text, a web page's passages and its address.
 */

/** How the viewer shows a passage: a table's row, a document's page, a web page, plain text. */
export const ZPassageKind = z.enum(['row', 'page', 'web', 'text']);
export type TPassageKind = z.infer<typeof ZPassageKind>;

/** One cell of a row passage ("column: value" lines, as the build wrote the row). */
export const ZPassageCell = z.object({ column: zText(), value: zText() });

/** The cited passage or one of its neighbours, in the source's order. */
export const ZPassageNeighbour = z.object({
  id: zText(),
  citation: zText(),
  text: zText(),
  row: z.number().int().nullable(),
  page: z.number().int().nullable(),
  /** Row passages: the row's cells; null when its text is not "column: value" lines. */
  cells: z.array(ZPassageCell).nullable(),
  /** The passage the citation names. */
  cited: z.boolean(),
});
export type TPassageNeighbour = z.infer<typeof ZPassageNeighbour>;

/** GET /agents/{id}/passages/{passageId} (and the preview's and the share page's equivalents). */
export const ZPassageView = z.object({
  id: zText(),
  /** The build whose index holds it. */
  build_id: z.uuid(),
  kind: ZPassageKind,
  /** As the answer cites it: "orders.csv, row 13", "report.pdf, page 3". */
  citation: zText(),
  /** The source's name: a file, a table, a page's address. */
  source: zText(),
  row: z.number().int().nullable(),
  page: z.number().int().nullable(),
  /** A database row's key, e.g. "id=42". */
  ref: zText().nullable(),
  url: zText().nullable(),
  section: zText().nullable(),
  text: zText(),
  /** Row passages: the column names of the rows shown, in order. */
  columns: z.array(zText()),
  /** The cited passage with its neighbours, in order (rows around it; a page's passages). */
  neighbours: z.array(ZPassageNeighbour),
  /** Page and web passages: the text around the passage, and where the passage lies in it. */
  context: zText().nullable(),
  highlight: z.object({ start: z.number().int(), end: z.number().int() }).nullable(),
});
export type TPassageView = z.infer<typeof ZPassageView>;

/** The share page's and widget's request: the passage id is in the body (ids hold any character). */
export const ZVisitorPassageRequest = z.object({
  passage_id: z
    .string({ error: 'passage_id is required.' })
    .min(1, { error: 'passage_id is required.' })
    .max(1000, { error: 'passage_id is too long.' }),
});

export const PASSAGE_ROUTES = {
  owner: '/agents/:id/passages/:passageId',
} as const;

export const passagePaths = {
  /** Ids hold `/`, `#` and spaces: encoded here, decoded by the gateway. */
  owner: (id: string, passageId: string) => routePath(PASSAGE_ROUTES.owner, { id, passageId }),
  preview: (token: string, passageId: string) =>
    `/p/${token}/passages/${encodeURIComponent(passageId)}`,
  visitor: (id: string) => `/w/${id}/passages`,
};

export const PASSAGE_NOT_FOUND = 'This passage is not in the agent’s data.';

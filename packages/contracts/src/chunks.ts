/**
 * One line of a build's `data/chunks.jsonl`: a passage of the source with what is needed to cite
 * it (a PDF page, a CSV/Excel row, a text file, or a database row with its key). The builder
 * writes these; the generated agent and the live preview read them.
 */
export interface TChunkLine {
  id: string;
  text: string;
  /** The file or table it came from, e.g. "sales.csv". */
  source: string;
  page?: number;
  row?: number;
  /** Database rows: the row's key, e.g. "id=42". */
  ref?: string;
}

/**
 * One line of a build's `data/chunks.jsonl`: a passage of a source with what is needed to cite
 * it (a PDF page, a CSV/Excel row, a text file, a database row with its key, a web page with its
 * address, a document's section). The builder writes these; the generated agent and the hosted
 * agents read them.
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
  /** Web pages: the page's address, which the citation links to. */
  url?: string;
  /** Documents with headings (DOCX, Markdown, HTML): the heading the passage falls under. */
  section?: string;
  /**
   * Builds with several knowledge sources: the source's id (agent.json's `sources[].key`), so
   * the downloaded project's index knows which source a passage is of.
   */
  source_key?: string;
}

import { KNOWLEDGE_FILE_TYPES, type TKnowledgeFileType } from '@agentloom/contracts';
import { ProjectInputError, type ProjectInput, type ProjectSource } from './types';

/**
 * agent.json's `sources`: every knowledge source of a RAG build, so the downloaded project
 * answers from all of them — files shipped under data/, tables as connections whose URL it
 * reads from .env (DATABASE_URL, DATABASE_URL_2, …), web pages as addresses. The project's
 * `python -m agent index` reads this list; README.md says how to add, replace and remove one.
 */
export interface ManifestKnowledgeSource {
  /** The key the project records each passage of the source under (the source's id here). */
  key: string;
  /** How citations name it. */
  name: string;
  kind: 'file' | 'table' | 'web';
  /** pdf, csv, excel, text_file, docx, markdown, html; postgres, mysql, sqlite, mongo; web. */
  type: string;
  /** Files: the shipped file, relative to the project, and the SHA-256 of the version shipped. */
  file?: string;
  sha256?: string;
  /** Excel: the sheet read. */
  sheet?: string;
  /** Tables: the database and table (collection, for MongoDB), and the variable with its URL. */
  database?: string;
  table?: string;
  url_env?: string;
  /** Web: the address, the most pages read from it, whether it is a sitemap. */
  url?: string;
  max_pages?: number;
  sitemap?: boolean;
}

/** The wizard's single source, as manifest.ts describes it. */
interface PrimarySource {
  type: string;
  file?: string;
  original_name?: string;
  sheet?: string;
  database?: string;
  table?: string;
}

/** A file the project ships for a source: where in the project, from where on disk. */
export interface ShippedSourceFile {
  path: string;
  sourcePath: string;
}

const DATABASE_TYPES = new Set(['postgres', 'mysql', 'sqlite', 'mongo']);
const RESERVED_NAMES = new Set(['chunks.jsonl']);
export const DATABASE_URL_ENV = 'DATABASE_URL';

/** The variable holding the URL of the `index`-th table source (0: DATABASE_URL). */
export const databaseUrlEnv = (index: number) =>
  index === 0 ? DATABASE_URL_ENV : `${DATABASE_URL_ENV}_${index + 1}`;

/** The sources of a RAG project, and the files it ships for them. */
export function manifestSources(
  input: ProjectInput,
  primary: PrimarySource,
): { sources: ManifestKnowledgeSource[]; files: ShippedSourceFile[] } {
  if (!input.sources) return { sources: [fromPrimary(primary)], files: primaryFile(input) };
  const keys = new Set<string>();
  const names = new Set<string>();
  const sources: ManifestKnowledgeSource[] = [];
  const files: ShippedSourceFile[] = [];
  let tables = 0;
  for (const source of input.sources) {
    if (!source.key || keys.has(source.key)) {
      throw new ProjectInputError(`Two knowledge sources share the key ${source.key}.`);
    }
    keys.add(source.key);
    const common = { key: source.key, name: source.name };
    if (source.file) {
      // A file that could not be fetched is left out: the project cannot read it either.
      if (!source.file.path) continue;
      const file = fileEntry(input, source, names);
      sources.push({ ...common, ...file.entry });
      files.push(file.shipped);
    } else if (source.table) {
      sources.push({ ...common, ...tableEntry(source.table, databaseUrlEnv(tables)) });
      tables += 1;
    } else if (source.web) {
      sources.push({ ...common, ...webEntry(source.web) });
    } else {
      throw new ProjectInputError(`The knowledge source ${source.name} is of no known kind.`);
    }
  }
  return { sources, files };
}

function fromPrimary(primary: PrimarySource): ManifestKnowledgeSource {
  const name = primary.original_name ?? primary.table ?? primary.file ?? 'source';
  if (primary.file) {
    return {
      key: 'source',
      name,
      kind: 'file',
      type: primary.type,
      file: primary.file,
      ...(primary.sheet !== undefined && { sheet: primary.sheet }),
    };
  }
  return {
    key: 'source',
    name,
    kind: 'table',
    type: primary.type,
    database: primary.database ?? '',
    table: primary.table ?? '',
    url_env: DATABASE_URL_ENV,
  };
}

function primaryFile(input: ProjectInput): ShippedSourceFile[] {
  return input.sourceFile
    ? [{ path: `data/${input.sourceFile.dataFileName}`, sourcePath: input.sourceFile.path }]
    : [];
}

function fileEntry(input: ProjectInput, source: ProjectSource, names: Set<string>) {
  const file = source.file!;
  if (!Object.hasOwn(KNOWLEDGE_FILE_TYPES, file.type)) {
    throw new ProjectInputError(`${source.name}: a ${file.type} file cannot be a source.`);
  }
  const type = file.type as TKnowledgeFileType;
  const name =
    source.primary && input.sourceFile
      ? input.sourceFile.dataFileName
      : dataFileName(source.name, type, names);
  names.add(name.toLowerCase());
  const path = `data/${name}`;
  const sourcePath = source.primary && input.sourceFile ? input.sourceFile.path : file.path;
  return {
    entry: {
      kind: 'file' as const,
      type,
      file: path,
      ...(file.sha256 && { sha256: file.sha256 }),
      ...(file.sheet !== undefined && { sheet: file.sheet }),
    },
    shipped: { path, sourcePath },
  };
}

/**
 * A safe, unused file name under data/ for an uploaded file's name: letters, digits, dots,
 * dashes and underscores, ending in the type's extension, numbered when taken.
 */
export function dataFileName(
  original: string,
  type: TKnowledgeFileType,
  taken: ReadonlySet<string>,
): string {
  const extensions: readonly string[] = KNOWLEDGE_FILE_TYPES[type];
  const lower = original.toLowerCase();
  const extension = extensions.find((ending) => lower.endsWith(ending)) ?? extensions[0]!;
  const stem = original
    .slice(0, lower.endsWith(extension) ? original.length - extension.length : original.length)
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '')
    .slice(0, 80);
  const base = stem || 'source';
  for (let number = 1; ; number += 1) {
    const name = `${base}${number === 1 ? '' : `-${number}`}${extension}`;
    if (!taken.has(name.toLowerCase()) && !RESERVED_NAMES.has(name.toLowerCase())) return name;
  }
}

function tableEntry(table: NonNullable<ProjectSource['table']>, urlEnv: string) {
  if (!DATABASE_TYPES.has(table.type)) {
    throw new ProjectInputError(`A ${table.type} database cannot be a source.`);
  }
  return {
    kind: 'table' as const,
    type: table.type,
    database: table.database,
    table: table.table,
    url_env: urlEnv,
  };
}

function webEntry(web: NonNullable<ProjectSource['web']>) {
  if (!/^https?:\/\//i.test(web.url)) {
    throw new ProjectInputError(`${web.url} is not a web address.`);
  }
  return {
    kind: 'web' as const,
    type: 'web',
    url: web.url,
    max_pages: web.max_pages,
    sitemap: web.sitemap,
  };
}

/**
 * The one database source catalogue: what the platform knows about each database an agent can
 * read, written once — the web app's labels, connection fields and examples, the gateway's URI
 * check (data-sources), and the generated project's .env example and Python packages. Each
 * database's driver code (probe, SQL engine, Python reader) stays code of its own; the file
 * sources (PDF, CSV, Excel, TXT) are not databases and live in sources.ts.
 */
export interface DatabaseSourceSpec {
  /** The wizard's card and every summary (docs/product.md's words). */
  readonly label: string;
  /** The knowledge page's longer name, where it says what else speaks the protocol. */
  readonly knowledgeLabel: string;
  /** The scheme the wizard writes when it composes a URI from host, port, user and password. */
  readonly scheme: string;
  /** The schemes the gateway accepts, and how its message writes them. */
  readonly schemePattern: RegExp;
  readonly schemeForm: string;
  /** The port a URI without one means (none for a file database). */
  readonly defaultPort?: number;
  /** Examples of a URI: the wizard's placeholder, the gateway's message, the project's .env. */
  readonly uriPlaceholder: string;
  readonly uriExample: string;
  readonly envExample: string;
  /**
   * The Python packages the generated project reads it with (pinned by the generator), per
   * agent type: a SQL agent reads SQLite with Python's own sqlite3, a RAG agent via SQLAlchemy.
   */
  readonly pythonPackages: { readonly rag: readonly string[]; readonly sql: readonly string[] };
}

// PyMySQL needs cryptography for MySQL 8's default (caching_sha2_password) authentication.
const MYSQL_PACKAGES = ['SQLAlchemy', 'PyMySQL', 'cryptography'];
const POSTGRES_PACKAGES = ['SQLAlchemy', 'psycopg2-binary'];

export const DATABASE_SOURCE_CATALOG = {
  postgres: {
    label: 'Postgres',
    knowledgeLabel: 'Postgres',
    scheme: 'postgresql',
    schemePattern: /^postgres(?:ql)?:\/\//i,
    schemeForm: 'postgresql://',
    defaultPort: 5432,
    uriPlaceholder: 'postgresql://user:password@localhost:5432/mydb',
    uriExample: 'postgresql://user:password@host:5432/dbname',
    envExample: 'postgresql://USER:PASSWORD@HOST:5432/DBNAME',
    pythonPackages: { rag: POSTGRES_PACKAGES, sql: POSTGRES_PACKAGES },
  },
  mysql: {
    label: 'MySQL',
    knowledgeLabel: 'MySQL / MariaDB',
    scheme: 'mysql',
    schemePattern: /^mysql:\/\//i,
    schemeForm: 'mysql://',
    defaultPort: 3306,
    uriPlaceholder: 'mysql://user:password@localhost:3306/mydb',
    uriExample: 'mysql://user:password@host:3306/dbname',
    envExample: 'mysql://USER:PASSWORD@HOST:3306/DBNAME',
    pythonPackages: { rag: MYSQL_PACKAGES, sql: MYSQL_PACKAGES },
  },
  sqlite: {
    label: 'SQLite',
    knowledgeLabel: 'SQLite',
    scheme: 'sqlite',
    schemePattern: /^sqlite:\/\/\//i,
    schemeForm: 'sqlite:/// followed by the file path',
    uriPlaceholder: 'sqlite:///data/mydb.sqlite',
    uriExample: 'sqlite:///data/app.db, or sqlite:////var/lib/app.db for an absolute path',
    envExample: 'sqlite:///data/database.db',
    pythonPackages: { rag: ['SQLAlchemy'], sql: [] },
  },
  mongo: {
    label: 'MongoDB',
    knowledgeLabel: 'MongoDB',
    scheme: 'mongodb',
    schemePattern: /^mongodb(?:\+srv)?:\/\//i,
    schemeForm: 'mongodb:// or mongodb+srv://',
    defaultPort: 27017,
    uriPlaceholder: 'mongodb://user:password@localhost:27017',
    uriExample: 'mongodb+srv://user:password@cluster.example.net/dbname',
    envExample: 'mongodb://USER:PASSWORD@HOST:27017',
    pythonPackages: { rag: ['pymongo'], sql: ['pymongo'] },
  },
} as const satisfies Record<string, DatabaseSourceSpec>;

type DatabaseId = keyof typeof DATABASE_SOURCE_CATALOG;

/** The catalogue's ids in its order, as the non-empty tuple z.enum takes. */
export const DATABASE_SOURCE_IDS = Object.keys(DATABASE_SOURCE_CATALOG) as unknown as readonly [
  DatabaseId,
  ...DatabaseId[],
];

/** A database's facts, typed as the interface (optional fields included) for lookups by id. */
export function databaseSpec(type: DatabaseId): DatabaseSourceSpec {
  return DATABASE_SOURCE_CATALOG[type];
}

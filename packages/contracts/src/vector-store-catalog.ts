/**
 * The one vector store catalogue: what the platform knows about each store the wizard offers,
 * written once — the web app's cards, the wizard's validation (which stores take a URL), the
 * generated project's store module, Python packages and compose service. The generated
 * project's Python (templates/rag/agent/stores/__init__.py) and compose files
 * (templates/rag/compose/<store>.yml.tmpl) are held to this table by the builder worker's
 * parity test; each store's own Python module and README note stay code of their own.
 */
export interface VectorStoreSpec {
  /** The wizard's card and every summary (docs/product.md's words). */
  readonly label: string;
  /** The card's one line, for an owner who has never heard of a vector store. */
  readonly description: string;
  /**
   * A cloud service with an account (Pinecone: key, environment, index), or a store the
   * generated project runs itself (a URL, dimensions and a metric; compose runs its server).
   */
  readonly hosted: boolean;
  /** Self-hosted stores: the store's URL on the generated project's compose network. */
  readonly composeUrl?: string;
  /** Self-hosted stores: where docker-compose.yml publishes it on the developer's machine. */
  readonly localUrl?: string;
  /** The store's module in the generated project's `agent/stores/` package. */
  readonly pythonModule: string;
  /** The Python packages that module imports (pinned by the generator's requirements). */
  readonly pythonPackages: readonly string[];
}

export const VECTOR_STORE_CATALOG = {
  chromadb: {
    label: 'ChromaDB',
    description:
      'Popular and open source; runs as a small server beside your agent (Docker does it).',
    hosted: false,
    composeUrl: 'http://chromadb:8000',
    localUrl: 'http://localhost:8010',
    pythonModule: 'chroma_store',
    pythonPackages: ['chromadb-client'],
  },
  qdrant: {
    label: 'Qdrant',
    description:
      'Recommended: nothing to set up. Your agent keeps its data in a folder, or in Docker.',
    hosted: false,
    composeUrl: 'http://qdrant:6333',
    localUrl: 'http://localhost:6333',
    pythonModule: 'qdrant_store',
    pythonPackages: ['qdrant-client'],
  },
  milvus: {
    label: 'Milvus',
    description: 'For very large data (millions of passages); runs in one file or as a server.',
    hosted: false,
    composeUrl: 'http://milvus:19530',
    localUrl: 'http://localhost:19530',
    pythonModule: 'milvus_store',
    // Milvus Lite: a Milvus in a local file (VECTOR_STORE_URL=./milvus.db), no server needed.
    pythonPackages: ['pymilvus', 'milvus-lite'],
  },
  pinecone: {
    label: 'Pinecone',
    description: 'A paid cloud service: needs a Pinecone account, an API key and an index.',
    hosted: true,
    pythonModule: 'pinecone_store',
    pythonPackages: ['pinecone'],
  },
} as const satisfies Record<string, VectorStoreSpec>;

type Catalog = typeof VECTOR_STORE_CATALOG;
type StoreId = keyof Catalog;
/** The stores the generated project runs itself (everything but a hosted service). */
type SelfHostedId = { [K in StoreId]: Catalog[K]['hosted'] extends false ? K : never }[StoreId];

/** The catalogue's ids in its order, as the non-empty tuple z.enum takes. */
export const VECTOR_STORE_IDS = Object.keys(VECTOR_STORE_CATALOG) as unknown as readonly [
  StoreId,
  ...StoreId[],
];

/** The stores that take a URL, dimensions and a metric (the wizard's local form). */
export const LOCAL_VECTOR_STORES = VECTOR_STORE_IDS.filter(
  (id) => !VECTOR_STORE_CATALOG[id].hosted,
) as unknown as readonly [SelfHostedId, ...SelfHostedId[]];

export const VECTOR_STORE_LABELS = Object.fromEntries(
  VECTOR_STORE_IDS.map((id) => [id, VECTOR_STORE_CATALOG[id].label]),
) as Record<StoreId, string>;

/**
 * Where the generated project's docker-compose.yml runs each self-hosted store: its service
 * name on the project's network (apps/builder-worker/templates/rag/compose). The wizard offers
 * it as the default, so nobody has to know what a vector store URL is.
 */
export const COMPOSE_VECTOR_STORE_URLS = Object.fromEntries(
  LOCAL_VECTOR_STORES.map((id) => [id, (VECTOR_STORE_CATALOG[id] as VectorStoreSpec).composeUrl]),
) as Record<SelfHostedId, string>;

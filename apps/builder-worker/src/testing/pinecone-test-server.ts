import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Pinecone (an outside service), speaking the REST API its Python SDK uses
 * (API version 2026-07, the one the `pinecone` 10.x client sends in `X-Pinecone-Api-Version`),
 * so a generated Pinecone agent runs its real client code end to end: the control plane
 * (`GET/POST /indexes`, `GET /indexes/{name}`, reached through PINECONE_CONTROLLER_HOST), where an
 * index is described by its `schema` (a `dense_vector` field holds dimension and metric) and its
 * `deployment`, and each index's data plane on the same address (`/vectors/upsert`, `/query`,
 * `/describe_index_stats`, `/vectors/delete`). Vectors live in memory; queries rank by the
 * index's metric. Requests without an Api-Key header are refused as Pinecone refuses them.
 */
export interface PineconeTestServer {
  url: string;
  close(): Promise<void>;
}

interface StoredVector {
  id: string;
  values: number[];
  metadata?: Record<string, unknown>;
}

interface DenseField {
  type: string;
  dimension: number;
  metric?: IndexState['metric'];
}

interface IndexState {
  name: string;
  dimension: number;
  metric: 'cosine' | 'euclidean' | 'dotproduct';
  /** The create request's schema and deployment, described back as sent. */
  schema: unknown;
  deployment: unknown;
  namespaces: Map<string, Map<string, StoredVector>>;
}

function score(metric: IndexState['metric'], a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  let distance = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
    distance += (a[i]! - b[i]!) ** 2;
  }
  if (metric === 'dotproduct') return dot;
  if (metric === 'euclidean') return distance;
  return dot / (Math.sqrt(normA) * Math.sqrt(normB) || 1);
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function send(response: ServerResponse, [status, body]: Reply): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** An answer: HTTP status and JSON body. */
type Reply = [status: number, body: unknown];
type Body = Record<string, unknown>;

const notFound = (what: string): Reply => [404, { error: { code: 'NOT_FOUND', message: what } }];

/** Pinecone's control plane: the indexes, described the way the SDK reads them back. */
class ControlPlane {
  readonly indexes = new Map<string, IndexState>();

  /** `host` is this server's address: every index is served there (the data plane below). */
  constructor(private readonly host: () => string) {}

  /** The reply to a control-plane call, or undefined when the path is the data plane's. */
  handle(method: string, pathname: string, body: Body): Reply | undefined {
    if (pathname === '/indexes' && method === 'GET') {
      return [200, { indexes: [...this.indexes.values()].map((index) => this.model(index)) }];
    }
    if (pathname === '/indexes' && method === 'POST') return this.create(body);
    const named = /^\/indexes\/([^/]+)$/.exec(pathname);
    if (named && method === 'GET') {
      const index = this.indexes.get(decodeURIComponent(named[1]!));
      return index ? [200, this.model(index)] : notFound('index');
    }
    return undefined;
  }

  private create(body: Body): Reply {
    const name = String(body.name);
    if (this.indexes.has(name)) return [409, { error: { code: 'ALREADY_EXISTS', message: name } }];
    const fields = (body.schema as { fields?: Record<string, DenseField> } | undefined)?.fields;
    const dense = Object.values(fields ?? {}).find((field) => field.type === 'dense_vector');
    if (!dense) {
      return [
        400,
        { error: { code: 'INVALID_ARGUMENT', message: 'The schema has no dense_vector field.' } },
      ];
    }
    const index: IndexState = {
      name,
      dimension: dense.dimension,
      metric: dense.metric ?? 'cosine',
      schema: body.schema,
      deployment: body.deployment,
      namespaces: new Map(),
    };
    this.indexes.set(name, index);
    return [201, this.model(index)];
  }

  private model(index: IndexState) {
    return {
      name: index.name,
      host: this.host(),
      status: { ready: true, state: 'Ready' },
      schema: index.schema,
      deployment: index.deployment,
      deletion_protection: 'disabled',
      tags: null,
    };
  }
}

/** An index's data plane: vectors by namespace, in memory, ranked by the index's metric. */
class DataPlane {
  constructor(private readonly index: IndexState) {}

  handle(pathname: string, body: Body): Reply {
    switch (pathname) {
      case '/vectors/upsert':
        return this.upsert(body);
      case '/query':
        return this.query(body);
      case '/describe_index_stats':
        return this.stats();
      case '/vectors/delete':
        if (body.deleteAll) this.namespace(body.namespace).clear();
        for (const id of (body.ids as string[]) ?? []) this.namespace(body.namespace).delete(id);
        return [200, {}];
      default:
        return notFound(pathname);
    }
  }

  private namespace(name: unknown): Map<string, StoredVector> {
    const key = typeof name === 'string' ? name : '';
    let namespace = this.index.namespaces.get(key);
    if (!namespace) this.index.namespaces.set(key, (namespace = new Map()));
    return namespace;
  }

  private upsert(body: Body): Reply {
    const vectors = (body.vectors as StoredVector[]) ?? [];
    for (const vector of vectors) {
      if (vector.values.length !== this.index.dimension) {
        return [
          400,
          {
            code: 3,
            message: `Vector dimension ${vector.values.length} does not match the dimension of the index ${this.index.dimension}`,
          },
        ];
      }
      this.namespace(body.namespace).set(vector.id, vector);
    }
    return [200, { upsertedCount: vectors.length }];
  }

  private query(body: Body): Reply {
    const { metric } = this.index;
    const vector = body.vector as number[];
    const matches = [...this.namespace(body.namespace).values()]
      .map((stored) => ({
        id: stored.id,
        score: score(metric, stored.values, vector),
        values: [],
        ...(body.includeMetadata ? { metadata: stored.metadata ?? {} } : {}),
      }))
      .sort((a, b) => (metric === 'euclidean' ? a.score - b.score : b.score - a.score))
      .slice(0, Number(body.topK ?? 10));
    return [200, { matches, namespace: body.namespace ?? '', usage: { readUnits: 1 } }];
  }

  private stats(): Reply {
    const namespaces = Object.fromEntries(
      [...this.index.namespaces].map(([name, vectors]) => [name, { vectorCount: vectors.size }]),
    );
    const total = [...this.index.namespaces.values()].reduce((sum, ns) => sum + ns.size, 0);
    return [
      200,
      { namespaces, dimension: this.index.dimension, indexFullness: 0, totalVectorCount: total },
    ];
  }
}

export async function startPineconeTestServer(): Promise<PineconeTestServer> {
  let url = '';
  const control = new ControlPlane(() => url);

  const server = createServer((request, response) => {
    void (async () => {
      if (!request.headers['api-key']) {
        return send(response, [401, { error: { code: 'UNAUTHENTICATED', message: 'No API key' } }]);
      }
      const method = request.method ?? 'GET';
      const { pathname } = new URL(request.url ?? '/', 'http://localhost');
      const body = method === 'GET' ? {} : await readJson(request);
      // The data plane: this stand-in serves one index per test, the last one created.
      const index = [...control.indexes.values()].at(-1);
      const reply =
        control.handle(method, pathname, body) ??
        (index ? new DataPlane(index).handle(pathname, body) : notFound('index'));
      send(response, reply);
    })().catch((error: Error) => send(response, [500, { error: { message: error.message } }]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

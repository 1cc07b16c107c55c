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

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export async function startPineconeTestServer(): Promise<PineconeTestServer> {
  const indexes = new Map<string, IndexState>();
  let url = '';

  const model = (index: IndexState) => ({
    name: index.name,
    // Every index is served on this same address; the data plane finds it by its one index.
    host: url,
    status: { ready: true, state: 'Ready' },
    schema: index.schema,
    deployment: index.deployment,
    deletion_protection: 'disabled',
    tags: null,
  });

  const server = createServer((request, response) => {
    void (async () => {
      if (!request.headers['api-key']) {
        return send(response, 401, { error: { code: 'UNAUTHENTICATED', message: 'No API key' } });
      }
      const { pathname } = new URL(request.url ?? '/', 'http://localhost');
      const body = request.method === 'GET' ? {} : await readJson(request);
      if (pathname === '/indexes' && request.method === 'GET') {
        return send(response, 200, { indexes: [...indexes.values()].map(model) });
      }
      if (pathname === '/indexes' && request.method === 'POST') {
        const name = String(body.name);
        if (indexes.has(name)) {
          return send(response, 409, { error: { code: 'ALREADY_EXISTS', message: name } });
        }
        const fields = (body.schema as { fields?: Record<string, DenseField> } | undefined)?.fields;
        const dense = Object.values(fields ?? {}).find((field) => field.type === 'dense_vector');
        if (!dense) {
          return send(response, 400, {
            error: { code: 'INVALID_ARGUMENT', message: 'The schema has no dense_vector field.' },
          });
        }
        const index: IndexState = {
          name,
          dimension: dense.dimension,
          metric: dense.metric ?? 'cosine',
          schema: body.schema,
          deployment: body.deployment,
          namespaces: new Map(),
        };
        indexes.set(name, index);
        return send(response, 201, model(index));
      }
      const named = /^\/indexes\/([^/]+)$/.exec(pathname);
      if (named && request.method === 'GET') {
        const index = indexes.get(decodeURIComponent(named[1]!));
        if (!index) return send(response, 404, { error: { code: 'NOT_FOUND', message: 'index' } });
        return send(response, 200, model(index));
      }
      // The data plane: this stand-in serves one index per test, the last one created.
      const index = [...indexes.values()].at(-1);
      if (!index) return send(response, 404, { error: { code: 'NOT_FOUND', message: 'index' } });
      const namespaceOf = (name: unknown) => {
        const key = typeof name === 'string' ? name : '';
        let namespace = index.namespaces.get(key);
        if (!namespace) index.namespaces.set(key, (namespace = new Map()));
        return namespace;
      };
      if (pathname === '/vectors/upsert') {
        const vectors = (body.vectors as StoredVector[]) ?? [];
        for (const vector of vectors) {
          if (vector.values.length !== index.dimension) {
            return send(response, 400, {
              code: 3,
              message: `Vector dimension ${vector.values.length} does not match the dimension of the index ${index.dimension}`,
            });
          }
          namespaceOf(body.namespace).set(vector.id, vector);
        }
        return send(response, 200, { upsertedCount: vectors.length });
      }
      if (pathname === '/query') {
        const vector = body.vector as number[];
        const matches = [...namespaceOf(body.namespace).values()]
          .map((stored) => ({
            id: stored.id,
            score: score(index.metric, stored.values, vector),
            values: [],
            ...(body.includeMetadata ? { metadata: stored.metadata ?? {} } : {}),
          }))
          .sort((a, b) => (index.metric === 'euclidean' ? a.score - b.score : b.score - a.score))
          .slice(0, Number(body.topK ?? 10));
        return send(response, 200, {
          matches,
          namespace: body.namespace ?? '',
          usage: { readUnits: 1 },
        });
      }
      if (pathname === '/describe_index_stats') {
        const namespaces = Object.fromEntries(
          [...index.namespaces].map(([name, vectors]) => [name, { vectorCount: vectors.size }]),
        );
        const total = [...index.namespaces.values()].reduce((sum, ns) => sum + ns.size, 0);
        return send(response, 200, {
          namespaces,
          dimension: index.dimension,
          indexFullness: 0,
          totalVectorCount: total,
        });
      }
      if (pathname === '/vectors/delete') {
        if (body.deleteAll) namespaceOf(body.namespace).clear();
        for (const id of (body.ids as string[]) ?? []) namespaceOf(body.namespace).delete(id);
        return send(response, 200, {});
      }
      return send(response, 404, { error: { code: 'NOT_FOUND', message: pathname } });
    })().catch((error: Error) => send(response, 500, { error: { message: error.message } }));
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

import {
  knowledgePaths,
  type TAddSourceRequest,
  type TKnowledgeSource,
  type TKnowledgeSources,
  type TRefreshSchedule,
} from '@agentloom/contracts';
/** A file by name and content (a path is read by the agents' helpers, not here). */
export interface SourceFile {
  name: string;
  content: string | Uint8Array;
}
import { apiCall, expectStatus, rotation, type Gateway } from './http';

type Token = { token: string };

/** A file as multipart form data, as the Knowledge panel sends it. */
function fileForm(upload: SourceFile): FormData {
  const form = new FormData();
  const content =
    typeof upload.content === 'string' ? upload.content : new Uint8Array(upload.content);
  form.append('file', new Blob([content]), upload.name);
  return form;
}

/** Adds a file source to an agent; the new source as the API answers it. */
export async function addFileSource(
  gateway: Gateway,
  user: Token,
  agentId: string,
  upload: SourceFile,
): Promise<TKnowledgeSource> {
  const answer = await apiCall(rotation(gateway)(), knowledgePaths.list(agentId), {
    token: user.token,
    body: fileForm(upload),
  });
  return expectStatus(answer, 201, `add ${upload.name}`).body as TKnowledgeSource;
}

/** Adds a database table or web pages as a source. */
export async function addSource(
  gateway: Gateway,
  user: Token,
  agentId: string,
  request: TAddSourceRequest,
): Promise<TKnowledgeSource> {
  const answer = await apiCall(rotation(gateway)(), knowledgePaths.list(agentId), {
    token: user.token,
    json: request,
  });
  return expectStatus(answer, 201, `add a ${request.kind} source`).body as TKnowledgeSource;
}

/** A new version of a file source. */
export async function replaceFileSource(
  gateway: Gateway,
  user: Token,
  agentId: string,
  sourceId: string,
  upload: SourceFile,
): Promise<TKnowledgeSource> {
  const answer = await apiCall(rotation(gateway)(), knowledgePaths.one(agentId, sourceId), {
    method: 'PUT',
    token: user.token,
    body: fileForm(upload),
  });
  return expectStatus(answer, 200, `replace with ${upload.name}`).body as TKnowledgeSource;
}

export async function removeSource(
  gateway: Gateway,
  user: Token,
  agentId: string,
  sourceId: string,
): Promise<void> {
  const answer = await apiCall(rotation(gateway)(), knowledgePaths.one(agentId, sourceId), {
    method: 'DELETE',
    token: user.token,
  });
  expectStatus(answer, 204, 'remove a source');
}

export async function refreshSource(
  gateway: Gateway,
  user: Token,
  agentId: string,
  sourceId: string,
): Promise<void> {
  const answer = await apiCall(rotation(gateway)(), knowledgePaths.refresh(agentId, sourceId), {
    token: user.token,
    json: {},
  });
  expectStatus(answer, 202, 'refresh a source');
}

export async function scheduleSource(
  gateway: Gateway,
  user: Token,
  agentId: string,
  sourceId: string,
  refresh: TRefreshSchedule,
): Promise<TKnowledgeSource> {
  const answer = await apiCall(rotation(gateway)(), knowledgePaths.one(agentId, sourceId), {
    method: 'PATCH',
    token: user.token,
    json: { refresh },
  });
  return expectStatus(answer, 200, 'schedule a source').body as TKnowledgeSource;
}

export async function knowledgeOf(
  gateway: Gateway,
  user: Token,
  agentId: string,
): Promise<TKnowledgeSources> {
  const answer = await apiCall(rotation(gateway)(), knowledgePaths.list(agentId), {
    token: user.token,
  });
  return expectStatus(answer, 200, 'list sources').body as TKnowledgeSources;
}

/**
 * The agent's knowledge once nothing is being read or built: no build running, no source waiting
 * or being read (a change's build, a refresh and the build it starts all done).
 */
export async function waitForKnowledge(
  gateway: Gateway,
  user: Token,
  agentId: string,
  timeoutMs = 60_000,
): Promise<TKnowledgeSources> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const knowledge = await knowledgeOf(gateway, user, agentId);
    const busy =
      knowledge.building_build_id !== null ||
      knowledge.sources.some((source) => ['waiting', 'indexing'].includes(source.status));
    if (!busy) return knowledge;
    if (Date.now() > deadline) {
      throw new Error(
        `The knowledge of ${agentId} is still changing after ${timeoutMs} ms: ${JSON.stringify(knowledge)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

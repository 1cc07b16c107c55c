import { buildPaths, type TBuildView } from '@agentloom/contracts';
import type { TestUser } from './accounts';
import { apiCall, expectStatus, rotation, type ApiAnswer, type Gateway } from './http';

type Token = Pick<TestUser, 'token'>;

/** Asks for a build of agent `sessionId` as the wizard's last step does; the answer as it is. */
export function startBuild(
  gateway: Gateway,
  user: Token,
  sessionId: string,
  agentType: 'rag' | 'sql' = 'rag',
): Promise<ApiAnswer> {
  return apiCall(rotation(gateway)(), buildPaths.start(agentType), {
    token: user.token,
    form: { session_id: sessionId },
  });
}

/**
 * Polls the agent's latest build (GET /builds/:sessionId) until it is no longer Building, at
 * most `timeoutMs`; the build as it ended (Built or Failed).
 */
export async function waitForBuild(
  gateway: Gateway,
  user: Token,
  sessionId: string,
  timeoutMs = 60_000,
): Promise<TBuildView> {
  const next = rotation(gateway);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = expectStatus(
      await apiCall(next(), buildPaths.view(sessionId), { token: user.token }),
      200,
      'build status',
    ).body as TBuildView;
    if (view.status !== 'Building') return view;
    if (Date.now() > deadline) {
      throw new Error(`The build of ${sessionId} is still Building after ${timeoutMs} ms.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface Downloaded {
  status: number;
  contentType: string | null;
  disposition: string | null;
  zip: Buffer;
}

/**
 * GET a download route (`/rag/builds/:id/download`, …): the zip's bytes with the answer's status
 * and headers.
 */
export async function downloadZip(
  gateway: Gateway,
  user: Token,
  route: string,
): Promise<Downloaded> {
  const response = await fetch(`${rotation(gateway)()}${route}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    disposition: response.headers.get('content-disposition'),
    zip: Buffer.from(await response.arrayBuffer()),
  };
}

import { STORAGE_KEYS } from './storage';

declare global {
  interface Window {
    /** Set by /config.js, which the web server writes when it starts (index.html loads it first). */
    agentloomConfig?: { apiUrl?: string };
  }
}

/**
 * The gateway's base URL: empty, so calls go to the app's own origin and its web server forwards
 * them (one origin, any hostname); a separate API host only when the server's runtime setting
 * API_URL names one. Nothing about the API is compiled into the bundle.
 */
export const API_URL: string = (globalThis.window?.agentloomConfig?.apiUrl ?? '').replace(
  /\/+$/,
  '',
);

/**
 * A gateway page (/p/… preview and image-agent pages) to frame. Its link starts with the server's
 * PUBLIC_URL; with the API on the app's own origin it is framed through that origin instead, so
 * the frame is same-origin with the app whatever name the app was opened by (the preview page lets
 * only its own origin frame it).
 */
export function framedGatewayPage(url: string): string {
  const absolute = new URL(url, window.location.href);
  if (API_URL || !absolute.pathname.startsWith('/p/')) return url;
  return new URL(`${absolute.pathname}${absolute.search}`, window.location.origin).toString();
}

export const SERVER_UNREACHABLE = "Can't reach the server";

/** A failed call. `detail` is the server's `{detail}` text when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | undefined,
  ) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }
}

/** The server's detail of a failed call, or undefined (network error, no detail sent). */
export function errorDetail(error: unknown): string | undefined {
  return error instanceof ApiError ? error.detail : undefined;
}

type Body =
  | { json: unknown }
  | { form: Record<string, string> }
  | { multipart: FormData }
  // No body. (`Record<string, never>` here would also forbid method and query.)
  | { json?: undefined; form?: undefined; multipart?: undefined };

export type ApiRequest = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string>;
  signal?: AbortSignal;
} & Body;

export function apiUrl(path: string, query?: Record<string, string>): string {
  const url = `${API_URL}${path.startsWith('/') ? path : `/${path}`}`;
  return query ? `${url}?${new URLSearchParams(query).toString()}` : url;
}

/**
 * Who hears that the stored session stopped working (a 401 to a call that carried the token: the
 * password was reset in another tab, the token expired). The auth provider signs the app out, so
 * nobody is left looking at an empty "No agents yet" that only means "not allowed".
 */
const sessionEndedListeners = new Set<() => void>();

export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/** Sends one request to the gateway with the stored bearer token; throws ApiError on non-2xx. */
export async function apiRaw(path: string, request: ApiRequest = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = localStorage.getItem(STORAGE_KEYS.token);
  if (token) headers.Authorization = `Bearer ${token}`;

  let body: BodyInit | undefined;
  if ('json' in request && request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if ('form' in request && request.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  } else if ('multipart' in request && request.multipart) {
    body = request.multipart; // the browser sets the multipart boundary
  }

  const response = await fetch(apiUrl(path, request.query), {
    method: request.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    signal: request.signal,
  }).catch((error: unknown) => {
    // No answer at all (server down, network, CORS): say so, instead of a screen's fallback
    // text that blames the user ("Invalid email or password"). A cancelled call stays one.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, SERVER_UNREACHABLE);
  });
  // A 401 to /auth/… is a wrong password, not an ended session; a token replaced meanwhile (a
  // login in another tab) is not the one that was refused.
  const sessionEnded =
    response.status === 401 &&
    token !== null &&
    !path.startsWith('/auth/') &&
    localStorage.getItem(STORAGE_KEYS.token) === token;
  if (sessionEnded) for (const listener of sessionEndedListeners) listener();
  if (!response.ok) throw new ApiError(response.status, await readDetail(response));
  return response;
}

/** Like apiRaw, and parses the JSON answer (undefined for 204). */
export async function api<T>(path: string, request: ApiRequest = {}): Promise<T> {
  const response = await apiRaw(path, request);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

async function readDetail(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { detail?: unknown };
    return typeof body.detail === 'string' ? body.detail : undefined;
  } catch {
    return undefined;
  }
}

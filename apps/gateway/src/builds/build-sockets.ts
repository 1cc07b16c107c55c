import type { Namespace, Socket } from 'socket.io';
import type { AccessTokenVerifier } from '../auth/access-token.verifier';
import type { AuthenticatedUser } from '../auth/authenticated-user';

/** What a /builds socket keeps from its handshake. */
export interface BuildSocketState {
  user?: AuthenticatedUser;
  /** The access token it connected with, checked again before it is told anything. */
  token?: string;
}

export const SESSION_ENDED =
  'Your session has ended (it expired or the password was changed). Sign in again.';

/**
 * Whether the socket's token still holds, as it would over HTTP: signature, expiry, and the
 * password unchanged since it was issued (the principal cache, invalidated on every replica when
 * a password is reset). A socket whose token no longer holds is disconnected (its subscribe is
 * answered first, with SESSION_ENDED).
 */
export async function stillSignedIn(socket: Socket, tokens: AccessTokenVerifier): Promise<boolean> {
  const state = socket.data as BuildSocketState;
  // null: the account could not be looked up right now; the socket was admitted, so it stays.
  if ((await tokens.holds(state.token)) !== false) return true;
  // After this turn, so an acknowledgement being written goes out first.
  setImmediate(() => socket.disconnect());
  return false;
}

/**
 * Emits to the sockets of this replica in `room` whose tokens still hold; the others are
 * disconnected rather than kept listening after their user's password changed.
 */
export async function emitToSignedIn(
  namespace: Namespace,
  room: string,
  tokens: AccessTokenVerifier,
  event: string,
  payload: unknown,
): Promise<void> {
  const ids = [...(namespace.adapter.rooms.get(room) ?? [])];
  const sockets = ids.flatMap((id) => namespace.sockets.get(id) ?? []);
  await Promise.all(
    sockets.map(async (socket) => {
      if (await stillSignedIn(socket, tokens)) socket.emit(event, payload);
    }),
  );
}

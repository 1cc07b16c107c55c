import { HttpStatus } from '@nestjs/common';
import type { Response } from 'express';

/**
 * Opens a server-sent-events answer. Nothing may cache it, and proxies must pass each event on as
 * it comes (X-Accel-Buffering), or the person sees the answer only when it is finished.
 */
export function openEventStream(response: Response): void {
  coalesce(response);
  response.status(HttpStatus.OK);
  response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('X-Accel-Buffering', 'no');
  response.flushHeaders();
}

/** One event as the preview and the published chat send them: `event: <type>` and the JSON. */
export function writeEvent(response: Response, event: { type: string }): void {
  coalesce(response);
  response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * What is written in one turn of the event loop leaves in one write: the headers with the first
 * event, and the several tokens one read from the provider often carries. The connection is
 * corked now and uncorked when the loop turns, well under a millisecond later; a system call per
 * event cost about a tenth of the gateway's CPU per question (npm run bench:hosted). The socket
 * is corked, not the response: Node 24's `OutgoingMessage.uncork` throws on chunked bodies
 * written without callbacks.
 */
function coalesce(response: Response): void {
  const socket = response.socket;
  if (!socket || socket.writableCorked > 0) return;
  socket.cork();
  setImmediate(() => socket.uncork());
}

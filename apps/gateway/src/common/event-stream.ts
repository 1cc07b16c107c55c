import { HttpStatus } from '@nestjs/common';
import type { Response } from 'express';

/**
 * Opens a server-sent-events answer. Nothing may cache it, and proxies must pass each event on as
 * it comes (X-Accel-Buffering), or the person sees the answer only when it is finished.
 */
export function openEventStream(response: Response): void {
  response.status(HttpStatus.OK);
  response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('X-Accel-Buffering', 'no');
  response.flushHeaders();
}

/** One event as the preview and the published chat send them: `event: <type>` and the JSON. */
export function writeEvent(response: Response, event: { type: string }): void {
  response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

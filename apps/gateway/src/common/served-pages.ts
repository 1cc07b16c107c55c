import { NotFoundException } from '@nestjs/common';
import type { Response } from 'express';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What the pages the gateway serves itself have in common: the preview pages (`/p/…`), the share
 * page and the widget's chat frame (`/s/…`, `/w/…`). Their scripts and styles are plain files in
 * preview-assets/, and each page runs nothing but those files.
 */
const ASSETS_DIR = path.resolve(__dirname, '../../preview-assets');
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Sends one of the files a page may load; any other name is a 404, so no path reaches the disk. */
export async function sendPageAsset(
  response: Response,
  file: string,
  served: readonly string[],
): Promise<void> {
  if (!served.includes(file)) throw new NotFoundException('Not found.');
  const content = await readFile(path.join(ASSETS_DIR, file));
  response.setHeader('Content-Type', CONTENT_TYPES[path.extname(file)] ?? 'text/plain');
  response.setHeader('Cache-Control', 'public, max-age=300');
  response.send(content);
}

/**
 * The page's Content-Security-Policy: only the gateway's own scripts and styles, calls back to
 * the gateway only, and framing only by `frameAncestors` (an empty list: by no one). The
 * gateway's default X-Frame-Options would forbid framing outright, so it goes and this rules.
 */
export function setPagePolicy(
  response: Response,
  policy: { frameAncestors: string[]; imageSources: string },
): void {
  response.removeHeader('X-Frame-Options');
  if (policy.frameAncestors.length === 0) response.setHeader('X-Frame-Options', 'DENY');
  const ancestors = policy.frameAncestors.length ? policy.frameAncestors.join(' ') : "'none'";
  response.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src ${policy.imageSources}`,
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      `frame-ancestors ${ancestors}`,
    ].join('; '),
  );
}

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ??
      character,
  );

/** JSON inside <script type="application/json">: `<` escaped so no text can close the tag. */
export const jsonData = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * Doctype and the head every gateway-served page shares (previews, share page, widget frame), up
 * to where each adds its own; `title` is escaped already.
 */
export function documentStart(title: string, stylesheet = '/p/_assets/preview.css'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<link rel="stylesheet" href="${stylesheet}">`;
}

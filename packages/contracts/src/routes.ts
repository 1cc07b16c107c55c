/**
 * Route paths as the gateway declares them (`/builds/:sessionId`) and as callers fill them in.
 * Each path lives once, next to the zod schemas of its request and answer (documenso's way); the
 * gateway's decorators read the pattern and the web app, test-kit and scripts call `routePath`.
 */
export function routePath(pattern: string, params: Record<string, string> = {}): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`The path ${pattern} needs :${name}.`);
    return encodeURIComponent(value);
  });
}

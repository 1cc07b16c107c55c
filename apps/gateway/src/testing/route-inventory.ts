import type { Express } from 'express';

/** Every route the running app serves ("POST /w/:id/messages"), read from Express's router. */
export function routeInventory(app: Express): string[] {
  const stack = (
    app as unknown as {
      router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
    }
  ).router.stack;
  return (
    stack
      .flatMap((layer) =>
        layer.route
          ? Object.keys(layer.route.methods).map(
              (method) => `${method.toUpperCase()} ${layer.route!.path}`,
            )
          : [],
      )
      // Swagger's own pages, and Nest's catch-all that answers 404 for unknown paths.
      .filter((route) => !/ \/docs/.test(route) && !route.endsWith(' /{*path}'))
  );
}

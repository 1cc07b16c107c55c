/**
 * One origin: the paths the web server forwards to the gateway, so the browser talks to the
 * web app's own origin only (no API address in the bundle, no CORS, any hostname or port).
 * Both ways of serving the app use this one list: `vite preview` (npm start, the e2e suite) as
 * its proxy, and nginx (the image) through the snippet the build writes beside the bundle.
 *
 * The regular expressions are valid in JavaScript and in nginx (PCRE). Vite tests them against
 * the path with its query string, nginx against the path alone, hence `\?` next to `$`.
 */

/**
 * The product's API (docs/product.md#the-calls-behind-the-screens) and the wizard's own calls (key
 * check, source sample), Socket.IO's live build progress, the /p/ preview pages, and published
 * agents: their API (`/agents/…`, the OpenAI-compatible `/v1/…`), share pages (`/s/…`) and widget
 * (`/w/…`).
 */
export const GATEWAY_PATHS =
  '^/(auth|users|rag|img|builds|p|llm|wizard|agents|v1|s|w|socket\\.io|sql/(config|build/api|builds|previews))/' +
  '|^/(pipelines|apikeys|health)(/|\\?|$)';

/** Pages of the app at the same path as an API call: the page for GET, the gateway for POST. */
export const GATEWAY_POST_PATHS = '^/(forgot-password|reset-password)(\\?|$)';

/** nginx's `location` blocks for the paths above; `include`d by nginx.conf's server block. */
export function nginxGatewayLocations(): string {
  const proxy = [
    // nginx matched the normalised path ($uri: dot segments resolved); a proxy_pass without a URI
    // would still forward the raw one (`/w/../docs-json`), so the normalised path is what goes.
    'rewrite ^ $uri break;',
    'proxy_pass http://agentloom_gateway;',
    'proxy_http_version 1.1;',
    // Socket.IO's WebSocket upgrade ($connection_upgrade is nginx.conf's map).
    'proxy_set_header Upgrade $http_upgrade;',
    'proxy_set_header Connection $connection_upgrade;',
    // The Host the browser asked for, port included ($host drops it): the published chat pages'
    // calls are admitted only when their Origin names this very host and port.
    'proxy_set_header Host $http_host;',
    // The gateway limits per client address and believes this one hop (TRUST_PROXY_HOPS=1 from
    // TRUSTED_PROXIES): the address nginx saw, never an X-Forwarded-For the client sent.
    'proxy_set_header X-Forwarded-For $remote_addr;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    // Uploads are limited by the gateway (UPLOAD_MAX_BYTES), not here.
    'client_max_body_size 0;',
    'proxy_request_buffering off;',
    'proxy_read_timeout 300s;',
  ].map((line) => `    ${line}`);
  return [
    '# Written by vite build from apps/web/gateway-routes.ts; do not edit.',
    `location ~ ${GATEWAY_PATHS} {`,
    ...proxy,
    '}',
    `location ~ ${GATEWAY_POST_PATHS} {`,
    '    error_page 418 = @agentloom_gateway;',
    '    if ($request_method = POST) { return 418; }',
    '    add_header Cache-Control "no-cache";',
    '    include /etc/nginx/conf.d/security-headers.inc;',
    '    try_files /index.html =404;',
    '}',
    'location @agentloom_gateway {',
    ...proxy,
    '}',
    '',
  ].join('\n');
}

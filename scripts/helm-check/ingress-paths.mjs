// The helm check's comparison (run.sh): the Ingress sends the gateway's paths to the gateway
// (ingress.apiDirect), and that list must be the one the web server forwards
// (apps/web/gateway-routes.ts): a path missing there would reach the web pods' nginx, one more hop
// (and the gateway would count every client as that pod); a path too many would take one of the
// app's own pages away from it. Reads a `helm template` rendering on standard input.
import { readFileSync } from 'node:fs';
import { GATEWAY_PATHS } from '../../apps/web/gateway-routes.ts';

const rendered = readFileSync(0, 'utf8');
const ingress = rendered.split(/^---$/m).find((doc) => /^kind: Ingress$/m.test(doc));
if (!ingress) throw new Error('no Ingress in the rendering');
// Each `- path: X` and the service its backend names.
const routes = [
  ...ingress.matchAll(/- path: (\S+)\s+pathType: Prefix\s+backend:\s+service:\s+name: (\S+)/g),
].map(([, path, service]) => ({ path, service }));
const toGateway = routes.filter((route) => route.service.endsWith('-gateway')).map((r) => r.path);

// The alternatives of the web server's expression, one level of nesting expanded.
function alternatives(group) {
  const out = [];
  let depth = 0;
  let current = '';
  for (const char of group) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === '|' && depth === 0) {
      out.push(current);
      current = '';
    } else current += char;
  }
  out.push(current);
  return out.flatMap((alternative) => {
    const nested = /^(.*)\((.*)\)$/.exec(alternative);
    return nested ? alternatives(nested[2]).map((inner) => nested[1] + inner) : [alternative];
  });
}
const groups = [...GATEWAY_PATHS.matchAll(/\^\/\(((?:[^()]|\([^()]*\))*)\)/g)].map((m) => m[1]);
const expected = groups.flatMap(alternatives).map((path) => `/${path.replace(/\\\./g, '.')}`);

const missing = expected.filter((path) => !toGateway.includes(path));
const extra = toGateway.filter((path) => !expected.includes(path));
const matcher = new RegExp(GATEWAY_PATHS);
const notForwarded = toGateway.filter((path) => !matcher.test(`${path}/x`));
if (missing.length || extra.length || notForwarded.length) {
  console.error(
    `The Ingress's gateway paths differ from apps/web/gateway-routes.ts: missing ${JSON.stringify(missing)}, not gateway paths ${JSON.stringify([...new Set([...extra, ...notForwarded])])}`,
  );
  process.exit(1);
}
console.log(
  `  ok  the Ingress sends the web server's ${expected.length} gateway paths to the gateway, the rest to the web pods`,
);

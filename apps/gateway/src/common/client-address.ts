import ipaddr from 'ipaddr.js';

/**
 * Which `X-Forwarded-For` entries the gateway believes, for rate limits and login throttling.
 *
 * The product puts exactly one web server in front of the gateway (`vite preview` under npm
 * start, nginx in compose), and that server replaces whatever `X-Forwarded-For` the browser sent
 * with the address it saw. Trusting a hop count alone would let anyone who reaches the gateway's
 * own port (:8000 is published in both) name their own address; trusting an address list alone
 * would let a client behind a trusted proxy add entries of its own. So a hop is believed only when
 * it is within the first TRUST_PROXY_HOPS and the peer that sent it is one of TRUSTED_PROXIES.
 */
export type TrustProxy = (address: string, hop: number) => boolean;

/** The names Express's `trust proxy` also understands, as ipaddr.js calls those ranges. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** One TRUSTED_PROXIES entry as ranges; throws naming the entry when it is none of the forms. */
export function parseTrustedProxy(entry: string): Range[] {
  const named = NAMED_RANGES[entry.toLowerCase()];
  if (named) return named.map((text) => ipaddr.parseCIDR(text));
  try {
    if (entry.includes('/')) return [ipaddr.parseCIDR(entry)];
    const address = ipaddr.process(entry);
    return [[address, address.kind() === 'ipv4' ? 32 : 128]];
  } catch {
    throw new Error(
      `"${entry}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`,
    );
  }
}

/** Whether `address` lies in `range` (ipaddr.js compares only addresses of one family). */
const within = (address: Address, [base, bits]: Range): boolean =>
  address.kind() === base.kind() && (address as ipaddr.IPv4).match(base as ipaddr.IPv4, bits);

/** The `trust proxy` function for Express from the two settings (see the file comment). */
export function trustProxy(hops: number, proxies: string[]): TrustProxy {
  const ranges = proxies.flatMap(parseTrustedProxy);
  if (hops === 0 || ranges.length === 0) return () => false;
  return (address, hop) => {
    if (hop >= hops || !ipaddr.isValid(address)) return false;
    const peer = ipaddr.process(address);
    return ranges.some((range) => within(peer, range));
  };
}

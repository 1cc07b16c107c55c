import ipaddr from 'ipaddr.js';
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { isMongoSrv, ParsedDatabaseUri } from './database-uri';
import { RefusedDataSourceError, UnreachableDataSourceError } from './errors';

export interface NetworkGuardOptions {
  /** DATA_SOURCE_STRICT=true: refuse loopback, private, link-local, unique-local, CGNAT, unspecified… after DNS resolution. */
  strict: boolean;
  /**
   * Hosts strict mode lets through (DATA_SOURCE_ALLOWED_HOSTS): a name as written in the URI, an
   * IP address or a CIDR range. The platform's own services and cloud metadata stay refused.
   */
  allowedHosts?: string[];
  /** The platform's own services (from DATABASE_URL and REDIS_URL): same host (after resolution) and port is refused. */
  platformEndpoints: { host: string; port: number }[];
  /** Injected for tests; defaults to dns.promises.lookup(host, {all:true}). */
  lookup?: (host: string) => Promise<string[]>;
  /** Injected for tests; defaults to dns.promises.resolveSrv (used for mongodb+srv URIs). */
  resolveSrv?: (name: string) => Promise<{ name: string; port: number }[]>;
}

/** One address a host resolved to, checked and safe to connect to. */
export interface CheckedTarget {
  host: string;
  port: number;
  address: string;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const PLATFORM_MESSAGE =
  "This address belongs to Agentloom's own database or cache and cannot be used as a data source.";
const METADATA_MESSAGE = 'Cloud metadata addresses cannot be used as a data source.';
const PRIVATE_MESSAGE = 'Private and loopback addresses are not allowed on this server.';
const COMPATIBLE_MESSAGE =
  'IPv4-compatible IPv6 addresses (::a.b.c.d) are obsolete and cannot be used as a data source. Write the IPv4 address itself.';

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata']);
// AWS, GCP, Azure and Oracle answer on 169.254.169.254, AWS ECS on 169.254.170.2, AWS over IPv6 on
// fd00:ec2::254, Alibaba on 100.100.100.200. The whole IPv4 link-local block is treated as
// metadata: no real database lives there, and providers keep adding endpoints to it.
const METADATA_ADDRESSES = new Set(
  ['fd00:ec2::254', '100.100.100.200'].map((text) => ipaddr.parse(text).toNormalizedString()),
);
const LINK_LOCAL_V4 = ipaddr.IPv4.parseCIDR('169.254.0.0/16');

/**
 * Not the public internet, though ipaddr.js 1.x calls them unicast: benchmarking networks
 * (198.18.0.0/15, often a lab's or a cloud's internal range), IPv6 site-local (fec0::/10,
 * obsolete but still routed by some networks) and the discard prefix (100::/64).
 */
const NON_PUBLIC_RANGES: [Address, number][] = [
  ipaddr.IPv4.parseCIDR('198.18.0.0/15'),
  ipaddr.IPv6.parseCIDR('fec0::/10'),
  ipaddr.IPv6.parseCIDR('100::/64'),
];
/** RFC 8215: NAT64 for a network's own use, with any prefix length RFC 6052 allows inside it. */
const LOCAL_USE_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');
/** ::a.b.c.d (RFC 4291 deprecated it); :: and ::1 are the unspecified and loopback addresses. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** Every loopback, unspecified or own-interface address is the same machine as far as ports go. */
const THIS_MACHINE = 'this-machine';

/**
 * Resolves every host, refuses forbidden targets, and returns the addresses to connect to. The
 * probe connects to these addresses rather than the names, so a DNS answer that changes between
 * this check and the connection (DNS rebinding) cannot redirect it.
 */
export async function checkDataSourceTarget(
  parsed: ParsedDatabaseUri,
  options: NetworkGuardOptions,
): Promise<CheckedTarget[]> {
  const lookup = options.lookup ?? lookupAll;
  const endpoints = isMongoSrv(parsed)
    ? await resolveSrvTargets(parsed.hosts, options.resolveSrv ?? ((name) => dns.resolveSrv(name)))
    : parsed.hosts;
  const [platform, resolved] = await Promise.all([
    platformKeys(options.platformEndpoints, lookup),
    Promise.all(endpoints.map((endpoint) => resolveEndpoint(endpoint, lookup))),
  ]);
  const targets = resolved.flat();
  const allowed = new AllowedHosts(options.allowedHosts ?? []);
  for (const target of targets) {
    refuseForbidden(target, platform, options.strict && !allowed.has(target));
  }
  return targets;
}

async function lookupAll(host: string): Promise<string[]> {
  const entries = await dns.lookup(host, { all: true, verbatim: true });
  return entries.map((entry) => entry.address);
}

async function resolveSrvTargets(
  hosts: ParsedDatabaseUri['hosts'],
  resolveSrv: NonNullable<NetworkGuardOptions['resolveSrv']>,
): Promise<ParsedDatabaseUri['hosts']> {
  const host = hosts[0]?.host ?? '';
  const records = await resolveSrv(`_mongodb._tcp.${host}`).catch(() => []);
  if (records.length === 0) {
    throw new UnreachableDataSourceError(`No MongoDB SRV record was found for ${host}.`);
  }
  return records.map((record) => ({ host: record.name.toLowerCase(), port: record.port }));
}

async function resolveEndpoint(
  endpoint: { host: string; port: number },
  lookup: (host: string) => Promise<string[]>,
): Promise<CheckedTarget[]> {
  // Checked before resolving: these names may not resolve here but would on the agent's host.
  if (METADATA_HOSTS.has(endpoint.host.toLowerCase().replace(/\.$/, ''))) {
    throw new RefusedDataSourceError(METADATA_MESSAGE);
  }
  const addresses = isIP(endpoint.host)
    ? [parseAddress(endpoint.host)]
    : await resolveHost(endpoint.host, lookup);
  return sortIPv4First(addresses).map((address) => ({
    host: endpoint.host,
    port: endpoint.port,
    address: address.toString(),
  }));
}

async function resolveHost(
  host: string,
  lookup: (host: string) => Promise<string[]>,
): Promise<Address[]> {
  const answers = await lookup(host).catch(() => []);
  const addresses = answers
    .filter((text) => ipaddr.isValid(text))
    .map((text) => ipaddr.process(text));
  if (addresses.length === 0) {
    throw new UnreachableDataSourceError(`The host ${host} could not be resolved.`);
  }
  return addresses;
}

// Many servers resolve to IPv6 addresses they cannot route; IPv4 first is the safer first try.
function sortIPv4First(addresses: Address[]): Address[] {
  const isV6 = (address: Address): number => Number(address instanceof ipaddr.IPv6);
  return [...addresses].sort((a, b) => isV6(a) - isV6(b));
}

/** `machine|port` keys of the platform's own services; a host that does not resolve here is skipped. */
async function platformKeys(
  endpoints: NetworkGuardOptions['platformEndpoints'],
  lookup: (host: string) => Promise<string[]>,
): Promise<Set<string>> {
  const localAddresses = ownInterfaceAddresses();
  const keys = await Promise.all(
    endpoints.map(async ({ host, port }) => {
      const addresses = isLocalhostName(host)
        ? [ipaddr.parse('127.0.0.1')]
        : await resolveEndpointQuietly(host, lookup);
      return addresses.map((address) => `${machineKey(address, localAddresses)}|${port}`);
    }),
  );
  return new Set(keys.flat());
}

async function resolveEndpointQuietly(
  host: string,
  lookup: (host: string) => Promise<string[]>,
): Promise<Address[]> {
  return isIP(host) ? [parseAddress(host)] : resolveHost(host, lookup).catch(() => []);
}

/**
 * An IP literal as Node reads it. ipaddr.js knows fewer spellings than Node (::127.0.0.1, an
 * IPv4 tail in IPv6), so IPv6 goes through the URL parser's normal form (::7f00:1) first.
 */
function parseAddress(host: string): Address {
  const text = isIP(host) === 6 ? new URL(`http://[${host}]`).hostname.slice(1, -1) : host;
  return ipaddr.process(text);
}

function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function refuseForbidden(target: CheckedTarget, platform: Set<string>, strict: boolean): void {
  const address = ipaddr.parse(target.address);
  // An IPv6 address that carries an IPv4 one reaches that IPv4 address: each is judged.
  const reached = effectiveAddresses(address);
  if (reached.some(isMetadata)) {
    throw new RefusedDataSourceError(METADATA_MESSAGE);
  }
  const local = ownInterfaceAddresses();
  if (reached.some((each) => platform.has(`${machineKey(each, local)}|${target.port}`))) {
    throw new RefusedDataSourceError(PLATFORM_MESSAGE);
  }
  if (strict && [address, ...reached].some((each) => !isPublic(each))) {
    throw new RefusedDataSourceError(PRIVATE_MESSAGE);
  }
  if (isIPv4Compatible(address)) throw new RefusedDataSourceError(COMPATIBLE_MESSAGE);
}

function isPublic(address: Address): boolean {
  if (isIPv4Compatible(address)) return true; // judged by the IPv4 address it carries
  const range = address.range();
  const embedding =
    range === 'ipv4Mapped' || range === 'rfc6052' || inRange(address, LOCAL_USE_NAT64);
  return (
    (range === 'unicast' || embedding) && !NON_PUBLIC_RANGES.some((cidr) => inRange(address, cidr))
  );
}

function inRange(address: Address, [range, bits]: [Address, number]): boolean {
  return range instanceof ipaddr.IPv4
    ? address instanceof ipaddr.IPv4 && address.match(range, bits)
    : address instanceof ipaddr.IPv6 && address.match(range, bits);
}

function isIPv4Compatible(address: Address): boolean {
  if (!(address instanceof ipaddr.IPv6) || !inRange(address, IPV4_COMPATIBLE)) return false;
  const range = address.range();
  return range !== 'unspecified' && range !== 'loopback';
}

class AllowedHosts {
  private readonly names = new Set<string>();
  private readonly ranges: [Address, number][] = [];

  constructor(entries: string[]) {
    for (const entry of entries.map((text) => text.trim().toLowerCase()).filter(Boolean)) {
      const cidr = entry.includes('/') ? parseCidr(entry) : undefined;
      if (cidr) {
        this.ranges.push(cidr);
      } else if (isIP(entry)) {
        const address = effectiveAddress(parseAddress(entry));
        this.ranges.push([address, address instanceof ipaddr.IPv4 ? 32 : 128]);
      } else {
        this.names.add(entry.replace(/\.$/, ''));
      }
    }
  }

  has(target: CheckedTarget): boolean {
    if (this.names.has(target.host.toLowerCase().replace(/\.$/, ''))) return true;
    const address = ipaddr.parse(target.address);
    const allowed = (each: Address) => this.ranges.some((cidr) => inRange(each, cidr));
    // The address as written, or every address it reaches (a NAT64 address may carry several).
    return allowed(address) || effectiveAddresses(address).every(allowed);
  }
}

function parseCidr(text: string): [Address, number] | undefined {
  try {
    return ipaddr.parseCIDR(text);
  } catch {
    return undefined;
  }
}

/**
 * The addresses an address reaches: itself, or the IPv4 address it carries when it is
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) or NAT64 (64:ff9b::a.b.c.d). In the
 * local-use NAT64 block (64:ff9b:1::/48) the network chooses the prefix length, so every place
 * RFC 6052 allows for the IPv4 address is read (bits 64-71 and the suffix must be zero).
 */
function effectiveAddresses(address: Address): Address[] {
  if (!(address instanceof ipaddr.IPv6)) return [address];
  const bytes = address.toByteArray();
  const v4 = (...at: number[]) => new ipaddr.IPv4(at.map((index) => bytes[index] ?? 0));
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6052' || isIPv4Compatible(address)) {
    return [v4(12, 13, 14, 15)];
  }
  if (!inRange(address, LOCAL_USE_NAT64)) return [address];
  const zero = (from: number) => bytes.slice(from).every((byte) => byte === 0);
  const readings = [v4(12, 13, 14, 15)]; // /96
  if (bytes[8] === 0) {
    if (zero(13)) readings.push(v4(9, 10, 11, 12)); // /64
    if (zero(12)) readings.push(v4(7, 9, 10, 11)); // /56
    if (zero(11)) readings.push(v4(6, 7, 9, 10)); // /48
  }
  return readings;
}

/** The one address an address stands for, to compare with this machine's and the allowlist's. */
function effectiveAddress(address: Address): Address {
  return effectiveAddresses(address)[0] ?? address;
}

function isMetadata(address: Address): boolean {
  const linkLocalV4 = address instanceof ipaddr.IPv4 && address.match(LINK_LOCAL_V4);
  return linkLocalV4 || METADATA_ADDRESSES.has(address.toNormalizedString());
}

function machineKey(address: Address, localAddresses: Set<string>): string {
  const effective = effectiveAddress(address);
  const range = effective.range();
  const normalized = effective.toNormalizedString();
  const local = range === 'loopback' || range === 'unspecified' || localAddresses.has(normalized);
  return local ? THIS_MACHINE : normalized;
}

/** This machine's own interface addresses: a service bound to 0.0.0.0 answers on all of them. */
function ownInterfaceAddresses(): Set<string> {
  const addresses = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => entry.address.split('%')[0] ?? '')
    .filter((text) => ipaddr.isValid(text));
  return new Set(
    addresses.map((text) => effectiveAddress(ipaddr.parse(text)).toNormalizedString()),
  );
}

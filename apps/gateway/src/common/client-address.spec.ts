import { parseTrustedProxy, trustProxy } from './client-address';

// Express asks hop 0 about the socket's peer, hop 1 about the last X-Forwarded-For entry, and so
// on; the first hop it may not trust is the client's address (issue 27, finding 1).
describe('which X-Forwarded-For entries the gateway believes', () => {
  it('believes one hop from the web server on loopback, IPv4-mapped or not, and no further', () => {
    const trust = trustProxy(1, ['loopback']);
    expect(trust('127.0.0.1', 0)).toBe(true);
    expect(trust('::ffff:127.0.0.1', 0)).toBe(true);
    expect(trust('::1', 0)).toBe(true);
    expect(trust('127.0.0.1', 1)).toBe(false);
  });

  it('believes no peer outside TRUSTED_PROXIES, and nobody with 0 hops', () => {
    const trust = trustProxy(1, ['172.30.89.10']);
    expect(trust('172.30.89.10', 0)).toBe(true);
    expect(trust('172.30.89.1', 0)).toBe(false);
    expect(trust('203.0.113.9', 0)).toBe(false);
    expect(trustProxy(0, ['loopback'])('127.0.0.1', 0)).toBe(false);
  });

  it('walks two hops only through trusted addresses', () => {
    const trust = trustProxy(2, ['10.0.0.0/8', 'loopback']);
    expect(trust('127.0.0.1', 0)).toBe(true);
    expect(trust('10.1.2.3', 1)).toBe(true);
    expect(trust('198.51.100.7', 1)).toBe(false);
    expect(trust('10.1.2.3', 2)).toBe(false);
  });

  it('refuses an entry that is no address, range or known name', () => {
    expect(() => parseTrustedProxy('web')).toThrow(/"web" is not an IP address/);
    expect(() => parseTrustedProxy('10.0.0.0/33')).toThrow(/is not an IP address/);
    expect(parseTrustedProxy('uniquelocal')).toHaveLength(4);
  });
});

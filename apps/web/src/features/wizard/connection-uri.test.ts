import { describe, expect, it } from 'vitest';
import { composeUri, emptyConnection, splitUri } from './connection-uri';

describe('connection fields ⇄ URI', () => {
  it('encodes every special character of the user and password, and the database name', () => {
    const uri = composeUri('mysql', {
      host: 'db.example.com',
      port: '3306',
      user: 'shop@owner',
      password: 'p#@:/%w0rd',
      database: 'rose bakery',
    });
    expect(uri).toBe('mysql://shop%40owner:p%23%40%3A%2F%25w0rd@db.example.com:3306/rose%20bakery');
    // What the gateway's URL parser reads back is what was typed.
    const parsed = new URL(uri.replace(/^mysql:/, 'http:'));
    expect(decodeURIComponent(parsed.password)).toBe('p#@:/%w0rd');
    expect(decodeURIComponent(parsed.username)).toBe('shop@owner');
  });

  it('reads a URI back into the fields, the database name given on its own winning', () => {
    expect(splitUri('postgres', 'postgresql://u:p%23%40@db:6543/shop', 'shop')).toEqual({
      host: 'db',
      port: '6543',
      user: 'u',
      password: 'p#@',
      database: 'shop',
    });
    expect(splitUri('postgres', 'postgresql://u:****@db/sales', '')).toEqual({
      host: 'db',
      port: '5432',
      user: 'u',
      password: '****',
      database: 'sales',
    });
  });

  it('leaves URIs the fields cannot hold to the URI form', () => {
    expect(splitUri('mongo', 'mongodb://a:1,b:2/db', 'db')).toBeNull();
    expect(splitUri('postgres', 'mysql://u@db/shop', 'shop')).toBeNull();
    expect(splitUri('postgres', 'postgresql://u:%zz@db/shop', 'shop')).toBeNull();
  });

  it('MongoDB keeps the database out of its path; IPv6 hosts get brackets; no login, no @', () => {
    expect(composeUri('mongo', { ...emptyConnection('mongo'), user: 'a', password: 'b' })).toBe(
      'mongodb://a:b@localhost:27017',
    );
    expect(
      composeUri('postgres', { ...emptyConnection('postgres'), host: '::1', database: 'x' }),
    ).toBe('postgresql://[::1]:5432/x');
    expect(splitUri('postgres', 'postgresql://[::1]:5432/x', 'x')?.host).toBe('::1');
  });
});

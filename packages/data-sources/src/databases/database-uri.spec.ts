import type { TDatabaseSourceType } from '@agentloom/contracts';
import { parseDatabaseUri, redactSecret } from './database-uri';
import { InvalidDataSourceError } from './errors';

function invalidMessage(type: TDatabaseSourceType, uri: string): string {
  try {
    parseDatabaseUri(type, uri);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidDataSourceError);
    return (error as Error).message;
  }
  throw new Error(`${uri} was accepted`);
}

describe('parseDatabaseUri', () => {
  describe('valid forms', () => {
    it('parses a Postgres URI with password, port, database and query', () => {
      const uri = 'postgresql://reporter:s3cret@db.example.com:6543/sales?sslmode=require';
      expect(parseDatabaseUri('postgres', `  ${uri}\n`)).toEqual({
        type: 'postgres',
        uri,
        redactedUri: 'postgresql://reporter:****@db.example.com:6543/sales?sslmode=require',
        password: 's3cret',
        hosts: [{ host: 'db.example.com', port: 6543 }],
        sqlitePath: null,
      });
    });

    it('accepts postgres:// and defaults the port to 5432; no password leaves the URI as is', () => {
      const parsed = parseDatabaseUri('postgres', 'postgres://reporter@DB.Example.com/sales');
      expect(parsed.hosts).toEqual([{ host: 'db.example.com', port: 5432 }]);
      expect(parsed.password).toBeNull();
      expect(parsed.redactedUri).toBe('postgres://reporter@DB.Example.com/sales');
    });

    it('accepts a bracketed IPv6 address', () => {
      const parsed = parseDatabaseUri('postgres', 'postgresql://u:p@[2001:db8::10]:5433/db');
      expect(parsed.hosts).toEqual([{ host: '2001:db8::10', port: 5433 }]);
      expect(parsed.redactedUri).toBe('postgresql://u:****@[2001:db8::10]:5433/db');
    });

    it('parses a MySQL URI with the default port 3306', () => {
      const parsed = parseDatabaseUri('mysql', 'mysql://shop:pw@10.1.2.3/shop');
      expect(parsed.hosts).toEqual([{ host: '10.1.2.3', port: 3306 }]);
      expect(parsed.password).toBe('pw');
      expect(parsed.redactedUri).toBe('mysql://shop:****@10.1.2.3/shop');
    });

    it('parses a MongoDB URI with several hosts, each with its own or the default port', () => {
      const parsed = parseDatabaseUri(
        'mongo',
        'mongodb://app:pw@a.example.com:27017,b.example.com:27018,c.example.com/app?replicaSet=rs0',
      );
      expect(parsed.hosts).toEqual([
        { host: 'a.example.com', port: 27017 },
        { host: 'b.example.com', port: 27018 },
        { host: 'c.example.com', port: 27017 },
      ]);
      expect(parsed.redactedUri).toBe(
        'mongodb://app:****@a.example.com:27017,b.example.com:27018,c.example.com/app?replicaSet=rs0',
      );
    });

    it('parses a mongodb+srv URI naming one host without a port', () => {
      const parsed = parseDatabaseUri('mongo', 'mongodb+srv://app:pw@cluster0.example.net/app');
      expect(parsed.hosts).toEqual([{ host: 'cluster0.example.net', port: 27017 }]);
      expect(parsed.redactedUri).toBe('mongodb+srv://app:****@cluster0.example.net/app');
    });

    it('parses a MongoDB URI without credentials', () => {
      const parsed = parseDatabaseUri('mongo', 'mongodb://127.0.0.1');
      expect(parsed).toMatchObject({ password: null, hosts: [{ host: '127.0.0.1', port: 27017 }] });
    });

    it('takes the relative path after sqlite:/// (three slashes)', () => {
      expect(parseDatabaseUri('sqlite', 'sqlite:///data/app.db')).toEqual({
        type: 'sqlite',
        uri: 'sqlite:///data/app.db',
        redactedUri: 'sqlite:///data/app.db',
        password: null,
        hosts: [],
        sqlitePath: 'data/app.db',
      });
    });

    it('takes an absolute path after sqlite://// (four slashes), without the query', () => {
      const parsed = parseDatabaseUri('sqlite', 'sqlite:////var/lib/app.db?mode=ro');
      expect(parsed.sqlitePath).toBe('/var/lib/app.db');
      expect(parsed.hosts).toEqual([]);
    });
  });

  describe('wrong scheme for the type', () => {
    it.each<[TDatabaseSourceType, string, string]>([
      [
        'postgres',
        'mysql://u:p@h/db',
        'A Postgres connection URI starts with postgresql:// (for example postgresql://user:password@host:5432/dbname).',
      ],
      [
        'mysql',
        'postgresql://u:p@h/db',
        'A MySQL connection URI starts with mysql:// (for example mysql://user:password@host:3306/dbname).',
      ],
      [
        'sqlite',
        'sqlite://data/app.db',
        'A SQLite connection URI starts with sqlite:/// followed by the file path (for example sqlite:///data/app.db, or sqlite:////var/lib/app.db for an absolute path).',
      ],
      [
        'mongo',
        'mysql://u:p@h/db',
        'A MongoDB connection URI starts with mongodb:// or mongodb+srv:// (for example mongodb+srv://user:password@cluster.example.net/dbname).',
      ],
    ])('%s refuses %s and names the expected form', (type, uri, message) => {
      expect(invalidMessage(type, uri)).toBe(message);
    });

    it('refuses an empty URI', () => {
      expect(invalidMessage('postgres', '   ')).toBe(
        'Enter the connection URI of the Postgres database.',
      );
    });
  });

  describe('malformed URIs', () => {
    it.each<[TDatabaseSourceType, string]>([
      ['postgres', 'postgresql://user:Hunter2-pw@/sales'],
      ['postgres', 'postgresql:///sales'],
      ['mysql', 'mysql://user:Hunter2-pw@:3306/shop'],
      ['mongo', 'mongodb://user:Hunter2-pw@a.example.com,,b.example.com/app'],
    ])('%s: %s has no host', (type, uri) => {
      const message = invalidMessage(type, uri);
      expect(message).toMatch(/^The connection URI has no host name; write it after the @/);
      expect(message).not.toContain('Hunter2');
    });

    it.each([
      ['an out-of-range port', 'postgresql://u:p@db.example.com:99999/db', /port "99999"/],
      ['a non-numeric port', 'postgresql://u:p@db.example.com:abc/db', /port "abc"/],
      ['an invalid host name', 'postgresql://u:p@db_!.example.com/db', /not a valid host/],
      ['an unbracketed IPv6 address', 'postgresql://u:p@2001:db8::1/db', /in brackets/],
      [
        'several Postgres hosts',
        'postgresql://u:p@a.example.com,b.example.com/db',
        /several hosts/,
      ],
      ['a space', 'postgresql://u:my pw@db.example.com/db', /spaces/],
    ])('refuses %s', (_label, uri, message) => {
      expect(invalidMessage('postgres', uri)).toMatch(message);
    });

    it.each([
      ['a port', 'mongodb+srv://u:p@cluster0.example.net:27017/app'],
      ['two hosts', 'mongodb+srv://u:p@a.example.net,b.example.net/app'],
      ['an IP address', 'mongodb+srv://u:p@10.0.0.1/app'],
    ])('refuses a mongodb+srv URI with %s', (_label, uri) => {
      expect(invalidMessage('mongo', uri)).toMatch(
        /mongodb\+srv:\/\/ URI names exactly one DNS host/,
      );
    });

    it.each(['sqlite:///', 'sqlite:///?mode=ro', 'sqlite:////var/lib/'])(
      'refuses %s without a file path',
      (uri) => {
        expect(invalidMessage('sqlite', uri)).toMatch(/followed by the file path/);
      },
    );
  });

  describe('passwords with special characters', () => {
    it('decodes a URL-encoded password and redacts its encoded form', () => {
      const uri = 'postgresql://u:p%40ss%3Aw%2Frd%3F%23%25!@db.example.com/db';
      const parsed = parseDatabaseUri('postgres', uri);
      expect(parsed.password).toBe('p@ss:w/rd?#%!');
      expect(parsed.redactedUri).toBe('postgresql://u:****@db.example.com/db');
      expect(parsed.hosts).toEqual([{ host: 'db.example.com', port: 5432 }]);
    });

    it('keeps a raw @ and : inside the password (the last @ ends the user info)', () => {
      const parsed = parseDatabaseUri('mysql', 'mysql://u:p@ss:w0rd@db.example.com/shop');
      expect(parsed.password).toBe('p@ss:w0rd');
      expect(parsed.hosts).toEqual([{ host: 'db.example.com', port: 3306 }]);
      expect(parsed.redactedUri).toBe('mysql://u:****@db.example.com/shop');
    });

    it.each([
      'postgresql://u:Hunter2/pw@db.example.com/db',
      'postgresql://u:Hunter2?pw@db.example.com/db',
      'postgresql://u:Hunter2#pw@db.example.com/db',
      'postgresql://u:Hunter2%pw@db.example.com/db',
    ])('asks for URL-encoding without echoing any of %s', (uri) => {
      const message = invalidMessage('postgres', uri);
      expect(message).toMatch(/must be URL-encoded/);
      expect(message).not.toMatch(/Hunter2|pw@/);
    });
  });
});

describe('redactSecret', () => {
  it('masks a one-letter password where it stands alone, without garbling the words around it', () => {
    expect(
      redactSecret(
        "Access denied for user 'a'@'host' (using password: YES) in mysql://a:a@db",
        'a',
      ),
    ).toBe("Access denied for user '****'@'host' (using password: YES) in mysql://****:****@db");
  });

  const secret = "Pr0be-S3cret!/'";

  it('replaces the raw, URL-encoded and fully percent-encoded forms, in either hex case', () => {
    const text = [
      secret,
      encodeURIComponent(secret),
      'Pr0be%2DS3cret%21%2F%27',
      'Pr0be%2dS3cret%21%2f%27',
    ].join(' | ');
    expect(redactSecret(text, secret)).toBe('**** | **** | **** | ****');
  });

  it('leaves the text alone without a secret', () => {
    expect(redactSecret('nothing to hide', null)).toBe('nothing to hide');
    expect(redactSecret('nothing to hide', '')).toBe('nothing to hide');
  });
});

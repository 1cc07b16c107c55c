import { createConnection } from 'mysql2/promise';
import { UnreachableDataSourceError } from './errors';
import { DatabaseProbeReport } from './probe-database';
import { DATABASE, probe, rejectionOf } from './probe-database.spec-helper';

const MARIADB_ROOT = { host: '127.0.0.1', port: 3306, user: 'root' };
const MARIADB_USER = 'agentloom_probe';
const MARIADB_PASSWORD = 'Pr0be-S3cret!';
const MARIADB_USER_HOSTS = ['%', 'localhost', '127.0.0.1'];

async function onMariadb(statements: string[]): Promise<void> {
  const root = await createConnection(MARIADB_ROOT);
  try {
    for (const statement of statements) {
      await root.query(statement);
    }
  } finally {
    await root.end();
  }
}

const dropMariadbObjects = [
  ...MARIADB_USER_HOSTS.map((host) => `DROP USER IF EXISTS '${MARIADB_USER}'@'${host}'`),
  `DROP DATABASE IF EXISTS ${DATABASE}`,
];

async function setUpMariadb(): Promise<void> {
  await onMariadb([
    ...dropMariadbObjects,
    `CREATE DATABASE ${DATABASE}`,
    `CREATE TABLE ${DATABASE}.orders (id INT AUTO_INCREMENT PRIMARY KEY, customer VARCHAR(80) NOT NULL, total DECIMAL(10, 2), placed_at DATETIME) ENGINE=InnoDB`,
    `INSERT INTO ${DATABASE}.orders (customer, total, placed_at) VALUES ('ada', 10.50, NOW()), ('grace', 20.00, NOW()), ('linus', 7.25, NOW())`,
    `ANALYZE TABLE ${DATABASE}.orders`,
    // Every host form MariaDB may match a TCP connection from 127.0.0.1 against.
    ...MARIADB_USER_HOSTS.flatMap((host) => [
      `CREATE USER '${MARIADB_USER}'@'${host}' IDENTIFIED BY '${MARIADB_PASSWORD}'`,
      `GRANT SELECT ON ${DATABASE}.* TO '${MARIADB_USER}'@'${host}'`,
    ]),
  ]);
}

describe('probeDatabase', () => {
  beforeAll(setUpMariadb);

  afterAll(() => onMariadb(dropMariadbObjects));

  describe('MariaDB', () => {
    const target = { database: DATABASE, table: 'orders' };
    const expected: DatabaseProbeReport = {
      columns: [
        { name: 'id', type: 'int(11)' },
        { name: 'customer', type: 'varchar(80)' },
        { name: 'total', type: 'decimal(10,2)' },
        { name: 'placed_at', type: 'datetime' },
      ],
      approximateRows: 3,
      // The probe user may only SELECT.
      privilegeWarning: null,
    };

    it('warns when the login can do more than read, and says how to make a read-only one', async () => {
      const report = await probe('mysql', `mysql://root@127.0.0.1:3306/${DATABASE}`, target);
      expect(report.privilegeWarning).toBe(
        `This login can do anything on the server. The agent only reads: connect it with a read-only login instead, for example CREATE USER 'agent_reader'@'%' IDENTIFIED BY '…'; GRANT SELECT ON \`${DATABASE}\`.\`orders\` TO 'agent_reader'@'%';`,
      );
    });

    it.each([
      ['a raw', MARIADB_PASSWORD],
      ['a URL-encoded', encodeURIComponent(MARIADB_PASSWORD).replace('!', '%21')],
      ['a fully percent-encoded', 'Pr0be%2DS3cret%21'],
    ])('reports columns and rows with %s password', async (_label, password) => {
      const uri = `mysql://${MARIADB_USER}:${password}@127.0.0.1:3306/ignored`;
      await expect(probe('mysql', uri, target)).resolves.toEqual(expected);
    });

    it('names the missing table', async () => {
      const uri = `mysql://${MARIADB_USER}:${encodeURIComponent(MARIADB_PASSWORD)}@127.0.0.1:3306/`;
      const error = await rejectionOf(probe('mysql', uri, { database: DATABASE, table: 'nope' }));
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(`The table "nope" was not found in database "${DATABASE}".`);
    });

    it('refuses a wrong password without repeating it', async () => {
      const wrong = 'Wr0ng-Pa55!';
      const uri = `mysql://${MARIADB_USER}:${encodeURIComponent(wrong)}@127.0.0.1:3306/${DATABASE}`;
      const error = await rejectionOf(probe('mysql', uri, target));
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(
        'Could not connect to the MySQL server at 127.0.0.1:3306. Check the host, port, user name and password, and that the server accepts connections from this server.',
      );
      expect(error.message).not.toContain('Wr0ng');
    });

    it('scrubs the password even when the server repeats it', async () => {
      // A user name equal to the password: the server's "Access denied for user …" echoes it back.
      const secret = 'Echo-Me-9';
      const uri = `mysql://${secret}:${secret}@127.0.0.1:3306/${DATABASE}`;
      const error = await rejectionOf(probe('mysql', uri, target));
      expect(error.message).toMatch(
        /^Could not connect to the MySQL server at 127\.0\.0\.1:3306\./,
      );
      expect(error.message).not.toContain(secret);
    });
  });
});

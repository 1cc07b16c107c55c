import { wizardRoute } from '@agentloom/contracts';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * A production gateway must not reach the services beside it (issue 16, finding 4): the probe
 * listed the columns of mysql.user through mysql://root@127.0.0.1:3306/mysql.
 */
describe('data sources on a production gateway', () => {
  let t: TestApp;
  let alice: TestUser;

  const production = {
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://agents.example.com',
  };

  afterEach(() => t.close());

  async function connect(uri: string, table: string) {
    const { body } = await t.http
      .post('/pipelines')
      .set(alice.auth)
      .send({ name: 'Probe', agent_type: 'sql' })
      .expect(201);
    const form = (step: string, fields: Record<string, string>) =>
      t.http
        .post(wizardRoute('sql', step))
        .set(alice.auth)
        .type('form')
        .send({ session_id: body.session_id as string, ...fields });
    await form('source', { source_type: 'mysql' }).expect(200);
    return form('database', { db_uri: uri, db_name: 'mysql', table_name: table });
  }

  it('refuses a loopback database by default', async () => {
    t = await createTestApp(production);
    alice = await signUpAndLogIn(t.url, 'strict');
    const res = await connect('mysql://root@127.0.0.1:3306/mysql', 'user');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: 'Private and loopback addresses are not allowed on this server.',
    });
  });

  it('lets an allowlisted on-premises host through', async () => {
    t = await createTestApp({ ...production, DATA_SOURCE_ALLOWED_HOSTS: '127.0.0.1' });
    alice = await signUpAndLogIn(t.url, 'onprem');
    // Reaches the server this time: a wrong password answers like any failure to connect.
    const res = await connect('mysql://nobody:wrong@127.0.0.1:3306/mysql', 'user');
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(
      'Could not connect to the MySQL server at 127.0.0.1:3306. Check the host, port, user name and password, and that the server accepts connections from this server.',
    );
  });
});

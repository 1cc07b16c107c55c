import { existsSync, readdirSync } from 'node:fs';
import { storeFolders } from '@agentloom/server-kit';
import path from 'node:path';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');

describe('profile: GET and PUT /users/me', () => {
  let t: TestApp;
  let user: TestUser;
  const avatarsDir = () => path.join(t.config.DATA_DIR, storeFolders.avatars);
  const incomingDir = () => path.join(t.config.DATA_DIR, 'incoming');

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    user = await signUpAndLogIn(t.url, 'profile');
  });
  afterAll(() => t.close());

  it('returns the profile fields the dashboard shows', async () => {
    const res = await t.http.get('/users/me').set(user.auth).expect(200);
    expect(res.body).toEqual({
      full_name: null,
      username: user.username,
      email: user.email,
      phone_number: null,
      bio: null,
      profile_picture_url: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('updates the editable fields from a multipart form', async () => {
    const res = await t.http
      .put('/users/me')
      .set(user.auth)
      .field('full_name', 'Ada Lovelace')
      .field('phone_number', '+44 20 7946 0000')
      .field('bio', 'Writes the first programs.')
      .expect(200);
    expect(res.body).toMatchObject({
      full_name: 'Ada Lovelace',
      phone_number: '+44 20 7946 0000',
      bio: 'Writes the first programs.',
    });
    const again = await t.http.get('/users/me').set(user.auth).expect(200);
    expect(again.body).toEqual(res.body);
  });

  it('a change made through one replica is read through another at once', async () => {
    const replica = await createTestApp();
    await replica.http.get('/users/me').set(user.auth).expect(200); // cached there
    await t.http.put('/users/me').set(user.auth).field('bio', 'changed on replica A').expect(200);
    const seen = await replica.http.get('/users/me').set(user.auth).expect(200);
    expect(seen.body.bio).toBe('changed on replica A');
    await replica.close();
  });

  it('ignores e-mail, username, id and dates sent in the form (no mass assignment)', async () => {
    const before = await t.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    await t.http
      .put('/users/me')
      .set(user.auth)
      .field('full_name', 'Still Me')
      .field('email', 'attacker@example.com')
      .field('username', 'attacker')
      .field('id', '00000000-0000-4000-8000-000000000000')
      .field('created_at', '2000-01-01T00:00:00.000Z')
      .field('password_hash', 'x')
      .expect(200);
    const after = await t.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after).toMatchObject({
      id: before.id,
      email: before.email,
      username: before.username,
      createdAt: before.createdAt,
      passwordHash: before.passwordHash,
      fullName: 'Still Me',
    });
  });

  it('stores a picture under a server-made name and serves it with its type', async () => {
    const res = await t.http
      .put('/users/me')
      .set(user.auth)
      .attach('file', PNG, { filename: '../../etc/passwd.png', contentType: 'image/png' })
      .expect(200);
    expect(res.body.profile_picture_url).toMatch(/^\/users\/avatars\/[0-9a-f-]{36}\.png$/);
    const picture = await t.http.get(res.body.profile_picture_url).expect(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(picture.body as Buffer, PNG)).toBe(0);
    expect(readdirSync(incomingDir())).toHaveLength(0);
  });

  it('replacing the picture removes the old file', async () => {
    const first = await t.http
      .put('/users/me')
      .set(user.auth)
      .attach('file', PNG, 'a.png')
      .expect(200);
    const firstName = path.basename(first.body.profile_picture_url as string);
    const second = await t.http
      .put('/users/me')
      .set(user.auth)
      .attach('file', GIF, 'b.gif')
      .expect(200);
    expect(second.body.profile_picture_url).toMatch(/\.gif$/);
    expect(existsSync(path.join(avatarsDir(), firstName))).toBe(false);
    await t.http.get(first.body.profile_picture_url).expect(404);
  });

  it('refuses a picture whose content is not an image (415) and keeps the profile', async () => {
    await t.http.put('/users/me').set(user.auth).field('bio', 'kept').expect(200);
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    const res = await t.http
      .put('/users/me')
      .set(user.auth)
      .field('bio', 'should not be saved')
      .attach('file', html, { filename: 'avatar.png', contentType: 'image/png' })
      .expect(415);
    expect(res.body).toEqual({
      detail: 'The profile picture must be a PNG, JPEG, WebP or GIF image.',
    });
    const profile = await t.http.get('/users/me').set(user.auth).expect(200);
    expect(profile.body).toMatchObject({ bio: 'kept', profile_picture_url: null });
    expect(readdirSync(incomingDir())).toHaveLength(0);
  });

  it('refuses a picture over 5 MB with 413', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 1)]);
    const res = await t.http
      .put('/users/me')
      .set(user.auth)
      .attach('file', big, 'big.png')
      .expect(413);
    expect(res.body).toEqual({ detail: 'The profile picture must be 5 MB or smaller.' });
    expect(readdirSync(incomingDir())).toHaveLength(0);
  });

  it('refuses over-long fields with 400 naming the field', async () => {
    const res = await t.http
      .put('/users/me')
      .set(user.auth)
      .field('full_name', 'x'.repeat(101))
      .expect(400);
    expect(res.body.detail).toBe('full_name: Full name must be at most 100 characters.');
  });

  it('answers 404 for picture names the server did not make', async () => {
    for (const name of [
      '..%2F..%2Fetc%2Fpasswd',
      'passwd',
      '00000000-0000-4000-8000-000000000000.png',
    ]) {
      await t.http.get(`/users/avatars/${name}`).expect(404);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { createTestApp, TestApp } from '../testing/test-app';
import { RedisService } from './redis.service';
import { VersionedCache } from './versioned-cache';

describe('VersionedCache (real Redis)', () => {
  let t: TestApp;
  let cache: VersionedCache<{ name: string }>;
  beforeAll(async () => {
    t = await createTestApp();
    cache = new VersionedCache(t.app.get(RedisService), `test-${randomUUID()}`, 30);
  });
  afterAll(() => t.close());

  it('serves what was written at the current version', async () => {
    const id = randomUUID();
    const first = await cache.read(id);
    expect(first).toEqual({ value: null, version: '0' });
    await cache.write(id, first.version, { name: 'fresh' });
    expect((await cache.read(id)).value).toEqual({ name: 'fresh' });
  });

  it('never serves a value loaded before an invalidation (the read/invalidate/write race)', async () => {
    const id = randomUUID();
    const reader = await cache.read(id); // reader misses and goes to the database…
    await cache.invalidate(id); // …a writer commits a change and invalidates…
    await cache.write(id, reader.version, { name: 'stale' }); // …the reader stores its old row.
    const next = await cache.read(id);
    expect(next.value).toBeNull();
    await cache.write(id, next.version, { name: 'current' });
    expect((await cache.read(id)).value).toEqual({ name: 'current' });
  });
});

import {
  createObjectStore,
  LocalObjectStore,
  type ObjectStore,
  ZObjectStoreEnv,
} from '@agentloom/server-kit';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { S3TestServer } from '../testing/s3-test-server';

/** The same behaviour from both drivers: the folder one and S3 against a real S3 server. */
describe.each(['local', 's3'] as const)('object store: %s driver', (driver) => {
  let s3: S3TestServer | undefined;
  let store: ObjectStore;
  const scratch = mkdtempSync(path.join(tmpdir(), 'agentloom-objects-'));

  /** A local file holding `content`, as an upload or a finished zip would be. */
  const fileWith = (content: string): string => {
    const file = path.join(mkdtempSync(path.join(scratch, 'in-')), 'file');
    writeFileSync(file, content);
    return file;
  };

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    if (driver === 'local') {
      store = createObjectStore(ZObjectStoreEnv.parse({}), dataDir);
      expect(store).toBeInstanceOf(LocalObjectStore);
      return;
    }
    s3 = await S3TestServer.start();
    store = createObjectStore(ZObjectStoreEnv.parse(await s3.bucket('agentloom-test')), dataDir);
  }, 180_000);
  afterAll(() => s3?.stop());

  it('stores a file, takes it, and gives it back as a stream and as a local file', async () => {
    const upload = fileWith('a,b\n1,2\n');
    await store.putFile('uploads/p1/source.csv', upload);
    await expect(readFile(upload)).rejects.toMatchObject({ code: 'ENOENT' });

    const opened = await store.open('uploads/p1/source.csv');
    expect(opened?.size).toBe(8);
    expect(await text(opened!.stream)).toBe('a,b\n1,2\n');
    const local = await store.localPath('uploads/p1/source.csv');
    expect(await readFile(local!, 'utf8')).toBe('a,b\n1,2\n');
  });

  it("keeps files read by path in a hosted index's folder, and removes them with it", async () => {
    const folder = store.folderLocation('indexes/p5/b1');
    await folder.putFile('graph.usearch', fileWith('graph'));
    expect(await readFile((await folder.localPath('graph.usearch'))!, 'utf8')).toBe('graph');
    expect(await store.open('indexes/p5/b1/graph.usearch')).not.toBeNull();
    expect(await folder.localPath('passages.jsonl')).toBeNull();
    await store.removeAll('indexes/p5');
    expect(await store.open('indexes/p5/b1/graph.usearch')).toBeNull();
    expect(await folder.localPath('graph.usearch')).toBeNull();
  });

  it('replaces an object, and answers null for one that is not there', async () => {
    await store.putFile('artifacts/p2/b1.zip', fileWith('first'));
    await store.putFile('artifacts/p2/b1.zip', fileWith('second'));
    expect(await text((await store.open('artifacts/p2/b1.zip'))!.stream)).toBe('second');
    expect(await store.open('artifacts/p2/none.zip')).toBeNull();
    expect(await store.localPath('artifacts/p2/none.zip')).toBeNull();
  });

  it("removes one object, and all of a pipeline's, leaving the others", async () => {
    await store.putFile('avatars/a.png', fileWith('png'));
    await store.remove('avatars/a.png');
    expect(await store.open('avatars/a.png')).toBeNull();

    await store.putFile('uploads/p3/x.csv', fileWith('x'));
    await store.putFile('uploads/p3/y.csv', fileWith('y'));
    await store.putFile('uploads/p30/z.csv', fileWith('z'));
    await store.localPath('uploads/p3/x.csv');
    await store.removeAll('uploads/p3');
    expect(await store.open('uploads/p3/x.csv')).toBeNull();
    expect(await store.localPath('uploads/p3/y.csv')).toBeNull();
    expect(await text((await store.open('uploads/p30/z.csv'))!.stream)).toBe('z');
  });

  it('refuses keys that could leave the store', async () => {
    await expect(store.putFile('../etc/passwd', fileWith('x'))).rejects.toThrow(/storage key/);
    await expect(store.open('uploads//x')).rejects.toThrow(/storage key/);
    await expect(store.removeAll('/')).rejects.toThrow(/storage key/);
  });
});

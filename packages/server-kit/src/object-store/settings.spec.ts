import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../environment';
import { LocalObjectStore } from './local-object-store';
import { S3ObjectStore } from './s3-object-store';
import { createObjectStore, ZObjectStoreEnv } from './settings';

describe('createObjectStore', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'agentloom-settings-'));
  const store = (env: Record<string, string>) =>
    createObjectStore(ZObjectStoreEnv.parse(env), dataDir);

  it('keeps files in DATA_DIR unless told otherwise', () => {
    expect(store({})).toBeInstanceOf(LocalObjectStore);
  });

  it('uses S3 when asked, and names the missing bucket setting', () => {
    expect(() => store({ STORAGE_DRIVER: 's3' })).toThrow(ConfigError);
    expect(() => store({ STORAGE_DRIVER: 's3' })).toThrow(/^Missing setting S3_BUCKET/);
    expect(store({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b' })).toBeInstanceOf(S3ObjectStore);
  });

  it('refuses an unknown driver', () => {
    expect(() => ZObjectStoreEnv.parse({ STORAGE_DRIVER: 'ftp' })).toThrow();
  });
});

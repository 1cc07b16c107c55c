import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../environment';
import { LocalObjectStore } from './local-object-store';
import type { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3-object-store';

/** The storage settings, the same for the gateway and the worker (docs/operating.md, "Every setting"). */
export const ZObjectStoreEnv = z.object({
  /** `local`: files under DATA_DIR (one machine, or a shared volume). `s3`: an S3 bucket. */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(1).optional(),
  /** An S3-compatible service's address (MinIO: http://minio:9000); unset for AWS S3. */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Unset: the SDK's usual credential chain (instance role, AWS_* variables…). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style addresses; default true with S3_ENDPOINT (MinIO), false for AWS. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'])
    .transform((value) => value === 'true' || value === '1')
    .optional(),
});
export type ObjectStoreEnv = z.infer<typeof ZObjectStoreEnv>;

/** The driver the settings choose; `dataDir` holds the folder driver's files or S3's local copies. */
export function createObjectStore(env: ObjectStoreEnv, dataDir: string): ObjectStore {
  if (env.STORAGE_DRIVER === 'local') return new LocalObjectStore(dataDir);
  if (!env.S3_BUCKET) {
    throw new ConfigError('Missing setting S3_BUCKET: required with STORAGE_DRIVER=s3.');
  }
  return new S3ObjectStore({
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? Boolean(env.S3_ENDPOINT),
    cacheDir: path.join(dataDir, 'object-cache'),
  });
}

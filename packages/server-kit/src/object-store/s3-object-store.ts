import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkedKey, type ObjectStore } from './object-store';

export interface S3ObjectStoreOptions {
  bucket: string;
  /** Any S3-compatible service (MinIO, moto, R2…); unset: AWS itself. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket` in the path rather than the host name: what MinIO and most self-hosted S3 need. */
  forcePathStyle: boolean;
  /** Local copies of objects read through `localPath`. */
  cacheDir: string;
}

/** Objects in an S3-compatible bucket, streamed both ways (never held whole in memory). */
export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly cacheDir: string;
  /** The same bucket and credentials, in the terms of LanceDB's object store (folderLocation). */
  private readonly folderOptions: Record<string, string>;

  constructor(options: S3ObjectStoreOptions) {
    this.folderOptions = {
      aws_region: options.region,
      ...(options.endpoint && {
        aws_endpoint: options.endpoint,
        allow_http: String(options.endpoint.startsWith('http:')),
      }),
      aws_virtual_hosted_style_request: String(!options.forcePathStyle),
      ...(options.accessKeyId &&
        options.secretAccessKey && {
          aws_access_key_id: options.accessKeyId,
          aws_secret_access_key: options.secretAccessKey,
        }),
    };
    const config: S3ClientConfig = {
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
    };
    if (options.accessKeyId && options.secretAccessKey) {
      config.credentials = {
        accessKeyId: options.accessKeyId,
        secretAccessKey: options.secretAccessKey,
      };
    }
    this.client = new S3Client(config);
    this.bucket = options.bucket;
    this.cacheDir = options.cacheDir;
  }

  async putFile(key: string, file: string): Promise<void> {
    try {
      const { size } = await stat(file);
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: checkedKey(key),
          Body: createReadStream(file),
          ContentLength: size,
        }),
      );
    } finally {
      await rm(file, { force: true });
    }
  }

  async open(key: string) {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: checkedKey(key) }),
      );
      if (!answer.Body) return null;
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }

  async localPath(key: string): Promise<string | null> {
    const copy = path.join(this.cacheDir, ...checkedKey(key).split('/'));
    if (
      await stat(copy).then(
        (info) => info.isFile(),
        () => false,
      )
    )
      return copy;
    const object = await this.open(key);
    if (!object) return null;
    await mkdir(path.dirname(copy), { recursive: true });
    const partial = `${copy}.${randomUUID()}.partial`;
    try {
      await pipeline(object.stream, createWriteStream(partial));
      await rename(partial, copy);
    } finally {
      await rm(partial, { force: true });
    }
    return copy;
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkedKey(key) }));
    await rm(path.join(this.cacheDir, ...key.split('/')), { force: true });
  }

  folderLocation(prefix: string) {
    return {
      uri: `s3://${this.bucket}/${checkedKey(prefix)}`,
      storageOptions: this.folderOptions,
      putFile: (name: string, file: string) => this.putFile(`${prefix}/${name}`, file),
      localPath: (name: string) => this.localPath(`${prefix}/${name}`),
    };
  }

  async removeAll(prefix: string): Promise<void> {
    const folder = `${checkedKey(prefix)}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: folder, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      if (keys.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    await rm(path.join(this.cacheDir, ...prefix.split('/')), { recursive: true, force: true });
  }
}

import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { checkedKey, type ObjectStore } from './object-store';

/** Objects as files under one folder (DATA_DIR): the key is the path below it. */
export class LocalObjectStore implements ObjectStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, ...checkedKey(key).split('/'));
  }

  async putFile(key: string, file: string): Promise<void> {
    const target = this.file(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Moved (the same disk: a rename), or copied to a unique name beside the target and renamed:
    // either way readers see the whole file or none.
    if (
      await rename(file, target).then(
        () => true,
        () => false,
      )
    )
      return;
    const partial = `${target}.${randomUUID()}.partial`;
    try {
      await copyFile(file, partial);
      await rename(partial, target);
    } finally {
      await rm(partial, { force: true });
      await rm(file, { force: true });
    }
  }

  async open(key: string) {
    const file = this.file(key);
    const info = await stat(file).catch(() => null);
    return info?.isFile() ? { stream: createReadStream(file), size: info.size } : null;
  }

  async localPath(key: string): Promise<string | null> {
    const file = this.file(key);
    const info = await stat(file).catch(() => null);
    // Not only regular files: a test may hold a build's read on a named pipe in its place.
    return info && !info.isDirectory() ? file : null;
  }

  async remove(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  folderLocation(prefix: string) {
    return {
      uri: this.file(prefix),
      putFile: (name: string, file: string) => this.putFile(`${prefix}/${name}`, file),
      localPath: (name: string) => this.localPath(`${prefix}/${name}`),
    };
  }

  async removeAll(prefix: string): Promise<void> {
    await rm(this.file(prefix), { recursive: true, force: true });
  }
}

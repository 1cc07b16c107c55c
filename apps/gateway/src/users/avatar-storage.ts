import { PROFILE_PICTURE_TYPES } from '@agentloom/contracts';
import { OBJECT_STORE, storeKeys, type ObjectStore } from '@agentloom/server-kit';
import { Inject, Injectable, UnsupportedMediaTypeException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { sniffMimeTypes } from '../files/detect-file-type';

const EXTENSION_BY_MIME: Record<(typeof PROFILE_PICTURE_TYPES)[number], string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};
const MIME_BY_EXTENSION = Object.fromEntries(
  Object.entries(EXTENSION_BY_MIME).map(([mime, ext]) => [ext, mime]),
) as Record<string, string>;

/** Names this storage makes; anything else asked of it does not exist. */
const STORED_NAME =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|webp|gif)$/;

export const WRONG_PICTURE_TYPE = 'The profile picture must be a PNG, JPEG, WebP or GIF image.';

/**
 * Profile pictures in the object store (storeKeys.avatar) under server-made names (the uploader's
 * file name is never used).
 */
@Injectable()
export class AvatarStorage {
  constructor(@Inject(OBJECT_STORE) private readonly objects: ObjectStore) {}

  /** Checks the upload by content and moves it into place; returns the stored name. */
  async store(uploadedPath: string): Promise<string> {
    try {
      const mimes = await sniffMimeTypes(uploadedPath);
      const mime = PROFILE_PICTURE_TYPES.find((allowed) => mimes.includes(allowed));
      if (!mime) throw new UnsupportedMediaTypeException(WRONG_PICTURE_TYPE);
      const name = `${randomUUID()}.${EXTENSION_BY_MIME[mime]}`;
      await this.objects.putFile(storeKeys.avatar(name), uploadedPath);
      return name;
    } finally {
      await rm(uploadedPath, { force: true });
    }
  }

  async remove(name: string | null | undefined): Promise<void> {
    if (name && STORED_NAME.test(name)) await this.objects.remove(storeKeys.avatar(name));
  }

  /** Opens a stored picture, or returns null for any name this storage did not make. */
  async open(name: string): Promise<{ stream: Readable; mime: string; size: number } | null> {
    const match = STORED_NAME.exec(name);
    if (!match) return null;
    const picture = await this.objects.open(storeKeys.avatar(name));
    return picture && { ...picture, mime: MIME_BY_EXTENSION[match[1]!]! };
  }
}

export const avatarUrl = (name: string | null): string | null =>
  name ? `/users/avatars/${name}` : null;

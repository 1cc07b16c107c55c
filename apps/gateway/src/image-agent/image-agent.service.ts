import { generateImage } from '@agentloom/agent-runtime';
import type {
  TImageAgentKey,
  TImageAgentLaunched,
  TImageRequest,
  TImageResult,
} from '@agentloom/contracts';
import {
  BadRequestException,
  Inject,
  Injectable,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { APP_CONFIG, AppConfig } from '../config/env';
import { sniffMimeTypes } from '../files/detect-file-type';
import { PreviewGrantStore } from '../previews/preview-grants';

export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** An image the person uploaded to edit, as Gemini takes it. */
interface SourceImage {
  data: Uint8Array;
  mediaType: string;
}

/**
 * The image generation agent behind its page: Gemini makes or edits an image on the owner's
 * behalf, with a key typed into the page (used for this call only, never stored) or one of the
 * owner's saved Gemini keys.
 */
@Injectable()
export class ImageAgentService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly apiKeys: ApiKeysService,
    private readonly grants: PreviewGrantStore,
  ) {}

  /** The caller's image agent page: a link of its own, like a preview's. */
  async launch(userId: string): Promise<TImageAgentLaunched> {
    const { url } = await this.grants.link({ kind: 'image', userId });
    return { url };
  }

  /** The owner's saved Gemini keys, by name and mask only: the page offers them by name. */
  async geminiKeys(userId: string): Promise<TImageAgentKey[]> {
    const keys = await this.apiKeys.list(userId);
    return keys
      .filter((key) => key.provider === 'gemini')
      .map((key) => ({ id: key.id, name: key.name, masked: key.key }));
  }

  async generate(
    userId: string,
    request: TImageRequest,
    upload?: Express.Multer.File,
  ): Promise<TImageResult> {
    const apiKey = request.api_key_id
      ? (await this.apiKeys.reveal(userId, request.api_key_id)).key
      : request.api_key;
    if (!apiKey) throw new BadRequestException('Set your Gemini API key first.');
    const image = upload ? await this.sourceImage(upload) : undefined;
    try {
      const result = await generateImage({
        apiKey,
        prompt: request.prompt,
        image,
        baseUrl: this.config.GEMINI_BASE_URL,
        signal: AbortSignal.timeout(this.config.PROVIDER_TIMEOUT_MS),
      });
      return {
        text: result.text ?? null,
        images: result.images.map((generated) => ({
          media_type: generated.mediaType,
          data: Buffer.from(generated.data).toString('base64'),
        })),
      };
    } catch (error) {
      // Gemini's own message helps ("API key not valid"…), but must never echo the key back.
      throw new UnprocessableEntityException(
        `Gemini could not make the image: ${(error as Error).message}`.replaceAll(apiKey, '****'),
      );
    }
  }

  /** The uploaded file, if its bytes (not its name) say it is an image Gemini can edit. */
  private async sourceImage(upload: Express.Multer.File): Promise<SourceImage> {
    const mediaType = (await sniffMimeTypes(upload.path)).find((type) =>
      IMAGE_TYPES.includes(type),
    );
    if (!mediaType) throw new UnsupportedMediaTypeException('Upload a PNG, JPEG or WebP image.');
    return { data: await readFile(upload.path), mediaType };
  }
}

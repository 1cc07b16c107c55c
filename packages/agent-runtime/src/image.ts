import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { generateText, type ImagePart, type TextPart } from 'ai';
import { describeProviderError } from './provider-errors';
import { observedLanguageModel } from './provider-calls';

/** Gemini's image model ("nano banana"): it both draws and edits. */
export const DEFAULT_IMAGE_MODEL = 'gemini-2.5-flash-image';

export interface GenerateImageOptions {
  apiKey: string;
  /** What to draw, or for an edit, what to change. */
  prompt: string;
  /** An uploaded image to edit. */
  image?: { data: Uint8Array; mediaType: string };
  model?: string;
  /** Gemini's API base, like ProviderBaseUrls.gemini (e.g. a proxy or the tests' server). */
  baseUrl?: string;
  signal?: AbortSignal;
}

export interface GeneratedImages {
  images: { mediaType: string; data: Uint8Array }[];
  /** What the model wrote beside the image, if anything. */
  text?: string;
}

/**
 * The image agent: Gemini draws an image from a description, or edits the uploaded one as
 * described. Failures are Errors whose message is meant for the person (never the key).
 */
export async function generateImage(o: GenerateImageOptions): Promise<GeneratedImages> {
  const google = createGoogleGenerativeAI({ apiKey: o.apiKey, baseURL: o.baseUrl });
  const content: (ImagePart | TextPart)[] = [{ type: 'text', text: o.prompt }];
  if (o.image) {
    content.unshift({ type: 'image', image: o.image.data, mediaType: o.image.mediaType });
  }
  let result: Awaited<ReturnType<typeof generateText>>;
  try {
    result = await generateText({
      model: observedLanguageModel(google(o.model ?? DEFAULT_IMAGE_MODEL), 'gemini', 'image'),
      messages: [{ role: 'user', content }],
      providerOptions: { google: { responseModalities: ['TEXT', 'IMAGE'] } },
      abortSignal: o.signal,
    });
  } catch (error) {
    throw new Error(describeProviderError(error));
  }
  const text = result.text.trim() || undefined;
  const images = result.files
    .filter((file) => file.mediaType.startsWith('image/'))
    .map((file) => ({ mediaType: file.mediaType, data: file.uint8Array }));
  if (images.length === 0) {
    throw new Error(
      text
        ? `The model answered without an image: "${text}"`
        : 'The model answered without an image. Try describing the image differently.',
    );
  }
  return { images, text };
}

import { z } from 'zod';
import { zText } from './text';

/** POST /rag/previews/{id}/start and /sql/previews/previews/{id}/start answer this. */
export const ZPreviewStarted = z.object({
  /** Absolute URL of the preview page, `/p/{token}/` on the gateway; the token is the access. */
  preview_url: z.url(),
});
export type TPreviewStarted = z.infer<typeof ZPreviewStarted>;

/**
 * POST /img/launch-streamlit-app answers this: the image agent page
 * (docs/product.md#the-image-agent).
 */
export const ZImageAgentLaunched = z.object({ url: z.url() });
export type TImageAgentLaunched = z.infer<typeof ZImageAgentLaunched>;

export const PREVIEW_QUESTION_MAX_LENGTH = 2000;

/** POST /p/{token}/ask: one question; the answer streams back as server-sent events. */
export const ZPreviewQuestion = z.object({
  question: zText()
    .trim()
    .min(1, { error: 'Type a question first.' })
    .max(PREVIEW_QUESTION_MAX_LENGTH, {
      error: `A question can be at most ${PREVIEW_QUESTION_MAX_LENGTH} characters.`,
    }),
});
export type TPreviewQuestion = z.infer<typeof ZPreviewQuestion>;

/** GET /p/{token}/info: what the preview page shows about the agent. */
export const ZPreviewInfo = z.object({
  kind: z.enum(['rag', 'sql']),
  name: zText(),
  ui: z.enum(['gradio', 'streamlit']),
  source: zText(),
  /** RAG: how the preview retrieves; `note` explains a fallback to keyword search. */
  retrieval: z
    .object({
      mode: z.enum(['embeddings', 'keyword']),
      note: zText().optional(),
      chunks: z.number().int(),
    })
    .nullable(),
  /** SQL: the tables the agent queries, with their columns, so a person knows what to ask. */
  tables: z
    .array(
      z.object({
        name: zText(),
        columns: z.array(z.object({ name: zText(), type: zText() })),
      }),
    )
    .nullable(),
  /** Memory the loaded agent holds in the gateway (index vectors and text, or the SQL engine). */
  memory_bytes: z.number().int(),
  expires_at: z.iso.datetime(),
});
export type TPreviewInfo = z.infer<typeof ZPreviewInfo>;

export const IMAGE_PROMPT_MAX_LENGTH = 4000;

/**
 * POST /p/{token}/images (multipart): a description, with an optional image to edit. The key is
 * typed into the page (`api_key`, used for this call only) or one of the owner's saved Gemini keys
 * (`api_key_id`); the saved one wins when both are sent.
 */
export const ZImageRequest = z.object({
  prompt: zText({ error: 'Describe the image first.' })
    .trim()
    .min(1, { error: 'Describe the image first.' })
    .max(IMAGE_PROMPT_MAX_LENGTH, {
      error: `A description can be at most ${IMAGE_PROMPT_MAX_LENGTH} characters.`,
    }),
  api_key: zText().trim().optional(),
  api_key_id: z.string().optional(),
});
export type TImageRequest = z.infer<typeof ZImageRequest>;

/** What the image agent answers: the model's words, if any, and the images (base64). */
export const ZImageResult = z.object({
  text: zText().nullable(),
  images: z.array(z.object({ media_type: zText(), data: z.string() })),
});
export type TImageResult = z.infer<typeof ZImageResult>;

/** GET /p/{token}/keys: the owner's saved Gemini keys, by name and mask only. */
export const ZImageAgentKey = z.object({
  id: z.string(),
  name: zText().nullable(),
  masked: zText(),
});
export type TImageAgentKey = z.infer<typeof ZImageAgentKey>;

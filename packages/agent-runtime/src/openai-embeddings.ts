import type { EmbeddingModelV3, EmbeddingModelV3CallOptions } from '@ai-sdk/provider';
import {
  combineHeaders,
  createJsonErrorResponseHandler,
  createJsonResponseHandler,
  postJsonToApi,
  withoutTrailingSlash,
  zodSchema,
} from '@ai-sdk/provider-utils';
import { z } from 'zod';

/**
 * OpenAI's embeddings endpoint, asked for base64 vectors (`encoding_format: "base64"`, what
 * OpenAI's own SDKs ask for by default) and decoded straight into Float32Arrays. The AI SDK's
 * OpenAI provider asks for JSON numbers, which cost a build of a 1 MB CSV (17,720 vectors of 1536
 * numbers) about 2.5 s of its event loop in parsing, validating every number and converting them
 * back to floats — more than the rest of its embedding work — and a question a fraction of a
 * millisecond. It is an AI SDK embedding model, so `embedMany` keeps doing the batching, parallel
 * calls, retries and abort, and failures are the same APICallErrors as every other provider
 * call's (provider-errors.ts words them).
 */
export function openAiBase64Embeddings(
  modelId: string,
  access: { apiKey: string; baseUrl?: string },
): EmbeddingModelV3 {
  const baseUrl = withoutTrailingSlash(access.baseUrl) ?? 'https://api.openai.com/v1';
  return {
    specificationVersion: 'v3',
    provider: 'openai.embedding',
    modelId,
    maxEmbeddingsPerCall: 2048,
    supportsParallelCalls: true,
    async doEmbed({ values, headers, abortSignal }: EmbeddingModelV3CallOptions) {
      const { value } = await postJsonToApi({
        url: `${baseUrl}/embeddings`,
        headers: combineHeaders({ authorization: `Bearer ${access.apiKey}` }, headers),
        body: { model: modelId, input: values, encoding_format: 'base64' },
        failedResponseHandler,
        successfulResponseHandler,
        abortSignal,
      });
      const embeddings = [...value.data]
        .sort((a, b) => a.index - b.index)
        .map(({ embedding }) => float32sOf(embedding));
      return {
        // Float32Arrays where the interface says number[]: embedMany hands them on untouched, and
        // the Embedder wants Float32Arrays, so no array of JavaScript numbers is ever made.
        embeddings: embeddings as unknown as number[][],
        usage: value.usage ? { tokens: value.usage.prompt_tokens } : undefined,
        warnings: [],
      };
    },
  };
}

/** Little-endian float32s, as OpenAI encodes them (copied: the decoded bytes may be unaligned). */
function float32sOf(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  const vector = new Float32Array(bytes.byteLength / Float32Array.BYTES_PER_ELEMENT);
  new Uint8Array(vector.buffer).set(bytes);
  return vector;
}

const successfulResponseHandler = createJsonResponseHandler(
  zodSchema(
    z.object({
      data: z.array(z.object({ index: z.number(), embedding: z.string() })),
      usage: z.object({ prompt_tokens: z.number() }).nullish(),
    }),
  ),
);

/** OpenAI's error body ({error: {message}}), as the AI SDK's OpenAI provider reads it. */
const failedResponseHandler = createJsonErrorResponseHandler({
  errorSchema: zodSchema(z.object({ error: z.object({ message: z.string() }) })),
  errorToMessage: (data) => data.error.message,
});

import type {
  EmbeddingModelV3,
  LanguageModelV3,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { wrapEmbeddingModel, wrapLanguageModel } from 'ai';
import type { ProviderErrorReason } from './agent-events';
import { providerErrorReason } from './provider-errors';

/** What a call asked for: an answer (or SQL), embeddings, or an image from the image agent. */
export type ProviderCallKind = 'chat' | 'embeddings' | 'image';

/** `ok`, or why it failed, in the words the agents' error events use. */
export type ProviderCallOutcome = 'ok' | ProviderErrorReason;

/** One request to a model: one HTTP call to a provider, or one run of a local embedding model. */
export interface ProviderCall {
  kind: ProviderCallKind;
  /** The LLM provider (`openai`, `claude`, …), or `local` for an embedding model run here. */
  provider: string;
  outcome: ProviderCallOutcome;
  /** From the request to its last byte (a streamed answer: to its end). */
  seconds: number;
}

export type ProviderCallObserver = (call: ProviderCall) => void;

/**
 * This package knows nothing of how an app reports: the app that wants to count provider calls
 * (its Prometheus metrics) sets one observer per process, and every call is told to it.
 */
let observer: ProviderCallObserver | undefined;

/** Sets the process's observer of provider calls (undefined: none). */
export function observeProviderCalls(next: ProviderCallObserver | undefined): void {
  observer = next;
}

function report(
  kind: ProviderCallKind,
  provider: string,
  started: number,
  outcome: ProviderCallOutcome,
): void {
  if (!observer) return;
  try {
    observer({ kind, provider, outcome, seconds: (performance.now() - started) / 1000 });
  } catch {
    // Counting must never fail the question it counts.
  }
}

const outcomeOf = (error: unknown): ProviderCallOutcome =>
  error === undefined ? 'ok' : providerErrorReason(error);

/**
 * A chat model whose every request is told to the observer. The AI SDK retries by calling the
 * model again, so each attempt counts; a streamed answer counts when it ends, failed if the
 * provider sent an error part, `stopped` if the reader cancelled it.
 */
export function observedLanguageModel(
  model: LanguageModelV3,
  provider: string,
  kind: ProviderCallKind = 'chat',
): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      async wrapGenerate({ doGenerate }) {
        const started = performance.now();
        try {
          const result = await doGenerate();
          report(kind, provider, started, 'ok');
          return result;
        } catch (error) {
          report(kind, provider, started, outcomeOf(error));
          throw error;
        }
      },
      async wrapStream({ doStream }) {
        const started = performance.now();
        let result: Awaited<ReturnType<typeof doStream>>;
        try {
          result = await doStream();
        } catch (error) {
          report(kind, provider, started, outcomeOf(error));
          throw error;
        }
        let told = false;
        const tell = (outcome: ProviderCallOutcome) => {
          if (told) return;
          told = true;
          report(kind, provider, started, outcome);
        };
        let failure: unknown;
        const reader = result.stream.getReader();
        const stream = new ReadableStream<LanguageModelV3StreamPart>({
          async pull(controller) {
            try {
              const { done, value } = await reader.read();
              if (done) {
                tell(outcomeOf(failure));
                controller.close();
                return;
              }
              if (value.type === 'error') failure ??= value.error;
              controller.enqueue(value);
            } catch (error) {
              tell(outcomeOf(error));
              controller.error(error);
            }
          },
          async cancel(reason) {
            tell('stopped');
            await reader.cancel(reason);
          },
        });
        return { ...result, stream };
      },
    },
  });
}

/** OpenAI's embeddings endpoint, each request (retries too) told to the observer. */
export function observedEmbeddingModel(
  model: EmbeddingModelV3,
  provider: string,
): EmbeddingModelV3 {
  return wrapEmbeddingModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      async wrapEmbed({ doEmbed }) {
        const started = performance.now();
        try {
          const result = await doEmbed();
          report('embeddings', provider, started, 'ok');
          return result;
        } catch (error) {
          report('embeddings', provider, started, outcomeOf(error));
          throw error;
        }
      },
    },
  });
}

/** One run of a model in this process (a local embedding model), told like a provider call. */
export async function observedRun<T>(
  kind: ProviderCallKind,
  provider: string,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    report(kind, provider, started, 'ok');
    return result;
  } catch (error) {
    report(kind, provider, started, outcomeOf(error));
    throw error;
  }
}

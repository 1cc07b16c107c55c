import {
  DEFAULT_VECTOR_DIMENSIONS,
  EMBEDDING_DIMENSIONS,
  type TEmbeddingModel,
} from '@agentloom/contracts';
import { UnprocessableEntityException } from '@nestjs/common';

/**
 * The store's dimensions are the embedding model's vector size, whatever the form says: left
 * empty, they are the model's; a different number would make every insert fail, so it is
 * refused with the number to use. Before a model is chosen, the given value (or the default 384)
 * stands, and choosing the model later corrects it.
 */
export function vectorDimensions(
  model: TEmbeddingModel | undefined,
  requested: number | undefined,
): number {
  if (!model) return requested ?? DEFAULT_VECTOR_DIMENSIONS;
  const size = EMBEDDING_DIMENSIONS[model];
  if (requested !== undefined && requested !== size) {
    throw new UnprocessableEntityException(
      `${model} makes vectors of ${size} dimensions, so Vector Dimensions must be ${size}. Leave it empty to use the model's size.`,
    );
  }
  return size;
}

/**
 * The vector at unit length (returned as it is when it already is), so that inner products are
 * cosine similarities. With `dimensions`, a vector of another length is refused: a model that
 * changed under a stored index.
 */
export function unitVector(vector: Float32Array, dimensions?: number): Float32Array {
  if (dimensions !== undefined && vector.length !== dimensions) {
    throw new Error(
      `The embedding model returned ${vector.length} numbers a vector, not ${dimensions}.`,
    );
  }
  let sum = 0;
  for (const value of vector) sum += value * value;
  const length = Math.sqrt(sum);
  return length > 0 && Math.abs(length - 1) > 1e-6 ? vector.map((value) => value / length) : vector;
}

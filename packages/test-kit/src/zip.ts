import yauzl from 'yauzl';

/** Every entry of a zip (a file's path, or its bytes) with its content, in the zip's order. */
export async function readZip(zip: string | Buffer): Promise<Map<string, Buffer>> {
  const file = await (typeof zip === 'string'
    ? yauzl.openPromise(zip, { lazyEntries: true })
    : yauzl.fromBufferPromise(zip, { lazyEntries: true }));
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Buffer>();
    file.on('entry', (entry: yauzl.Entry) => {
      file.openReadStream(entry, (streamError, stream) => {
        if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
        const parts: Buffer[] = [];
        stream.on('data', (part: Buffer) => parts.push(part));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(parts));
          file.readEntry();
        });
      });
    });
    file.on('end', () => resolve(entries));
    file.on('error', reject);
    file.readEntry();
  });
}

/**
 * The text of one file of a generated project's zip, named by its path inside the project's
 * top-level folder (`prompts/system.txt`, not `rag-agent-<id>/prompts/system.txt`).
 */
export async function projectFileText(zip: string | Buffer, inner: string): Promise<string> {
  for (const [name, content] of await readZip(zip)) {
    if (name.replace(/^[^/]+\//, '') === inner) return content.toString('utf8');
  }
  throw new Error(`${inner} is not in the zip`);
}

/** The zip's file paths inside the project's top-level folder. */
export async function projectFiles(zip: string | Buffer): Promise<string[]> {
  return [...(await readZip(zip)).keys()].map((name) => name.replace(/^[^/]+\//, ''));
}

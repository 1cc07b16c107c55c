import yauzl from 'yauzl';

/** Limit on the one entry read: a preview's chunks file, never a whole project. */
const MAX_ENTRY_BYTES = 512 * 1024 * 1024;

/**
 * The content of the first entry of a zip whose name matches, or null when none does. Only that
 * entry is inflated; a declared size above the limit is refused before reading.
 */
export function readZipEntry(
  file: string,
  matches: (name: string) => boolean,
): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (openError, zip) => {
      if (openError || !zip) return reject(openError ?? new Error(`Cannot open ${file}.`));
      const fail = (error: Error) => {
        zip.close();
        reject(error);
      };
      zip.on('error', fail);
      zip.on('end', () => resolve(null));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!matches(entry.fileName)) return zip.readEntry();
        if (entry.uncompressedSize > MAX_ENTRY_BYTES) {
          return fail(new Error(`${entry.fileName} is too large to preview.`));
        }
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return fail(streamError ?? new Error('No entry stream.'));
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('error', fail);
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(parts));
          });
        });
      });
      zip.readEntry();
    });
  });
}

import yauzl from "yauzl";
import yazl from "yazl";

export interface ZipEntrySpec {
  name: string;
  /** Absent for a directory entry. */
  data?: Buffer;
  /** Deflate (default) or store. */
  compress?: boolean;
}

/**
 * A ZIP made in memory with yazl. yazl refuses unsafe names, as a well-behaved archiver should, so
 * `rename` patches names in the finished bytes (same length, in the local header and the central
 * directory) to make the hostile archives an attacker would craft by hand.
 */
export async function makeZip(entries: ZipEntrySpec[], rename: Record<string, string> = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.data === undefined) zip.addEmptyDirectory(entry.name);
    else zip.addBuffer(entry.data, entry.name, { compress: entry.compress ?? true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes: Buffer = Buffer.concat(chunks);
  for (const [from, to] of Object.entries(rename)) {
    if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error(`${from} and ${to} differ in length`);
    bytes = replaceAll(bytes, Buffer.from(from), Buffer.from(to));
  }
  return bytes;
}

function replaceAll(haystack: Buffer, needle: Buffer, replacement: Buffer): Buffer {
  const out = Buffer.from(haystack);
  for (let at = out.indexOf(needle); at !== -1; at = out.indexOf(needle, at + needle.length)) {
    replacement.copy(out, at);
  }
  return out;
}

/**
 * The files of a ZIP, read with yauzl the way an unzipper reads a download: through the central
 * directory, every entry's CRC checked. Rejects what is not a valid ZIP.
 */
export async function readZip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("error", reject);
    zip.on("end", resolve);
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", reject);
        stream.on("end", () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return files;
}

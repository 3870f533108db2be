import { PassThrough, pipeline, Readable } from "node:stream";
import { zipSkipReasons } from "@dorsal/shared";
import yauzl from "yauzl";
import type { ObjectStore } from "../ports/object-store";
import { type ImageType, sniffImageType } from "./image-types";

type NameVerdict = { kind: "ignore" } | { kind: "skip"; reason: string } | { kind: "candidate" };

const nestedArchiveName = /\.(zip|zipx|rar|7z|tar|gz|tgz|bz2|xz)$/i;

/**
 * What an entry's name alone decides. Directories and macOS metadata (`__MACOSX/`, dot-files such
 * as `.DS_Store` or `._foto.jpg`) are not files anyone chose to upload: ignored, not reported.
 * Names that would escape the folder they are unpacked into (zip-slip), and archives inside the
 * archive, are skipped with their reason. Nothing is ever written under an entry's name, but a
 * name like that marks a hostile or broken archive, and the uploader should hear about it.
 */
export function classifyEntryName(name: string): NameVerdict {
  if (name.endsWith("/")) return { kind: "ignore" };
  if (name.includes("\\") || name.startsWith("/") || /^[a-zA-Z]:/.test(name) || name.includes("\0")) {
    return { kind: "skip", reason: zipSkipReasons.unsafePath };
  }
  const segments = name.split("/");
  if (segments.includes("..")) return { kind: "skip", reason: zipSkipReasons.unsafePath };
  if (segments[0] === "__MACOSX" || segments.some((segment) => segment.startsWith("."))) return { kind: "ignore" };
  if (nestedArchiveName.test(name)) return { kind: "skip", reason: zipSkipReasons.nestedArchive };
  return { kind: "candidate" };
}

/** What an entry's first bytes say: an image type, or why it is skipped. */
export function classifyEntryContent(head: Buffer): { imageType: ImageType } | { reason: string } {
  const imageType = sniffImageType(head);
  if (imageType) return { imageType };
  return { reason: isArchive(head) ? zipSkipReasons.nestedArchive : zipSkipReasons.notImage };
}

function isArchive(head: Buffer): boolean {
  const startsWith = (...bytes: number[]) => bytes.every((byte, i) => head[i] === byte);
  return (
    startsWith(0x50, 0x4b, 0x03, 0x04) || // zip
    startsWith(0x50, 0x4b, 0x05, 0x06) || // empty zip
    startsWith(0x52, 0x61, 0x72, 0x21, 0x1a, 0x07) || // rar
    startsWith(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c) || // 7z
    startsWith(0x1f, 0x8b) || // gzip
    startsWith(0x42, 0x5a, 0x68) || // bzip2
    startsWith(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00) || // xz
    head.subarray(257, 262).toString("latin1") === "ustar"
  );
}

/** The name as the archive spells it: bit 11 says UTF-8, otherwise CP437 (Info-ZIP's Unicode path wins). */
export function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true);
}

/**
 * yauzl's random access over the object store: each entry's bytes are one ranged GET, streamed.
 * Small reads (central directory records, local headers) are served from a few read-ahead windows:
 * a read that continues a window (walking the central directory) fetches a large one, so listing
 * 5000 entries costs a handful of requests, not 10 000; a scattered one (an entry's local header)
 * fetches a small one, so the photos' bytes are not fetched twice.
 */
export class ObjectRangeReader extends yauzl.RandomAccessReader {
  static readonly smallReadBytes = 64 * 1024;
  static readonly sequentialWindowBytes = 256 * 1024;
  static readonly scatteredWindowBytes = 4 * 1024;
  static readonly windowsKept = 4;
  readonly #windows: { start: number; data: Buffer }[] = [];

  constructor(
    private readonly objects: ObjectStore,
    private readonly key: string,
    private readonly size: number,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const out = new PassThrough();
    this.objects.getRangeStream("originals", this.key, start, end - 1).then(
      (source) => pipeline(source, out, () => undefined),
      (error: Error) => out.destroy(error),
    );
    return out;
  }

  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (error: Error | null) => void,
  ): void {
    if (length > ObjectRangeReader.smallReadBytes) {
      super.read(buffer, offset, length, position, callback);
      return;
    }
    const hit = this.#windows.find((w) => position >= w.start && position + length <= w.start + w.data.length);
    if (hit) {
      hit.data.copy(buffer, offset, position - hit.start, position - hit.start + length);
      setImmediate(() => callback(null));
      return;
    }
    const sequential = this.#windows.some((w) => w.start + w.data.length === position);
    const readAhead = sequential ? ObjectRangeReader.sequentialWindowBytes : ObjectRangeReader.scatteredWindowBytes;
    const end = Math.min(this.size, position + Math.max(length, readAhead));
    this.objects.getRange("originals", this.key, position, end - 1).then(
      (data) => {
        this.#windows.unshift({ start: position, data });
        this.#windows.length = Math.min(this.#windows.length, ObjectRangeReader.windowsKept);
        if (data.length < length) return callback(new Error("unexpected end of the ZIP object"));
        data.copy(buffer, offset, 0, length);
        callback(null);
      },
      (error: Error) => callback(error),
    );
  }
}

export const zipOptions = {
  lazyEntries: true,
  autoClose: false,
  decodeStrings: false,
  validateEntrySizes: true,
} as const;

/** Files in the archive as the batch counts them: everything but directories and macOS metadata. */
export async function countFiles(zip: yauzl.ZipFile): Promise<number> {
  let count = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (classifyEntryName(entryName(entry)).kind !== "ignore") count++;
    }
  } finally {
    zip.close();
  }
  return count;
}

/** Reads the first bytes of a stream, then hands back a stream of all of it (nothing buffered beyond the head). */
export async function splitHead(stream: Readable, length: number): Promise<{ head: Buffer; body: () => Readable }> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < length) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    size += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* all() {
    yield head;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head, body: () => Readable.from(all(), { objectMode: false }) };
}

export function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)));
  });
}

import type { Table } from "../ports/table";
import { keys, photoFacesPrefix } from "./keys";

/**
 * A face descriptor as kept and searched: its values as signed bytes, 127 at the largest magnitude,
 * and the value that 127 stands for. A quarter of float32's size; on the selfie benchmark, the same
 * precision and recall as float32 at the shipped thresholds (docs/selfie-search.md).
 */
export interface CompactDescriptor {
  scale: number;
  codes: Int8Array;
}

export function compactDescriptor(values: Float32Array): CompactDescriptor {
  let largest = 0;
  for (const value of values) largest = Math.max(largest, Math.abs(value));
  const scale = largest / 127 || 1;
  return { scale, codes: Int8Array.from(values, (value) => Math.round(value / scale)) };
}

interface PhotoFacesItem {
  photoId: string;
  /** The engine that described the faces: another engine's descriptors cannot be compared. */
  model?: string;
  count: number;
  /** Each face's scale (float32, little-endian), in base64. */
  scales: string;
  /** Each face's codes, one after another, in base64. */
  codes: string;
}

/**
 * Face descriptors of an event's photos (selfie search, local engine), one item per photo beside
 * the photo rather than on it: every search page reads photo items, and none needs these. A face of
 * 1,024 values is 1 KB (1.4 KB in base64); at Rekognition's 100 faces a photo an item stays under
 * 140 KB, inside DynamoDB's 400 KB. Base64 in string attributes, not binary ones: every stand-in and
 * tool (the read cache, the migration to AWS) carries strings as they are.
 */
export function createPhotoFacesRepository(table: Table) {
  return {
    async put(eventId: number, photoId: string, model: string, descriptors: Float32Array[]): Promise<void> {
      const compact = descriptors.map(compactDescriptor);
      const scales = Float32Array.from(compact, (descriptor) => descriptor.scale);
      const codes = Buffer.concat(compact.map(({ codes }) => new Uint8Array(codes.buffer)));
      await table.put({
        ...keys.photoFaces(eventId, photoId),
        type: "photoFaces",
        eventId,
        photoId,
        model,
        count: descriptors.length,
        scales: Buffer.from(scales.buffer).toString("base64"),
        codes: codes.toString("base64"),
      });
    },

    /** Every face of the event that `model` described, a page of the partition at a time. */
    async *ofEvent(
      eventId: number,
      model: string,
    ): AsyncGenerator<{ photoId: string; descriptors: CompactDescriptor[] }> {
      for await (const page of pages<PhotoFacesItem>(eventId)) {
        for (const item of page) if (item.model === model) yield { photoId: item.photoId, descriptors: unpack(item) };
      }
    },

    async remove(eventId: number, photoIds: string[]): Promise<void> {
      await table.batchDelete(photoIds.map((photoId) => keys.photoFaces(eventId, photoId)));
    },

    async removeAll(eventId: number): Promise<void> {
      for await (const page of pages<{ pk: string; sk: string }>(eventId, ["pk", "sk"])) {
        await table.batchDelete(page.map(({ pk, sk }) => ({ pk, sk })));
      }
    },
  };

  async function* pages<T extends object>(eventId: number, attributes?: (keyof T & string)[]): AsyncGenerator<T[]> {
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await table.query<T>({
        partition: keys.event(eventId).pk,
        sortPrefix: photoFacesPrefix,
        ...(attributes ? { attributes } : {}),
        ...(cursor ? { cursor } : {}),
      });
      yield page.items;
      cursor = page.cursor;
    } while (cursor);
  }
}
export type PhotoFacesRepository = ReturnType<typeof createPhotoFacesRepository>;

function unpack(item: PhotoFacesItem): CompactDescriptor[] {
  // Copied into buffers of their own: a typed array over Buffer's pool would need an aligned offset.
  const scales = new Float32Array(new Uint8Array(Buffer.from(item.scales, "base64")).buffer);
  const codes = new Int8Array(new Uint8Array(Buffer.from(item.codes, "base64")).buffer);
  const length = codes.length / item.count;
  return Array.from({ length: item.count }, (_, index) => ({
    scale: scales[index] as number,
    codes: codes.subarray(index * length, (index + 1) * length),
  }));
}

import type { Table } from "../ports/table";
import { keys, photoFacesPrefix } from "./keys";

/** Values in one face descriptor (the local engine's dlib ResNet). */
export const descriptorLength = 128;

interface PhotoFacesItem {
  photoId: string;
  count: number;
  /** The faces' Float32 values, little-endian, one after another, in base64. */
  descriptors: string;
}

/**
 * Face descriptors of an event's photos (selfie search, local engine), one item per photo beside
 * the photo rather than on it: every search page reads photo items, and none needs these. A face
 * is 512 bytes (684 in base64); at Rekognition's 100 faces a photo an item stays under 70 KB, far
 * inside DynamoDB's 400 KB. Base64 in a string attribute, not a binary one: every stand-in and tool
 * (the read cache, the migration to AWS) carries strings as they are.
 */
export function createPhotoFacesRepository(table: Table) {
  return {
    async put(eventId: number, photoId: string, descriptors: Float32Array[]): Promise<void> {
      const packed = new Float32Array(descriptors.length * descriptorLength);
      for (const [index, descriptor] of descriptors.entries()) packed.set(descriptor, index * descriptorLength);
      await table.put({
        ...keys.photoFaces(eventId, photoId),
        type: "photoFaces",
        eventId,
        photoId,
        count: descriptors.length,
        descriptors: Buffer.from(packed.buffer).toString("base64"),
      });
    },

    /** Every described face of the event, a page of the partition at a time. */
    async *ofEvent(eventId: number): AsyncGenerator<{ photoId: string; descriptors: Float32Array[] }> {
      let cursor: Record<string, unknown> | undefined;
      do {
        const page = await table.query<PhotoFacesItem>({
          partition: keys.event(eventId).pk,
          sortPrefix: photoFacesPrefix,
          ...(cursor ? { cursor } : {}),
        });
        for (const item of page.items) yield { photoId: item.photoId, descriptors: unpack(item) };
        cursor = page.cursor;
      } while (cursor);
    },

    async remove(eventId: number, photoIds: string[]): Promise<void> {
      await table.batchDelete(photoIds.map((photoId) => keys.photoFaces(eventId, photoId)));
    },

    async removeAll(eventId: number): Promise<void> {
      let cursor: Record<string, unknown> | undefined;
      do {
        const page = await table.query<PhotoFacesItem & { pk: string; sk: string }>({
          partition: keys.event(eventId).pk,
          sortPrefix: photoFacesPrefix,
          attributes: ["pk", "sk"],
          ...(cursor ? { cursor } : {}),
        });
        await table.batchDelete(page.items.map(({ pk, sk }) => ({ pk, sk })));
        cursor = page.cursor;
      } while (cursor);
    },
  };
}
export type PhotoFacesRepository = ReturnType<typeof createPhotoFacesRepository>;

function unpack(item: PhotoFacesItem): Float32Array[] {
  const bytes = Buffer.from(item.descriptors, "base64");
  // Copied into a buffer of its own: a Float32Array needs an aligned offset, which Buffer's pool does not promise.
  const values = new Float32Array(new Uint8Array(bytes).buffer);
  return Array.from({ length: item.count }, (_, index) =>
    values.subarray(index * descriptorLength, (index + 1) * descriptorLength),
  );
}

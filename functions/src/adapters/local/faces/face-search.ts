import type { PhotoFacesRepository } from "../../../data/photo-faces";
import type { FaceSearch } from "../../../ports/face-search";
import type { BoundingBox } from "../../../ports/vision";
import { FaceIndex, POSSIBLE_DISTANCE, SAME_PERSON_DISTANCE } from "./face-index";
import { FACE_DESCRIPTOR_MODEL } from "./models";

interface Describer {
  describeFaces(image: Buffer, boxes: BoundingBox[]): Promise<Float32Array[]>;
}

/**
 * Selfie search on the local engine: the face worker describes each face (faceres.ts),
 * the descriptors are stored with the photo (data/photo-faces.ts), and a search scans the event's
 * descriptors in memory (face-index.ts). An event's index is loaded on its first search and kept
 * until one of its photos' faces change; every change goes through this adapter, in this process.
 */
export function createLocalFaceSearch(options: {
  describer: () => Promise<Describer>;
  photoFaces: PhotoFacesRepository;
}): FaceSearch {
  const { photoFaces } = options;
  const indexes = new Map<number, Promise<FaceIndex>>();

  const load = async (eventId: number) => {
    const index = new FaceIndex();
    // Faces another model described are left out until the event's photos are described again.
    for await (const { photoId, descriptors } of photoFaces.ofEvent(eventId, FACE_DESCRIPTOR_MODEL)) {
      for (const descriptor of descriptors) index.add(photoId, descriptor);
    }
    return index;
  };
  const indexOf = (eventId: number) => {
    let index = indexes.get(eventId);
    if (!index) {
      index = load(eventId);
      indexes.set(eventId, index);
      // A failed load must not stick: the next search loads again.
      index.catch(() => indexes.delete(eventId));
    }
    return index;
  };

  return {
    descriptorModel: async () => FACE_DESCRIPTOR_MODEL,
    async indexPhoto(eventId, photoId, image, faces) {
      const descriptors = faces.length > 0 ? await (await options.describer()).describeFaces(image, faces) : [];
      // A photo without faces keeps nothing (and loses what an earlier run of it kept).
      if (descriptors.length > 0) await photoFaces.put(eventId, photoId, FACE_DESCRIPTOR_MODEL, descriptors);
      else await photoFaces.remove(eventId, [photoId]);
      indexes.delete(eventId);
      return descriptors.length;
    },
    async search(eventId, selfie, face) {
      const [descriptor] = await (await options.describer()).describeFaces(selfie, [face]);
      if (!descriptor) return [];
      const matches = (await indexOf(eventId)).search(descriptor, POSSIBLE_DISTANCE);
      // Cosine similarity as a percentage: unit vectors at distance d have a·b = 1 − d²/2.
      return matches.map(({ photoId, distance }) => ({
        photoId,
        score: Math.round((1 - (distance * distance) / 2) * 1000) / 10,
        certain: distance <= SAME_PERSON_DISTANCE,
      }));
    },
    async forget(eventId, selfie, face) {
      const photoIds = (await this.search(eventId, selfie, face))
        .filter((match) => match.certain)
        .map((match) => match.photoId);
      // The photo's every face: what the athlete asked for is that the photo stops answering their face.
      await photoFaces.remove(eventId, photoIds);
      indexes.delete(eventId);
      return photoIds;
    },
    async removeEvent(eventId) {
      await photoFaces.removeAll(eventId);
      indexes.delete(eventId);
    },
  };
}

import {
  CreateCollectionCommand,
  DeleteCollectionCommand,
  DeleteFacesCommand,
  IndexFacesCommand,
  type RekognitionClient,
  SearchFacesByImageCommand,
  type SearchFacesByImageResponse,
} from "@aws-sdk/client-rekognition";
import type { FaceMatch, FaceSearch } from "../../ports/face-search";
import { prepareImage, REKOGNITION_MAX_IMAGE_BYTES } from "./rekognition";

/**
 * Similarity (0..100) a face must reach to count as the selfie's person, the part
 * SAME_PERSON_DISTANCE plays locally: 90 keeps strangers out of an athlete's results at little cost
 * in recall on frontal selfies.
 */
export const FACE_MATCH_THRESHOLD = 90;
/**
 * From this similarity up to FACE_MATCH_THRESHOLD, a look-alike for the athlete to check (the part
 * POSSIBLE_DISTANCE plays locally): Rekognition's own default `FaceMatchThreshold`.
 */
export const POSSIBLE_MATCH_THRESHOLD = 80;
/** SearchFacesByImage's maximum: one runner's face in every photo of a big event. */
const MAX_MATCHES = 4096;
/** IndexFaces's and DetectFaces' own ceiling. */
const MAX_FACES_PER_PHOTO = 100;

/**
 * Selfie search on Rekognition: one collection per event (`{prefix}{eventId}`), created by the
 * first photo indexed into it, each face tagged with its photo's id (ExternalImageId); the
 * selfie searched with SearchFacesByImage, which searches the image's largest face, as the use
 * case's own check does; the collection deleted with the search or the event. Rekognition keeps
 * no image, only its faces' vectors.
 */
export function createRekognitionFaceSearch(
  client: RekognitionClient,
  options: { collectionPrefix: string; maxImageBytes?: number },
): FaceSearch {
  const collection = (eventId: number) => `${options.collectionPrefix}${eventId}`;
  const bytesOf = (image: Buffer) => prepareImage(image, options.maxImageBytes ?? REKOGNITION_MAX_IMAGE_BYTES);

  const searchFaces = async (eventId: number, selfie: Buffer): Promise<SearchFacesByImageResponse> => {
    try {
      return await client.send(
        new SearchFacesByImageCommand({
          CollectionId: collection(eventId),
          Image: { Bytes: await bytesOf(selfie) },
          MaxFaces: MAX_MATCHES,
          FaceMatchThreshold: POSSIBLE_MATCH_THRESHOLD,
        }),
      );
    } catch (error) {
      // No photo of the event has been indexed yet: nothing to find.
      if (isNamed(error, "ResourceNotFoundException")) return {};
      throw error;
    }
  };

  return {
    // The collection's faces are Rekognition's own, compared by its current model.
    descriptorModel: async () => undefined,
    async indexPhoto(eventId, photoId, image, faces) {
      if (faces.length === 0) return 0;
      const index = async () =>
        client.send(
          new IndexFacesCommand({
            CollectionId: collection(eventId),
            Image: { Bytes: await bytesOf(image) },
            ExternalImageId: photoId,
            MaxFaces: MAX_FACES_PER_PHOTO,
            QualityFilter: "AUTO",
          }),
        );
      try {
        return (await index()).FaceRecords?.length ?? 0;
      } catch (error) {
        if (!isNamed(error, "ResourceNotFoundException")) throw error;
      }
      try {
        await client.send(new CreateCollectionCommand({ CollectionId: collection(eventId) }));
      } catch (error) {
        // Another photo of the event created it meanwhile.
        if (!isNamed(error, "ResourceAlreadyExistsException")) throw error;
      }
      return (await index()).FaceRecords?.length ?? 0;
    },

    async search(eventId, selfie) {
      return bestPerPhoto(await searchFaces(eventId, selfie));
    },

    async forget(eventId, selfie) {
      const found = await searchFaces(eventId, selfie);
      const faceIds = (found.FaceMatches ?? []).flatMap((match) =>
        match.Face?.FaceId && (match.Similarity ?? 0) >= FACE_MATCH_THRESHOLD ? [match.Face.FaceId] : [],
      );
      // DeleteFaces takes at most 4096 ids a call, which is what one search can answer.
      if (faceIds.length > 0) {
        await client.send(new DeleteFacesCommand({ CollectionId: collection(eventId), FaceIds: faceIds }));
      }
      return bestPerPhoto(found)
        .filter((match) => match.certain)
        .map((match) => match.photoId);
    },

    async removeEvent(eventId) {
      try {
        await client.send(new DeleteCollectionCommand({ CollectionId: collection(eventId) }));
      } catch (error) {
        if (!isNamed(error, "ResourceNotFoundException")) throw error;
      }
    },
  };
}

/**
 * One match per photo, its most similar face, best first: a photo indexed twice (a re-run) or with
 * the athlete twice (a reflection) is one result.
 */
function bestPerPhoto(found: SearchFacesByImageResponse): FaceMatch[] {
  const best = new Map<string, number>();
  for (const match of found.FaceMatches ?? []) {
    const photoId = match.Face?.ExternalImageId;
    if (!photoId || match.Similarity === undefined) continue;
    best.set(photoId, Math.max(best.get(photoId) ?? 0, match.Similarity));
  }
  return [...best]
    .map(([photoId, similarity]) => ({
      photoId,
      score: Math.round(similarity * 10) / 10,
      certain: similarity >= FACE_MATCH_THRESHOLD,
    }))
    .sort((a, b) => b.score - a.score);
}

const isNamed = (error: unknown, name: string) => error instanceof Error && error.name === name;

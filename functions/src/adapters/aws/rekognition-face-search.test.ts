import {
  AccessDeniedException,
  CreateCollectionCommand,
  type CreateCollectionResponse,
  DeleteCollectionCommand,
  type DeleteCollectionResponse,
  DeleteFacesCommand,
  type DeleteFacesResponse,
  IndexFacesCommand,
  type IndexFacesResponse,
  type RekognitionClient,
  ResourceAlreadyExistsException,
  ResourceNotFoundException,
  SearchFacesByImageCommand,
  type SearchFacesByImageResponse,
} from "@aws-sdk/client-rekognition";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createRekognitionFaceSearch, POSSIBLE_MATCH_THRESHOLD } from "./rekognition-face-search";

// The Rekognition API Reference's IndexFaces example response (FaceDetail and UnindexedFaces
// shortened), indexed with our photo id as ExternalImageId.
const INDEX_FACES: IndexFacesResponse = {
  FaceModelVersion: "6.0",
  FaceRecords: [
    {
      Face: {
        BoundingBox: {
          Height: 0.3247932195663452,
          Left: 0.5055555701255798,
          Top: 0.2743072211742401,
          Width: 0.21444444358348846,
        },
        Confidence: 99.99998474121094,
        ExternalImageId: "foto-a",
        FaceId: "b86e2392-9da1-459b-af68-49118dc16f87",
        ImageId: "09f43d92-02b6-5cea-8fbd-9f187db2050d",
      },
    },
  ],
  OrientationCorrection: "ROTATE_0",
  UnindexedFaces: [],
};

// The API Reference's SearchFacesByImage example response, with a second photo of the same person
// (two of its faces matched: a reflection, or the photo indexed twice by a re-run) and a look-alike
// in a third, between the two thresholds.
const face = (faceId: string, photoId: string) => ({
  BoundingBox: { Height: 0.3234420120716095, Left: 0.3233329951763153, Top: 0.5, Width: 0.24222199618816376 },
  Confidence: 99.99829864501953,
  ExternalImageId: photoId,
  FaceId: faceId,
  ImageId: "d5631190-d039-54e4-b267-abd22c8647c5",
});
const SEARCH_FACES: SearchFacesByImageResponse = {
  FaceMatches: [
    { Face: face("38271d79-7bc2-5efb-b752-398a8d575b85", "foto-b"), Similarity: 93.5 },
    { Face: face("2d8c2f34-2a2d-4a37-a0b4-2c4c8b6d4e11", "foto-a"), Similarity: 99.97036743164062 },
    { Face: face("7f0e3d2b-9e3a-4c43-9e3b-5a1d2c3b4a55", "foto-b"), Similarity: 96.25 },
    { Face: face("5b1e9c7a-3f2d-4e8b-9a6c-1d0e2f3a4b5c", "foto-c"), Similarity: 84.2 },
  ],
  FaceModelVersion: "6.0",
  SearchedFaceBoundingBox: {
    Height: 0.33481481671333313,
    Left: 0.31888890266418457,
    Top: 0.4933333396911621,
    Width: 0.25,
  },
  SearchedFaceConfidence: 99.99768829345703,
};
const DELETE_FACES: DeleteFacesResponse = { DeletedFaces: ["38271d79-7bc2-5efb-b752-398a8d575b85"] };
const CREATE_COLLECTION: CreateCollectionResponse = {
  CollectionArn: "aws:rekognition:us-west-2:123456789012:collection/dorsal-faces-7",
  FaceModelVersion: "6.0",
  StatusCode: 200,
};
const DELETE_COLLECTION: DeleteCollectionResponse = { StatusCode: 200 };

const missing = () =>
  new ResourceNotFoundException({ message: "The collection id: dorsal-faces-7 does not exist", $metadata: {} });

type Command =
  | IndexFacesCommand
  | SearchFacesByImageCommand
  | DeleteFacesCommand
  | CreateCollectionCommand
  | DeleteCollectionCommand;

/** A stand-in for the SDK client: each command answered by the next scripted answer (or error) for its name. */
function fakeClient(script: Record<string, (unknown | Error)[]>) {
  const sent: { command: string; input: Record<string, unknown> }[] = [];
  const client = {
    async send(command: Command) {
      const name = command.constructor.name;
      sent.push({ command: name, input: { ...command.input } });
      const answer = script[name]?.shift();
      if (answer === undefined) throw new Error(`unexpected ${name}`);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { client: client as unknown as RekognitionClient, sent };
}

const box = { left: 0.5, top: 0.27, width: 0.21, height: 0.32 };
const options = { collectionPrefix: "dorsal-faces-" };

describe("createRekognitionFaceSearch", () => {
  let jpeg: Buffer;

  beforeAll(async () => {
    jpeg = await sharp({ create: { width: 200, height: 160, channels: 3, background: "#8a6" } })
      .jpeg()
      .toBuffer();
  });

  it("indexes a photo's faces into its event's collection, tagged with the photo's id", async () => {
    const { client, sent } = fakeClient({ IndexFacesCommand: [INDEX_FACES] });

    const kept = await createRekognitionFaceSearch(client, options).indexPhoto(7, "foto-a", jpeg, [box]);

    expect(kept).toBe(1);
    expect(sent).toEqual([
      {
        command: IndexFacesCommand.name,
        input: {
          CollectionId: "dorsal-faces-7",
          Image: { Bytes: jpeg },
          ExternalImageId: "foto-a",
          MaxFaces: 100,
          QualityFilter: "AUTO",
        },
      },
    ]);
  });

  it("asks nothing of Rekognition for a photo without faces", async () => {
    const { client, sent } = fakeClient({});

    expect(await createRekognitionFaceSearch(client, options).indexPhoto(7, "foto-a", jpeg, [])).toBe(0);
    expect(sent).toEqual([]);
  });

  it("creates the event's collection on its first photo, also when another photo created it meanwhile", async () => {
    const first = fakeClient({
      IndexFacesCommand: [missing(), INDEX_FACES],
      CreateCollectionCommand: [CREATE_COLLECTION],
    });
    const raced = fakeClient({
      IndexFacesCommand: [missing(), INDEX_FACES],
      CreateCollectionCommand: [new ResourceAlreadyExistsException({ message: "exists", $metadata: {} })],
    });

    for (const { client, sent } of [first, raced]) {
      expect(await createRekognitionFaceSearch(client, options).indexPhoto(7, "foto-a", jpeg, [box])).toBe(1);
      expect(sent.map((call) => call.command)).toEqual([
        IndexFacesCommand.name,
        CreateCollectionCommand.name,
        IndexFacesCommand.name,
      ]);
      expect(sent[1]?.input).toEqual({ CollectionId: "dorsal-faces-7" });
    }
  });

  it("answers each photo once, at its most similar face, best first, a look-alike under 90 as not certain", async () => {
    const { client, sent } = fakeClient({ SearchFacesByImageCommand: [SEARCH_FACES] });

    const matches = await createRekognitionFaceSearch(client, options).search(7, jpeg, box);

    expect(matches).toEqual([
      { photoId: "foto-a", score: 100, certain: true },
      { photoId: "foto-b", score: 96.3, certain: true },
      { photoId: "foto-c", score: 84.2, certain: false },
    ]);
    expect(sent).toEqual([
      {
        command: SearchFacesByImageCommand.name,
        input: {
          CollectionId: "dorsal-faces-7",
          Image: { Bytes: jpeg },
          MaxFaces: 4096,
          FaceMatchThreshold: POSSIBLE_MATCH_THRESHOLD,
        },
      },
    ]);
  });

  it("finds nothing in an event none of whose photos has been indexed yet", async () => {
    const { client } = fakeClient({ SearchFacesByImageCommand: [missing()] });

    expect(await createRekognitionFaceSearch(client, options).search(7, jpeg, box)).toEqual([]);
  });

  it("forgets the faces the athlete's selfie matches for certain, and says which photos they were in", async () => {
    const { client, sent } = fakeClient({
      SearchFacesByImageCommand: [SEARCH_FACES],
      DeleteFacesCommand: [DELETE_FACES],
    });

    const photos = await createRekognitionFaceSearch(client, options).forget(7, jpeg, box);

    expect(photos).toEqual(["foto-a", "foto-b"]);
    expect(sent[1]).toEqual({
      command: DeleteFacesCommand.name,
      input: {
        CollectionId: "dorsal-faces-7",
        FaceIds: [
          "38271d79-7bc2-5efb-b752-398a8d575b85",
          "2d8c2f34-2a2d-4a37-a0b4-2c4c8b6d4e11",
          "7f0e3d2b-9e3a-4c43-9e3b-5a1d2c3b4a55",
        ],
      },
    });
  });

  it("deletes the event's collection, gone or not, and fails on anything else", async () => {
    const deleted = fakeClient({ DeleteCollectionCommand: [DELETE_COLLECTION, missing()] });
    const denied = fakeClient({
      DeleteCollectionCommand: [new AccessDeniedException({ message: "denied", $metadata: {} })],
    });
    const search = createRekognitionFaceSearch(deleted.client, options);

    await search.removeEvent(7);
    await search.removeEvent(7);

    expect(deleted.sent).toEqual([
      { command: DeleteCollectionCommand.name, input: { CollectionId: "dorsal-faces-7" } },
      { command: DeleteCollectionCommand.name, input: { CollectionId: "dorsal-faces-7" } },
    ]);
    await expect(createRekognitionFaceSearch(denied.client, options).removeEvent(7)).rejects.toThrow("denied");
  });
});

import {
  DetectFacesCommand,
  type DetectFacesResponse,
  DetectTextCommand,
  type DetectTextResponse,
  type RekognitionClient,
} from "@aws-sdk/client-rekognition";
import { defaultEventConfig, type EventRecognitionSettings } from "@dorsal/shared";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { machineBibsFrom } from "../../app/bib-index";
import { createRekognitionVision, REKOGNITION_MAX_IMAGE_BYTES } from "./rekognition";

// From the Rekognition Developer Guide's DetectText example response (the "but keep" line).
const DETECT_TEXT: DetectTextResponse = {
  TextDetections: [
    {
      Confidence: 96.7636489868164,
      DetectedText: "but keep",
      Geometry: {
        BoundingBox: {
          Height: 0.0756164938211441,
          Left: 0.634815514087677,
          Top: 0.5181083083152771,
          Width: 0.20877975225448608,
        },
        Polygon: [
          { X: 0.634815514087677, Y: 0.5181083083152771 },
          { X: 0.8435952663421631, Y: 0.52589350938797 },
          { X: 0.8423560857772827, Y: 0.6015099883079529 },
          { X: 0.6335763335227966, Y: 0.59372478723526 },
        ],
      },
      Id: 3,
      Type: "LINE",
    },
    {
      Confidence: 95.33189392089844,
      DetectedText: "but",
      Geometry: {
        BoundingBox: {
          Height: 0.06849122047424316,
          Left: 0.6350157260894775,
          Top: 0.5214487314224243,
          Width: 0.08413040637969971,
        },
      },
      Id: 8,
      ParentId: 3,
      Type: "WORD",
    },
    {
      Confidence: 98.1954116821289,
      DetectedText: "keep",
      Geometry: {
        BoundingBox: {
          Height: 0.07207882404327393,
          Left: 0.7295929789543152,
          Top: 0.5265749096870422,
          Width: 0.11196041107177734,
        },
      },
      Id: 9,
      ParentId: 3,
      Type: "WORD",
    },
  ],
  TextModelVersion: "3.0",
};

// From the Developer Guide's DetectFaces example response, trimmed to the default attributes.
const DETECT_FACES: DetectFacesResponse = {
  FaceDetails: [
    {
      BoundingBox: {
        Height: 0.35353535413742065,
        Left: 0.10707070678472519,
        Top: 0.12777778506278992,
        Width: 0.47138047218322754,
      },
      Confidence: 99.99736785888672,
      Landmarks: [{ Type: "eyeLeft", X: 0.23772846162319183, Y: 0.2778792679309845 }],
      Pose: { Pitch: 1.0711474418640137, Roll: -10.933034896850586, Yaw: -25.838171005249023 },
      Quality: { Brightness: 44.5, Sharpness: 99.88 },
    },
    // A face cut by the left edge: Rekognition reports a negative Left.
    { BoundingBox: { Height: 0.2, Left: -0.05, Top: 0.5, Width: 0.15 }, Confidence: 91.5 },
  ],
};

/**
 * A race photo's DetectText answer in the documented shape (LINEs, then their WORDs by ParentId): a
 * letter bib on the runner's chest, and distractors a race photo always has — the race's name and
 * distance on a banner, the year printed under the bib.
 */
const box = (Left: number, Top: number, Width: number, Height: number) => ({
  BoundingBox: { Left, Top, Width, Height },
  Polygon: [
    { X: Left, Y: Top },
    { X: Left + Width, Y: Top },
    { X: Left + Width, Y: Top + Height },
    { X: Left, Y: Top + Height },
  ],
});
const LETTER_BIB_TEXT: DetectTextResponse = {
  TextDetections: [
    { Confidence: 99.1, DetectedText: "BOGOTA 10K", Geometry: box(0.05, 0.04, 0.3, 0.06), Id: 0, Type: "LINE" },
    { Confidence: 98.7, DetectedText: "M10380", Geometry: box(0.41, 0.46, 0.18, 0.07), Id: 1, Type: "LINE" },
    { Confidence: 97.9, DetectedText: "2026", Geometry: box(0.46, 0.55, 0.08, 0.03), Id: 2, Type: "LINE" },
    {
      Confidence: 99.2,
      DetectedText: "BOGOTA",
      Geometry: box(0.05, 0.04, 0.18, 0.06),
      Id: 3,
      ParentId: 0,
      Type: "WORD",
    },
    { Confidence: 99.0, DetectedText: "10K", Geometry: box(0.25, 0.04, 0.1, 0.06), Id: 4, ParentId: 0, Type: "WORD" },
    {
      Confidence: 98.7,
      DetectedText: "M10380",
      Geometry: box(0.41, 0.46, 0.18, 0.07),
      Id: 5,
      ParentId: 1,
      Type: "WORD",
    },
    { Confidence: 97.9, DetectedText: "2026", Geometry: box(0.46, 0.55, 0.08, 0.03), Id: 6, ParentId: 2, Type: "WORD" },
  ],
  TextModelVersion: "3.0",
};
const RUNNER_FACE: DetectFacesResponse = {
  FaceDetails: [{ BoundingBox: { Left: 0.44, Top: 0.2, Width: 0.12, Height: 0.16 }, Confidence: 99.9 }],
};

/** A stand-in for the SDK client: answers each command with the documented example, keeps the inputs. */
function fakeClient(text = DETECT_TEXT, faces = DETECT_FACES) {
  const sent: { command: string; bytes: Uint8Array | undefined; filters?: unknown }[] = [];
  const client = {
    async send(command: DetectTextCommand | DetectFacesCommand) {
      const filters = "Filters" in command.input ? command.input.Filters : undefined;
      sent.push({
        command: command.constructor.name,
        bytes: command.input.Image?.Bytes,
        ...(filters ? { filters } : {}),
      });
      if (command instanceof DetectTextCommand) return text;
      if (command instanceof DetectFacesCommand) return faces;
      throw new Error("unexpected command");
    },
  };
  return { client: client as unknown as RekognitionClient, sent };
}

/** Noise barely compresses, so a modest photo makes a big JPEG. */
async function noisyJpeg(width: number, height: number, quality = 95): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = 2463534242;
  for (let i = 0; i < pixels.length; i++) {
    // xorshift32: noise that is the same on every run.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[i] = state & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality, chromaSubsampling: "4:4:4" })
    .toBuffer();
}

describe("createRekognitionVision", () => {
  it("passes the word filter through as DetectText's WordFilter", async () => {
    const { client, sent } = fakeClient();
    const image = await noisyJpeg(120, 80);
    await createRekognitionVision(client).text.detectText(image, { minConfidence: 70 });
    expect(sent).toEqual([
      { command: "DetectTextCommand", bytes: image, filters: { WordFilter: { MinConfidence: 70 } } },
    ]);
  });

  it("maps DetectText lines and words with their ids, parents, confidences and boxes", async () => {
    const { client, sent } = fakeClient();
    const image = await noisyJpeg(120, 80);
    const detections = await createRekognitionVision(client).text.detectText(image);

    expect(sent).toEqual([{ command: "DetectTextCommand", bytes: image }]);
    expect(detections).toEqual([
      {
        type: "LINE",
        text: "but keep",
        confidence: 96.7636489868164,
        box: {
          left: 0.634815514087677,
          top: 0.5181083083152771,
          width: 0.20877975225448608,
          height: 0.0756164938211441,
        },
        id: 3,
      },
      {
        type: "WORD",
        text: "but",
        confidence: 95.33189392089844,
        box: {
          left: 0.6350157260894775,
          top: 0.5214487314224243,
          width: 0.08413040637969971,
          height: 0.06849122047424316,
        },
        id: 8,
        parentId: 3,
      },
      expect.objectContaining({ type: "WORD", text: "keep", id: 9, parentId: 3, confidence: 98.1954116821289 }),
    ]);
  });

  it("maps DetectFaces boxes and confidences, keeping boxes inside the image", async () => {
    const { client, sent } = fakeClient();
    const faces = await createRekognitionVision(client).faces.detectFaces(await noisyJpeg(120, 80));

    expect(sent.map((s) => s.command)).toEqual(["DetectFacesCommand"]);
    expect(faces[0]).toEqual({
      confidence: 99.99736785888672,
      box: {
        left: 0.10707070678472519,
        top: 0.12777778506278992,
        width: 0.47138047218322754,
        height: 0.35353535413742065,
      },
    });
    expect(faces[1]?.box.left).toBe(0);
    expect(faces[1]?.box.width).toBeCloseTo(0.1, 9);
  });

  it("shrinks photos over Rekognition's 5 MB inline limit into an upright JPEG under it", async () => {
    const { client, sent } = fakeClient();
    const image = await noisyJpeg(1800, 1200, 100);
    expect(image.byteLength).toBeGreaterThan(REKOGNITION_MAX_IMAGE_BYTES);

    await createRekognitionVision(client).text.detectText(image);

    const bytes = sent[0]?.bytes as Uint8Array;
    expect(bytes.byteLength).toBeLessThanOrEqual(REKOGNITION_MAX_IMAGE_BYTES);
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe("jpeg");
    expect((meta.width ?? 0) / (meta.height ?? 1)).toBeCloseTo(1.5, 2);
  });

  it("sends an EXIF-rotated photo upright, and prepares it once for text and faces", async () => {
    const { client, sent } = fakeClient();
    const sideways = await sharp(await noisyJpeg(120, 80))
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const vision = createRekognitionVision(client);

    await vision.text.detectText(sideways);
    await vision.faces.detectFaces(sideways);

    const [text, faces] = sent;
    const meta = await sharp(text?.bytes).metadata();
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([80, 120, 1]);
    expect(faces?.bytes).toBe(text?.bytes);
  });

  it("converts formats Rekognition does not read to JPEG and honours a lower byte limit", async () => {
    const { client, sent } = fakeClient();
    const webp = await sharp(await noisyJpeg(600, 400))
      .webp({ quality: 100 })
      .toBuffer();

    await createRekognitionVision(client, { maxImageBytes: 40_000 }).text.detectText(webp);

    const bytes = sent[0]?.bytes as Uint8Array;
    expect(bytes.byteLength).toBeLessThanOrEqual(40_000);
    expect((await sharp(bytes).metadata()).format).toBe("jpeg");
  });
});

describe("Rekognition's reads under the event's bib rules", () => {
  const config = (changes: Partial<EventRecognitionSettings>): EventRecognitionSettings => ({
    eventId: 1,
    ...defaultEventConfig,
    configurationVersion: 1,
    updatedAt: null,
    ...changes,
  });
  const bibsOf = async (event: EventRecognitionSettings) => {
    const { client } = fakeClient(LETTER_BIB_TEXT, RUNNER_FACE);
    const vision = createRekognitionVision(client);
    const image = await noisyJpeg(120, 80);
    const words = await vision.text.detectText(image);
    return machineBibsFrom(words, await vision.faces.detectFaces(image), event).map((bib) => bib.number);
  };

  it("keeps a letter bib on an event whose bibs are a letter and 5 digits, and none of the distractors", async () => {
    expect(await bibsOf(config({ bibPattern: "^[A-Z]\\d+$", minDigits: 5, maxDigits: 5 }))).toEqual(["M10380"]);
    expect(await bibsOf(config({ bibPattern: "^M\\d{5}$" }))).toEqual(["M10380"]);
  });

  it("drops the letter bib on a digits-only event, as the local engine does", async () => {
    // The year under the bib is all digits: only the letter format tells it from a bib.
    expect(await bibsOf(config({}))).toEqual(["2026"]);
    expect(await bibsOf(config({ bibPattern: "^\\d+[A-Z]$" }))).toEqual([]);
  });
});

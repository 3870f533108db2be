import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaceDetection } from "../../../ports/vision";
import { createLocalFaceDetector, type LocalFaceDetector } from "./index";

// A photo of three people that ships inside the model's npm package, so no photo lives in the repo.
const SAMPLE = join(
  dirname(createRequire(import.meta.url).resolve("@vladmandic/face-api/package.json")),
  "demo/sample1.jpg",
);
/** Horizontal centres of its three faces, left to right, as fractions of the width. */
const FACE_CENTRES = [0.26, 0.485, 0.82];

const centreX = (face: FaceDetection) => face.box.left + face.box.width / 2;
const byPosition = (faces: FaceDetection[]) => [...faces].sort((a, b) => centreX(a) - centreX(b));

describe("local face detector", () => {
  let detector: LocalFaceDetector;
  let sample: Buffer;

  beforeAll(async () => {
    detector = await createLocalFaceDetector();
    sample = readFileSync(SAMPLE);
  }, 60_000);

  afterAll(() => detector.close());

  it("finds each face of a group photo, with Rekognition-style confidence and normalised boxes", async () => {
    const faces = byPosition(await detector.detectFaces(sample));

    expect(faces.map(centreX)).toEqual(FACE_CENTRES.map((x) => expect.closeTo(x, 1)));
    for (const { confidence, box } of faces) {
      expect(confidence).toBeGreaterThan(90);
      expect(confidence).toBeLessThanOrEqual(100);
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.left + box.width).toBeLessThanOrEqual(1);
      expect(box.top + box.height).toBeLessThanOrEqual(1);
      // A face, not a whole person: about a tenth of the width of this 3:2 photo.
      expect(box.width).toBeGreaterThan(0.05);
      expect(box.width).toBeLessThan(0.15);
      expect(box.height).toBeLessThan(0.25);
    }
  });

  it("reports no faces on a blank photo", async () => {
    const blank = await sharp({ create: { width: 2048, height: 1365, channels: 3, background: "#8a8a8a" } })
      .jpeg()
      .toBuffer();

    expect(await detector.detectFaces(blank)).toEqual([]);
  });

  it("gives boxes in the upright photo when EXIF says the pixels are stored rotated", async () => {
    const upright = byPosition(await detector.detectFaces(sample));
    // Orientation 6: the stored pixels must turn 90° clockwise to be upright.
    const stored = await sharp(sample).rotate(270).withMetadata({ orientation: 6 }).jpeg().toBuffer();

    const rotated = byPosition(await detector.detectFaces(stored));

    expect(rotated).toHaveLength(upright.length);
    rotated.forEach(({ box }, i) => {
      const expected = upright[i]?.box;
      expect(box.left).toBeCloseTo(expected?.left ?? Number.NaN, 1);
      expect(box.top).toBeCloseTo(expected?.top ?? Number.NaN, 1);
    });
  });

  it("reads greyscale and transparent images", async () => {
    const grey = await sharp(sample).greyscale().jpeg().toBuffer();
    const transparent = await sharp(sample).ensureAlpha(0.5).png().toBuffer();

    expect(await detector.detectFaces(grey)).toHaveLength(FACE_CENTRES.length);
    expect(await detector.detectFaces(transparent)).toHaveLength(FACE_CENTRES.length);
  });

  it("fails only the request whose bytes are not an image, and leaves the caller's buffer usable", async () => {
    await expect(detector.detectFaces(Buffer.from("not an image"))).rejects.toThrow(/face detection failed/);

    expect(await detector.detectFaces(sample)).toHaveLength(FACE_CENTRES.length);
    expect(sample.byteLength).toBeGreaterThan(0);
  });

  it("answers concurrent requests each with its own photo's faces", async () => {
    const blank = await sharp({ create: { width: 640, height: 480, channels: 3, background: "white" } })
      .png()
      .toBuffer();

    const [a, b, c] = await Promise.all([
      detector.detectFaces(sample),
      detector.detectFaces(blank),
      detector.detectFaces(sample),
    ]);

    expect([a?.length, b?.length, c?.length]).toEqual([FACE_CENTRES.length, 0, FACE_CENTRES.length]);
  });

  it("rejects requests once closed", async () => {
    const closing = await createLocalFaceDetector();
    await closing.close();

    await expect(closing.detectFaces(sample)).rejects.toThrow(/closed/);
  }, 60_000);
});

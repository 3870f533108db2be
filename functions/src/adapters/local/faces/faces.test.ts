import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BoundingBox, FaceDetection } from "../../../ports/vision";
import { probePortraitJpeg } from "../../../preflight/probe-portrait";
import { SAME_PERSON_DISTANCE } from "./face-index";
import { DESCRIPTOR_LENGTH } from "./faceres";
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

  describe("face descriptors", () => {
    const distance = (a: Float32Array | undefined, b: Float32Array | undefined) => {
      if (!a || !b || a.length !== b.length) throw new Error("expected two descriptors of one length");
      return Math.hypot(...a.map((v, i) => v - (b[i] as number)));
    };
    const only = async (photo: Buffer) => {
      const faces = await detector.detectFaces(photo);
      expect(faces).toHaveLength(1);
      return (faces[0] as FaceDetection).box;
    };
    let portrait: Buffer;
    let portraitBox: BoundingBox;
    let portraitDescriptor: Float32Array;

    beforeAll(async () => {
      portrait = probePortraitJpeg();
      portraitBox = await only(portrait);
      [portraitDescriptor = new Float32Array()] = await detector.describeFaces(portrait, [portraitBox]);
    }, 60_000);

    it("gives one 1024-value unit vector per box, in the boxes' order, and none for no box", async () => {
      const faces = byPosition(await detector.detectFaces(sample));
      const boxes = faces.map((face) => face.box);

      const forward = await detector.describeFaces(sample, boxes);
      const backward = await detector.describeFaces(sample, [...boxes].reverse());

      expect(forward).toHaveLength(FACE_CENTRES.length);
      for (const descriptor of forward) {
        expect(descriptor).toBeInstanceOf(Float32Array);
        expect(descriptor).toHaveLength(DESCRIPTOR_LENGTH);
        expect(Math.hypot(...descriptor)).toBeCloseTo(1, 5);
      }
      expect([...backward].reverse()).toEqual(forward);
      expect(await detector.describeFaces(sample, [])).toEqual([]);
    });

    it("keeps the same face near when the photo is resized, re-encoded or the box shifted", async () => {
      const smaller = await sharp(portrait).resize({ width: 140 }).jpeg({ quality: 60 }).toBuffer();
      const shifted = {
        ...portraitBox,
        left: portraitBox.left + portraitBox.width * 0.06,
        top: portraitBox.top - portraitBox.height * 0.04,
      };
      // The same portrait in a wider frame: the face is found again, smaller, elsewhere.
      const framed = await sharp(portrait)
        .extend({ left: 120, right: 40, top: 30, bottom: 90, background: "#406080" })
        .jpeg({ quality: 80 })
        .toBuffer();

      const [resized] = await detector.describeFaces(smaller, [await only(smaller)]);
      const [moved] = await detector.describeFaces(portrait, [shifted]);
      const [elsewhere] = await detector.describeFaces(framed, [await only(framed)]);

      for (const near of [resized, moved, elsewhere])
        expect(distance(near, portraitDescriptor)).toBeLessThan(SAME_PERSON_DISTANCE);
    });

    it("puts different people beyond the same-person distance", async () => {
      const others = await detector.describeFaces(
        sample,
        (await detector.detectFaces(sample)).map((face) => face.box),
      );

      expect(others).toHaveLength(FACE_CENTRES.length);
      for (const other of others) expect(distance(other, portraitDescriptor)).toBeGreaterThan(SAME_PERSON_DISTANCE);
    });

    it("describes a face in a large photo from more pixels than detection uses", async () => {
      // The portrait at its own size in a 4000-px frame: 200 px of it survive at 3000 px, 51 at 1024.
      const large = await sharp(portrait)
        .extend({ left: 1900, right: 1900, top: 1200, bottom: 1200, background: "#708090" })
        .jpeg({ quality: 90 })
        .toBuffer();
      const atDetectionSize = await sharp(large).resize({ width: 1024 }).jpeg({ quality: 90 }).toBuffer();
      // Too small for the detector at 1024 px: the portrait's own box, moved into the frame.
      const { width = 0, height = 0 } = await sharp(portrait).metadata();
      const [fullWidth, fullHeight] = [width + 3800, height + 2400];
      const box = {
        left: (1900 + portraitBox.left * width) / fullWidth,
        top: (1200 + portraitBox.top * height) / fullHeight,
        width: (portraitBox.width * width) / fullWidth,
        height: (portraitBox.height * height) / fullHeight,
      };

      const [fromLarge] = await detector.describeFaces(large, [box]);
      const [fromSmall] = await detector.describeFaces(atDetectionSize, [box]);

      expect(distance(fromLarge, portraitDescriptor)).toBeLessThan(distance(fromSmall, portraitDescriptor));
      expect(distance(fromLarge, portraitDescriptor)).toBeLessThan(SAME_PERSON_DISTANCE);
    });

    it("fails only the request whose box lies outside the photo", async () => {
      await expect(
        detector.describeFaces(portrait, [{ left: 1.5, top: 1.5, width: 0.1, height: 0.1 }]),
      ).rejects.toThrow(/face description failed/);

      expect(await detector.describeFaces(portrait, [portraitBox])).toEqual([portraitDescriptor]);
    });
  });

  it("rejects requests once closed", async () => {
    const closing = await createLocalFaceDetector();
    await closing.close();

    await expect(closing.detectFaces(sample)).rejects.toThrow(/closed/);
  }, 60_000);
});

import { wearerOf } from "@dorsal/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaceDetection, TextDetection } from "../../ports/vision";
import { probePortraitJpeg } from "../../preflight/probe-portrait";
import { createLocalFaceDetector, type LocalFaceDetector } from "./faces";
import type { RawPixels } from "./pixels";
import { facesOfUnwornNumbers } from "./wearer-faces";

const WIDTH = 3000;
const HEIGHT = 2000;
/** A distant runner: a 90-px-wide head and shoulders (a face about 30 px high) at this corner. */
const DISTANT = { left: 2400, top: 1000, width: 90 };
/** Their bib's number, 30 px high, three face heights below the chin. */
const distantBib: TextDetection = {
  type: "LINE",
  text: "4821",
  confidence: 99,
  id: 1,
  box: { left: 2415 / WIDTH, top: 1145 / HEIGHT, width: 60 / WIDTH, height: 30 / HEIGHT },
};
/** A near runner's face the whole-photo pass found, far from the distant one. */
const nearFace: FaceDetection = { confidence: 99, box: { left: 0.1, top: 0.2, width: 0.08, height: 0.12 } };

describe("faces of runners whose bib hangs under no detected face", () => {
  let detector: LocalFaceDetector;
  let photo: RawPixels;
  let regionsLooked = 0;
  const counting: Pick<LocalFaceDetector, "detectFaces"> = {
    detectFaces: (image) => {
      regionsLooked++;
      return detector.detectFaces(image);
    },
  };

  beforeAll(async () => {
    detector = await createLocalFaceDetector();
    const portrait = await sharp(probePortraitJpeg()).resize({ width: DISTANT.width }).toBuffer();
    const data = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: "#2f6db5" } })
      .composite([{ input: portrait, left: DISTANT.left, top: DISTANT.top }])
      .removeAlpha()
      .raw()
      .toBuffer();
    photo = { data: new Uint8Array(data), width: WIDTH, height: HEIGHT };
  }, 60_000);

  afterAll(() => detector.close());

  it("finds the wearer's face above the bib, which the whole-photo pass is too coarse to see", async () => {
    expect(await detector.detectFaces(photo)).toEqual([]);

    const found = await facesOfUnwornNumbers(counting, photo, [distantBib], [nearFace]);

    expect(found).toHaveLength(1);
    const [face] = found as [FaceDetection];
    expect(face.confidence).toBeGreaterThan(60);
    expect(face.box.left * WIDTH).toBeGreaterThan(DISTANT.left);
    expect((face.box.left + face.box.width) * WIDTH).toBeLessThan(DISTANT.left + DISTANT.width);
    // So the wearer rule now keeps the bib.
    expect(wearerOf(face.box, distantBib.box)).toBe(true);
  });

  it("looks nowhere when the photo has no face, a number already hangs under one, or the text is no number", async () => {
    regionsLooked = 0;
    const noFace = await facesOfUnwornNumbers(counting, photo, [distantBib], []);
    const worn = await facesOfUnwornNumbers(
      counting,
      photo,
      [distantBib],
      [{ confidence: 99, box: { left: 2420 / WIDTH, top: 1020 / HEIGHT, width: 40 / WIDTH, height: 40 / HEIGHT } }],
    );
    const words = await facesOfUnwornNumbers(counting, photo, [{ ...distantBib, text: "META" }], [nearFace]);

    expect([noFace, worn, words]).toEqual([[], [], []]);
    expect(regionsLooked).toBe(0);
  });

  it("leaves a number too big for a closer look to the whole-photo pass", async () => {
    regionsLooked = 0;
    const banner = { ...distantBib, box: { left: 0.3, top: 0.6, width: 0.4, height: 0.2 } };

    expect(await facesOfUnwornNumbers(counting, photo, [banner], [nearFace])).toEqual([]);
    expect(regionsLooked).toBe(0);
  });
});

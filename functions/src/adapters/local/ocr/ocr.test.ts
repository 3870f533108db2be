import sharp, { type Sharp } from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BoundingBox, TextDetection } from "../../../ports/vision";
import { createSharedPixelPool, TEXT_SOURCE_LONG_SIDE, uprightPixels } from "../pixels";
import { createLocalTextDetector, type LocalTextDetector } from "./index";

// Wide and short: the detector scales every photo to 1280 px long side, so this keeps tests quick.
const WIDTH = 1000;
const HEIGHT = 300;
/** Two bib-like panels with big dark digits on a coloured background; pixel rectangles of the panels. */
const PANELS = {
  "1234": { left: 60, top: 50, width: 320, height: 180, fill: "#ffffff" },
  "5678": { left: 600, top: 80, width: 320, height: 180, fill: "#fff3c4" },
};

/**
 * A 6 MP frame (3000×2000) whose only small text is a distant runner's bib `4821`: 7-px digits on a
 * 33×15 panel centred at x = `bibX`, y ≈ 1207, which the coarse pass's 1280 px shrinks to 3 px.
 * `extra` is more SVG drawn on the same background.
 */
function distantRunnerFrame(bibX: number, extra = ""): Sharp {
  return sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="3000" height="2000">
        <rect width="100%" height="100%" fill="#3a7bd5"/>
        ${extra}
        <rect x="${bibX - 16}" y="1200" width="33" height="15" fill="#ffffff"/>
        <text x="${bibX}" y="1210" font-family="DejaVu Sans" font-weight="bold" font-size="9" text-anchor="middle"
          fill="#111111">4821</text>
      </svg>`,
    ),
  );
}

const photo = sharp(
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
      <rect width="${WIDTH}" height="${HEIGHT}" fill="#3a7bd5"/>
      ${Object.entries(PANELS)
        .map(
          ([digits, p]) => `<rect x="${p.left}" y="${p.top}" width="${p.width}" height="${p.height}" fill="${p.fill}"/>
          <text x="${p.left + p.width / 2}" y="${p.top + 125}" font-family="DejaVu Sans" font-weight="bold"
            font-size="96" text-anchor="middle" fill="#111111">${digits}</text>`,
        )
        .join("")}
    </svg>`,
  ),
);

function word(detections: TextDetection[], text: string): TextDetection {
  const found = detections.find((d) => d.type === "WORD" && d.text === text);
  if (!found) throw new Error(`"${text}" not read; got ${detections.map((d) => d.text).join(", ")}`);
  return found;
}

/** The word's box lies on its panel and covers the digits' middle (panel centre). */
function expectOnPanel(box: BoundingBox, panel: (typeof PANELS)[keyof typeof PANELS]) {
  const slack = 0.02;
  expect(box.left).toBeGreaterThan(panel.left / WIDTH - slack);
  expect(box.top).toBeGreaterThan(panel.top / HEIGHT - slack);
  expect(box.left + box.width).toBeLessThan((panel.left + panel.width) / WIDTH + slack);
  expect(box.top + box.height).toBeLessThan((panel.top + panel.height) / HEIGHT + slack);
  // 96-px bold digits are about 70 px high, four of them about 270 px wide.
  expect(box.height * HEIGHT).toBeGreaterThan(60);
  expect(box.width * WIDTH).toBeGreaterThan(240);
  const centreX = (panel.left + panel.width / 2) / WIDTH;
  expect(box.left).toBeLessThan(centreX);
  expect(box.left + box.width).toBeGreaterThan(centreX);
}

describe("local PaddleOCR text detector", { timeout: 30_000 }, () => {
  let detector: LocalTextDetector;
  beforeAll(async () => {
    detector = await createLocalTextDetector({ workers: 1 });
  }, 30_000);
  afterAll(() => detector?.close());

  it("reads the numbers with high confidence and boxes where they are, without blocking the event loop", async () => {
    let longestPause = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestPause = Math.max(longestPause, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const detections = await detector.detectText(await photo.clone().jpeg().toBuffer());
    const took = performance.now() - started;
    clearInterval(ticker);

    for (const [digits, panel] of Object.entries(PANELS)) {
      const read = word(detections, digits);
      expect(read.confidence).toBeGreaterThan(95);
      expectOnPanel(read.box, panel);
      const line = detections.find((d) => d.id === read.parentId);
      expect(line).toMatchObject({ type: "LINE", text: digits });
    }
    // Inference runs in a worker: the main thread keeps ticking throughout.
    expect(longestPause).toBeLessThan(took / 2);
  });

  it("reports boxes in the upright photo when EXIF says to rotate it", async () => {
    // Stored sideways; orientation 6 means "rotate 90° clockwise to display".
    const sideways = await sharp(await photo.clone().png().toBuffer())
      .rotate(-90)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const detections = await detector.detectText(sideways);
    expectOnPanel(word(detections, "1234").box, PANELS["1234"]);
    expectOnPanel(word(detections, "5678").box, PANELS["5678"]);
  });

  it("rejects what is not an image and keeps serving", async () => {
    await expect(detector.detectText(Buffer.from("not a photo"))).rejects.toThrow(/text detection failed/);
    const detections = await detector.detectText(await photo.clone().png().toBuffer());
    expect(word(detections, "1234").confidence).toBeGreaterThan(95);
  });

  it("reads a distant runner's tiny bib when asked to look closer where the runner is", async () => {
    const width = 3000;
    const tiny = await distantRunnerFrame(1416).png().toBuffer();
    const words = (detections: TextDetection[]) => detections.filter((d) => d.type === "WORD").map((d) => d.text);
    expect(words(await detector.detectText(tiny))).toEqual([]);
    const runner = { left: 0.4, top: 0.5, width: 0.2, height: 0.2 };
    const closer = await detector.detectText(tiny, { closerLook: [runner] });
    expect(words(closer)).toEqual(["4821"]);
    const read = word(closer, "4821");
    expect(read.box.left * width).toBeGreaterThan(1395);
    expect((read.box.left + read.box.width) * width).toBeLessThan(1440);
  });

  it("reads a tiny bib on the seam between two tiles of a crowd's closer look exactly once", async () => {
    // Five overlapping runners' regions merge into one window 1,300 px wide: at twice the photo's
    // pixels that is 2,600 detector pixels, so it is detected in three tiles; x = 460 is where the
    // first two split their overlap.
    const width = 3000;
    const frame = await distantRunnerFrame(100 + 460)
      .png()
      .toBuffer();
    const crowd = [0, 1, 2, 3, 4].map((i) => ({ left: (100 + i * 250) / width, top: 0.5, width: 0.1, height: 0.2 }));
    const words = (await detector.detectText(frame, { closerLook: crowd }))
      .filter((d) => d.type === "WORD")
      .map((d) => d.text);
    expect(words).toEqual(["4821"]);
  });

  it("names the engine and its model version", () => {
    expect(detector.info).toEqual({
      engine: "paddleocr-ppocrv4-onnx",
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });
});

describe("local PaddleOCR text detector, a photo's work spread over workers", { timeout: 30_000 }, () => {
  let detector: LocalTextDetector;
  beforeAll(async () => {
    detector = await createLocalTextDetector({ workers: 2 });
  }, 30_000);
  afterAll(() => detector?.close());

  it("reads in steps shared between workers exactly what one worker reads in one go", async () => {
    // Big numbers for the coarse pass, several to share out, and a tiny one only the closer look finds.
    const numbers = ["1234", "5678", "9012", "3456", "7890"];
    const bigNumbers = numbers
      .map(
        (digits, i) => `<rect x="${100 + i * 560}" y="200" width="480" height="220" fill="#ffffff"/>
        <text x="${340 + i * 560}" y="350" font-family="DejaVu Sans" font-weight="bold" font-size="120"
          text-anchor="middle" fill="#111111">${digits}</text>`,
      )
      .join("");
    const frame = await distantRunnerFrame(1416, bigNumbers).jpeg({ quality: 95 }).toBuffer();
    const closerLook = [{ left: 0.4, top: 0.5, width: 0.2, height: 0.2 }];
    const inOneGo = await detector.detectText(frame, { closerLook });
    const { pixels } = createSharedPixelPool().lease(await uprightPixels(frame, TEXT_SOURCE_LONG_SIDE));
    const inSteps = await detector.finish(pixels, await detector.findCoarse(pixels), { closerLook });
    expect(inSteps).toEqual(inOneGo);
    const words = inOneGo.filter((d) => d.type === "WORD").map((d) => d.text);
    expect(words.sort()).toEqual([...numbers, "4821"].sort());
  });
});

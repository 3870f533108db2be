import type { S3Event } from "aws-lambda";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeHeic } from "../../functions/src/app/heic";
import { sniffImageType } from "../../functions/src/app/image-types";
import { startPipelineFor } from "../../functions/src/app/starter";
import { storagePaths } from "../../functions/src/app/storage-paths";
import type { Container } from "../../functions/src/compose";
import { makeBibPhoto } from "../../functions/src/preflight/probe-photo";
import { startInProcess, testBuckets } from "../support/in-process";

/**
 * iPhone HEIC uploads: sharp cannot read them, so the pipeline decodes them (libheif WASM) into its
 * copies and a working JPEG the text and face engines read (removed once the photo is recorded). The HEIC here is written by the small
 * encoder at the end of this file (no sample photos are downloaded).
 */
describe("HEIC originals", () => {
  let standIns: Awaited<ReturnType<typeof startInProcess>>;
  let container: Container;
  let eventId: number;

  beforeAll(async () => {
    standIns = await startInProcess("HEIC");
    ({ container, eventId } = standIns);
  });

  afterAll(async () => {
    await standIns?.stop();
  });

  it("decodes a HEIC file to upright RGBA pixels and refuses one over the pixel limit", async () => {
    const heic = await encodeTestHeic(await makeBibPhoto("42", { width: 320, height: 256 }));
    expect(sniffImageType(heic)).toBe("heic");
    const raw = await decodeHeic(heic);
    expect(raw).toMatchObject({ width: 320, height: 256, channels: 4 });
    expect(raw.data.length).toBe(320 * 256 * 4);
    // The corner is the photo's blue background (#2f6db5), give or take the YCbCr round trip.
    const corner = [...raw.data.subarray(0, 3)];
    for (const [i, expected] of [0x2f, 0x6d, 0xb5].entries()) {
      expect(Math.abs((corner[i] ?? 0) - expected)).toBeLessThan(12);
    }
    await expect(decodeHeic(heic, 320 * 256 - 1)).rejects.toThrow(/demasiado grande/);
  });

  it("processes a HEIC original into web copy, thumbnail and previews, with its bib read", async () => {
    const photoId = "0photoheic000000000000000001";
    const key = storagePaths.original(eventId, photoId, "heic");
    const heic = await encodeTestHeic(await makeBibPhoto("615"));
    await container.deps.objects.put("originals", key, heic, "image/heic", heic.length);
    const notification = {
      Records: [
        {
          eventName: "ObjectCreated:Put",
          s3: { bucket: { name: testBuckets.originals }, object: { key, size: heic.length, sequencer: "H1" } },
        },
      ],
    } as unknown as S3Event;
    const deps = { pipeline: container.deps.pipeline, objects: container.deps.objects, logger: container.logger };
    expect(await startPipelineFor(deps, notification)).toBe(1);
    await container.localPipeline?.idle();

    const stored = await container.deps.photos.get(photoId);
    expect(stored).toMatchObject({
      processingStatus: "successful",
      detectedDorsals: ["615"],
      webKey: storagePaths.web(eventId, photoId),
      thumbnailKey: storagePaths.thumbnail(eventId, photoId),
      imageSize: { width: 1600, height: 1184 },
    });
    const web = await sharp(
      await container.deps.objects.getBuffer("derived", storagePaths.web(eventId, photoId)),
    ).metadata();
    expect(web).toMatchObject({ format: "jpeg", width: 1600, height: 1184 });
    const thumbnail = await sharp(
      await container.deps.objects.getBuffer("derived", storagePaths.thumbnail(eventId, photoId)),
    ).metadata();
    expect(thumbnail).toMatchObject({ format: "jpeg", width: 400 });
    // The working JPEG the engines read (the bib above came from it) served them only: it is gone.
    expect((await container.deps.objects.list("derived", storagePaths.working(eventId, photoId))).objects).toEqual([]);
  });
});

/**
 * A minimal HEIC writer for tests, since no npm package here can encode HEVC: every 32×32 block is
 * an uncompressed HEVC PCM coding unit in its own slice (so each starts from fresh CABAC state and
 * needs just one arithmetic-coded bin), wrapped in a single-item HEIF file. Big, but a real HEIC
 * that libheif decodes like a phone's. Width and height are rounded down to multiples of 32.
 */
async function encodeTestHeic(image: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const width = info.width - (info.width % 32);
  const height = info.height - (info.height % 32);
  const rgb = (x: number, y: number) => {
    const i = (y * info.width + x) * 3;
    return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0] as const;
  };
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  const lumaAt = (x: number, y: number) => {
    const [r, g, b] = rgb(x, y);
    return clamp(0.299 * r + 0.587 * g + 0.114 * b);
  };
  const chromaAt = (x: number, y: number) => {
    const [r, g, b] = rgb(x, y);
    return [clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b), clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)];
  };

  const vps = new BitWriter();
  vps.u(0, 4).u(1, 1).u(1, 1).u(0, 6).u(0, 3).u(1, 1).u(0xffff, 16);
  profileTierLevel(vps);
  vps.u(1, 1).ue(0).ue(0).ue(0).u(0, 6).ue(0).u(0, 1).u(0, 1).trailing();

  const sps = new BitWriter();
  sps.u(0, 4).u(0, 3).u(1, 1);
  profileTierLevel(sps);
  sps.ue(0).ue(1).ue(width).ue(height).u(0, 1).ue(0).ue(0).ue(0);
  sps.u(1, 1).ue(0).ue(0).ue(0);
  sps.ue(2).ue(0).ue(0).ue(3).ue(0).ue(0); // CTB = min CB = 32; transforms 4..32
  sps.u(0, 1).u(0, 1).u(0, 1); // no scaling lists, AMP, SAO
  sps.u(1, 1).u(7, 4).u(7, 4).ue(2).ue(0).u(1, 1); // PCM: 8-bit samples, 32×32 CUs, no loop filter
  sps.ue(0).u(0, 1).u(0, 1).u(0, 1).u(0, 1).u(0, 1).trailing();

  const pps = new BitWriter();
  pps.ue(0).ue(0).u(0, 1).u(0, 1).u(0, 3).u(0, 1).u(0, 1).ue(0).ue(0).se(0);
  pps.u(0, 1).u(0, 1).u(0, 1).se(0).se(0).u(0, 1).u(0, 1).u(0, 1).u(0, 1).u(0, 1).u(0, 1).u(0, 1);
  pps.u(1, 1).u(0, 1).u(1, 1); // deblocking off
  pps.u(0, 1).u(0, 1).ue(0).u(0, 1).u(0, 1).trailing();

  const ctbsWide = width / 32;
  const ctbs = ctbsWide * (height / 32);
  const addressBits = Math.ceil(Math.log2(ctbs));
  const slices: Buffer[] = [];
  for (let address = 0; address < ctbs; address++) {
    const x0 = (address % ctbsWide) * 32;
    const y0 = Math.floor(address / ctbsWide) * 32;
    const slice = new BitWriter();
    slice
      .u(address === 0 ? 1 : 0, 1)
      .u(0, 1)
      .ue(0);
    if (address > 0) slice.u(address, addressBits);
    slice.ue(2).se(0); // I slice, QP 26
    slice.u(1, 1).align(); // byte_alignment()
    const cabac = new CabacWriter(slice);
    cabac.mps(); // part_mode 2N×2N: the most probable symbol of a fresh context at QP 26
    cabac.terminate(); // pcm_flag = 1, then flush
    slice.align();
    for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) slice.u(lumaAt(x0 + x, y0 + y), 8);
    for (const plane of [0, 1]) {
      for (let y = 0; y < 16; y++) {
        for (let x = 0; x < 16; x++) slice.u(chromaAt(x0 + 2 * x, y0 + 2 * y)[plane] ?? 128, 8);
      }
    }
    new CabacWriter(slice).terminate(); // end_of_slice_segment_flag = 1; its last bit is the stop bit
    slice.align();
    slices.push(nal(19, slice.bytes()));
  }

  const params = [nal(32, vps.bytes()), nal(33, sps.bytes()), nal(34, pps.bytes())];
  const hvcC = box(
    "hvcC",
    Buffer.from([1, 0x01, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 93, 0xf0, 0x00, 0xfc, 0xfd, 0xf8, 0xf8, 0, 0, 0x0f]),
    Buffer.from([params.length]),
    ...params.map((unit, i) => Buffer.concat([Buffer.from([0x80 | (32 + i), 0, 1]), u16(unit.length), unit])),
  );
  const ispe = fullBox("ispe", 0, u32(width), u32(height));
  const mdatPayload = Buffer.concat(slices.flatMap((unit) => [u32(unit.length), unit]));
  const ftyp = box("ftyp", Buffer.from("heic"), u32(0), Buffer.from("mif1heic"));
  const metaWith = (offset: number) =>
    fullBox(
      "meta",
      0,
      fullBox("hdlr", 0, u32(0), Buffer.from("pict"), Buffer.alloc(12), Buffer.from([0])),
      fullBox("pitm", 0, u16(1)),
      fullBox(
        "iloc",
        0,
        Buffer.from([0x44, 0x00]),
        u16(1),
        u16(1),
        u16(0),
        u16(1),
        u32(offset),
        u32(mdatPayload.length),
      ),
      fullBox("iinf", 0, u16(1), fullBox("infe", 2, u16(1), u16(0), Buffer.from("hvc1"), Buffer.from([0]))),
      box("iprp", box("ipco", hvcC, ispe), fullBox("ipma", 0, u32(1), u16(1), Buffer.from([2, 0x81, 0x02]))),
    );
  const offset = ftyp.length + metaWith(0).length + 8;
  return Buffer.concat([ftyp, metaWith(offset), box("mdat", mdatPayload)]);
}

function profileTierLevel(w: BitWriter) {
  w.u(0, 2).u(0, 1).u(1, 5).u(0x60000000, 32); // Main profile
  w.u(1, 1).u(0, 1).u(0, 1).u(1, 1).u(0, 32).u(0, 12); // progressive, frame only; reserved
  w.u(93, 8); // level 3.1
}

function nal(type: number, rbsp: Buffer): Buffer {
  const out = [type << 1, 1];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

const u16 = (v: number) => Buffer.from([v >> 8, v & 0xff]);
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return b;
};
function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, "latin1"), body]);
}
const fullBox = (type: string, version: number, ...parts: Buffer[]) =>
  box(type, Buffer.from([version, 0, 0, 0]), ...parts);

class BitWriter {
  private readonly out: number[] = [];
  private current = 0;
  private count = 0;
  bit(b: number): this {
    this.current = (this.current << 1) | (b & 1);
    if (++this.count === 8) {
      this.out.push(this.current);
      this.current = 0;
      this.count = 0;
    }
    return this;
  }
  u(value: number, bits: number): this {
    for (let i = bits - 1; i >= 0; i--) this.bit(Math.floor(value / 2 ** i) % 2);
    return this;
  }
  ue(value: number): this {
    const length = Math.floor(Math.log2(value + 1));
    return this.u(0, length).u(value + 1, length + 1);
  }
  se(value: number): this {
    return this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }
  align(): this {
    while (this.count !== 0) this.bit(0);
    return this;
  }
  trailing(): this {
    return this.bit(1).align();
  }
  bytes(): Buffer {
    return Buffer.from(this.out);
  }
}

/** The CABAC encoder of H.265 §9.3.4.3, just enough of it: one MPS bin from state 0 and terminate bins. */
class CabacWriter {
  private low = 0;
  private range = 510;
  private first = true;
  private outstanding = 0;
  constructor(private readonly w: BitWriter) {}
  mps() {
    this.range -= [128, 176, 208, 240][(this.range >> 6) & 3] ?? 0;
    this.renormalize();
  }
  terminate() {
    this.range -= 2;
    this.low += this.range;
    this.range = 2;
    this.renormalize();
    this.put((this.low >> 9) & 1);
    this.w.u(((this.low >> 7) & 3) | 1, 2);
  }
  private renormalize() {
    while (this.range < 256) {
      if (this.low < 256) this.put(0);
      else if (this.low >= 512) {
        this.low -= 512;
        this.put(1);
      } else {
        this.low -= 256;
        this.outstanding++;
      }
      this.range <<= 1;
      this.low <<= 1;
    }
  }
  private put(b: number) {
    if (this.first) this.first = false;
    else this.w.bit(b);
    for (; this.outstanding > 0; this.outstanding--) this.w.bit(1 - b);
  }
}

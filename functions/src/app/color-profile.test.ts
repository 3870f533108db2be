import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { embeddedProfileIsSrgb } from "./color-profile";

const photoWith = (profile?: "srgb" | "p3") => {
  const image = sharp({ create: { width: 64, height: 48, channels: 3, background: "#c0502a" } });
  return (profile ? image.withIccProfile(profile) : image).jpeg({ quality: 95 }).toBuffer();
};
const profileOf = async (photo: Buffer) => (await sharp(photo).metadata()).icc;

describe("an embedded sRGB profile, which needs no conversion", () => {
  it("is told from Display P3 and from no profile at all", async () => {
    expect(embeddedProfileIsSrgb(await profileOf(await photoWith("srgb")))).toBe(true);
    expect(embeddedProfileIsSrgb(await profileOf(await photoWith("p3")))).toBe(false);
    expect(embeddedProfileIsSrgb(await profileOf(await photoWith()))).toBe(false);
  });

  it("is not read into a malformed profile: a lying tag table is 'not sRGB', never an exception", async () => {
    const icc = Buffer.from((await profileOf(await photoWith("srgb"))) ?? []);
    const lying = Buffer.from(icc);
    lying.writeUInt32BE(0xffff_ffff, 128);
    const truncated = icc.subarray(0, 140);
    const pointingOut = Buffer.from(icc);
    for (let entry = 132; entry < 132 + icc.readUInt32BE(128) * 12; entry += 12)
      pointingOut.writeUInt32BE(1e9, entry + 4);

    expect(embeddedProfileIsSrgb(lying)).toBe(false);
    expect(embeddedProfileIsSrgb(truncated)).toBe(false);
    expect(embeddedProfileIsSrgb(pointingOut)).toBe(false);
    expect(embeddedProfileIsSrgb(Buffer.alloc(10))).toBe(false);
  });

  it("decodes to the same pixels when its conversion is skipped", async () => {
    const photo = await photoWith("srgb");

    const converted = await sharp(photo).raw().toBuffer();
    const skipped = await sharp(photo, { ignoreIcc: true }).raw().toBuffer();

    const largest = converted.reduce(
      (most, value, index) => Math.max(most, Math.abs(value - (skipped[index] ?? 0))),
      0,
    );
    expect(largest).toBeLessThanOrEqual(1);
  });
});

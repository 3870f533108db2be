/**
 * Whether a photo's embedded ICC profile is sRGB, by its description ("sRGB IEC61966-2.1", as
 * cameras and Lightroom write it). Converting such a photo to sRGB changes no pixel but makes the
 * decoder transform every one of them at full size: ~3/4 of decoding a 22.6 MP JPEG (bench:
 * 750 → 200 CPU-ms). Any other profile (Display P3, Adobe RGB) is still converted. Reads only what
 * the profile's header and tag table say is there: a malformed profile is "not sRGB".
 */
export function embeddedProfileIsSrgb(icc: Uint8Array | undefined): boolean {
  if (!icc || icc.byteLength < 132) return false;
  const bytes = Buffer.from(icc.buffer, icc.byteOffset, icc.byteLength);
  const tagCount = bytes.readUInt32BE(128);
  if (tagCount > 100 || 132 + tagCount * 12 > bytes.byteLength) return false;
  for (let index = 0; index < tagCount; index++) {
    const entry = 132 + index * 12;
    if (bytes.toString("latin1", entry, entry + 4) !== "desc") continue;
    const offset = bytes.readUInt32BE(entry + 4);
    const size = bytes.readUInt32BE(entry + 8);
    if (size < 12 || offset + size > bytes.byteLength) return false;
    return /\bsRGB\b/.test(descriptionText(bytes.subarray(offset, offset + size)));
  }
  return false;
}

/** ICC v2 `desc` (ASCII) or v4 `mluc` (UTF-16BE, first record) text; empty when neither fits. */
function descriptionText(tag: Buffer): string {
  const type = tag.toString("latin1", 0, 4);
  if (type === "desc") {
    const length = tag.readUInt32BE(8);
    return 12 + length <= tag.byteLength ? tag.toString("latin1", 12, 12 + length).replace(/\0+$/, "") : "";
  }
  if (type === "mluc" && tag.byteLength >= 28 && tag.readUInt32BE(8) > 0) {
    const length = tag.readUInt32BE(20);
    const start = tag.readUInt32BE(24);
    if (start + length > tag.byteLength || length % 2 !== 0) return "";
    return Buffer.from(tag.subarray(start, start + length))
      .swap16()
      .toString("utf16le");
  }
  return "";
}

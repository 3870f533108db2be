import { describe, expect, it } from "vitest";
import { isPhone, multipartThresholdBytes, partSizeBytes, uploadsAtOnce, usesMultipart } from "./upload-settings";

describe("upload batches and transfer mode", () => {
  it("sends 5 photos at a time on a desktop and 2 on a phone (spec §9)", () => {
    expect(uploadsAtOnce(false)).toBe(5);
    expect(uploadsAtOnce(true)).toBe(2);
  });

  it("tells phones from desktops by user agent (iPadOS by its touch screen)", () => {
    const android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36";
    const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
    const mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15";
    const linux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";
    expect(isPhone(android, true)).toBe(true);
    expect(isPhone(iphone, true)).toBe(true);
    expect(isPhone(mac, true)).toBe(true);
    expect(isPhone(mac, false)).toBe(false);
    expect(isPhone(linux, false)).toBe(false);
  });

  it("goes multipart above 10 MB, in parts no smaller than S3 allows", () => {
    expect(multipartThresholdBytes).toBe(10 * 1024 * 1024);
    expect(usesMultipart(multipartThresholdBytes)).toBe(false);
    expect(usesMultipart(multipartThresholdBytes + 1)).toBe(true);
    expect(partSizeBytes).toBeGreaterThanOrEqual(5 * 1024 * 1024);
  });
});

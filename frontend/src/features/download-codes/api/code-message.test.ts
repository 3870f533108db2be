import type { EventDto, IssuedDownloadCode } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { codeEligibleEvents, codeStatus, formatValidUntil } from "./code-message";

const event = (id: number, status: string, freePhotosEnabled: boolean) =>
  ({ id, status, freePhotosEnabled }) as EventDto;

describe("codeEligibleEvents", () => {
  it("offers only active events whose photos are still for sale", () => {
    const events = [event(1, "active", false), event(2, "active", true), event(3, "completed", false)];
    expect(codeEligibleEvents(events).map(({ id }) => id)).toEqual([1]);
  });
});

describe("formatValidUntil", () => {
  it("shows unexpected values as they came", () => {
    expect(formatValidUntil("pronto")).toBe("pronto");
  });
});

describe("codeStatus", () => {
  const now = new Date("2026-11-24T12:00:00Z");
  const code = (isUsed: boolean, expiresAt: string, remainingDownloads = 3, photoCount = 2) =>
    ({ isUsed, maxDownloads: 3, remainingDownloads, photoCount, expiresAt }) as IssuedDownloadCode;

  it("is active until first used, then in use, while it has not expired", () => {
    expect(codeStatus(code(false, "2026-11-25T00:00:00Z"), now)).toBe("active");
    expect(codeStatus(code(true, "2026-11-25T00:00:00Z", 1), now)).toBe("used");
  });

  it("is spent once a photo of the bib reached the limit, and not while the bib has no photos", () => {
    expect(codeStatus(code(true, "2026-11-25T00:00:00Z", 0), now)).toBe("spent");
    expect(codeStatus(code(false, "2026-11-25T00:00:00Z", 3, 0), now)).toBe("active");
  });

  it("is expired once its moment has passed, used or not", () => {
    expect(codeStatus(code(false, "2026-11-24T12:00:00Z"), now)).toBe("expired");
    expect(codeStatus(code(true, "2026-11-01T00:00:00Z"), now)).toBe("expired");
  });
});

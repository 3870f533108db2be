import { describe, expect, it } from "vitest";
import { driveAuthOutcome, drivePopupTimeoutMs, morePhotosLabel } from "./drive";

describe("the drive popup", () => {
  it("reads how the authorization ended only from the callback's drive_auth value", () => {
    expect(driveAuthOutcome("https://fotos.example.co/upload?drive_auth=success")).toBe("success");
    expect(driveAuthOutcome("https://fotos.example.co/upload?drive_auth=error")).toBe("error");
    expect(driveAuthOutcome("https://fotos.example.co/upload?drive_auth=otro")).toBeNull();
    expect(driveAuthOutcome("about:blank")).toBeNull();
  });

  it("waits 60 s for a normal window and 5 minutes for a clean one (spec §9)", () => {
    expect(drivePopupTimeoutMs(false)).toBe(60_000);
    expect(drivePopupTimeoutMs(true)).toBe(300_000);
  });
});

describe("the folder preview", () => {
  it("says '+N más' past the photos shown, and nothing when all are shown", () => {
    expect(morePhotosLabel(15, 12)).toBe("+3 más");
    expect(morePhotosLabel(12, 12)).toBeNull();
    expect(morePhotosLabel(3, 3)).toBeNull();
  });
});

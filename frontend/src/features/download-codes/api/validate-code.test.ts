import { type DownloadPhoto, salesMessages } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { ApiError, NetworkError } from "../../../lib/api-fetch";
import { remainingAfter, validationFailureMessage } from "./validate-code";

describe("validationFailureMessage", () => {
  it("shows the server's reason for refusing the code", () => {
    expect(validationFailureMessage(new ApiError(salesMessages.codeExpired, 410))).toBe(salesMessages.codeExpired);
  });

  it("says the code is invalid when the refusal gives no reason", () => {
    expect(validationFailureMessage(new ApiError("404: Not Found", 404))).toBe(salesMessages.codeInvalid);
  });

  it("asks to try again when the code could not be checked", () => {
    expect(validationFailureMessage(new NetworkError("offline"))).toBe(salesMessages.codeValidateFailed);
    expect(validationFailureMessage(new ApiError("Error interno", 500))).toBe(salesMessages.codeValidateFailed);
  });
});

describe("remainingAfter", () => {
  const photo = (id: string, remainingDownloads: number) => ({ id, remainingDownloads }) as DownloadPhoto;

  it("counts one download off each photo saved and keeps the fewest left", () => {
    const photos = [photo("a", 3), photo("b", 2)];
    expect(remainingAfter(photos, new Set())).toBe(2);
    expect(remainingAfter(photos, new Set(["a", "b"]))).toBe(1);
    expect(remainingAfter(photos, new Set(["a"]))).toBe(2);
  });

  it("never goes below zero", () => {
    expect(remainingAfter([photo("a", 0)], new Set(["a"]))).toBe(0);
    expect(remainingAfter([], new Set())).toBe(0);
  });
});

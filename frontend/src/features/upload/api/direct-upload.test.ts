import { describe, expect, it } from "vitest";
import { ApiError, NetworkError } from "../../../lib/api-fetch";
import {
  uploadErrorMessage,
  uploadNetworkErrorMessage,
  uploadTooLargeMessage,
  uploadUnknownErrorMessage,
} from "./direct-upload";

describe("uploadErrorMessage (spec §8)", () => {
  it("shows the server's own text, and the 413 text for a photo over the limit", () => {
    expect(uploadErrorMessage(new ApiError("Evento no encontrado", 404))).toBe("Evento no encontrado");
    expect(uploadErrorMessage(new ApiError("413: too big", 413))).toBe(uploadTooLargeMessage);
  });

  it("calls a lost connection a network error, however the uploader reports it", () => {
    expect(uploadErrorMessage(new NetworkError("fetch failed"))).toBe(uploadNetworkErrorMessage);
    expect(uploadErrorMessage(Object.assign(new Error("x"), { code: "NETWORK" }))).toBe(uploadNetworkErrorMessage);
    expect(uploadErrorMessage(Object.assign(new Error("x"), { cause: { isNetworkError: true } }))).toBe(
      uploadNetworkErrorMessage,
    );
  });

  it("names the status of a storage refusal, and falls back to the unknown-error text", () => {
    expect(uploadErrorMessage(Object.assign(new Error("x"), { status: 403, serviceCode: "AccessDenied" }))).toBe(
      "Error 403: AccessDenied",
    );
    expect(uploadErrorMessage(Object.assign(new Error("x"), { status: 413 }))).toBe(uploadTooLargeMessage);
    expect(uploadErrorMessage(new Error("¿?"))).toBe(uploadUnknownErrorMessage);
  });
});

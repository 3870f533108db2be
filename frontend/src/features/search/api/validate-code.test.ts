import { salesMessages } from "@dorsal/shared";
import { describe, expect, it } from "vitest";
import { ApiError, NetworkError } from "../../../lib/api-fetch";
import { validationFailureMessage } from "./validate-code";

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

import { describe, expect, it } from "vitest";
import { errorMessageFor } from "./api-fetch";

describe("errorMessageFor", () => {
  it("shows the server's Spanish message when it sends one", () => {
    expect(
      errorMessageFor(401, "Unauthorized", JSON.stringify({ success: false, error: "Credenciales inválidas" })),
    ).toBe("Credenciales inválidas");
  });

  it("falls back to status and body (spec §8)", () => {
    expect(errorMessageFor(502, "Bad Gateway", "upstream down")).toBe("502: upstream down");
    expect(errorMessageFor(500, "Internal Server Error", JSON.stringify({ message: "x" }))).toBe(
      '500: {"message":"x"}',
    );
  });

  it("uses the status text when the body is empty", () => {
    expect(errorMessageFor(503, "Service Unavailable", "")).toBe("503: Service Unavailable");
  });
});

import { describe, expect, it } from "vitest";
import { ApiError, NetworkError } from "../../../lib/api-fetch";
import { athleteAuthFailure } from "./athlete-auth";

describe("athleteAuthFailure", () => {
  it("names wrong credentials", () => {
    expect(athleteAuthFailure(new ApiError("401: Unauthorized", 401))).toBe("Credenciales inválidas");
  });

  it("passes on the server's reason for a refusal", () => {
    expect(athleteAuthFailure(new ApiError("Ya existe una cuenta con este correo", 409))).toBe(
      "Ya existe una cuenta con este correo",
    );
  });

  it("falls back to the athletes' generic message when the server failed", () => {
    expect(athleteAuthFailure(new ApiError("500: Internal Server Error", 500))).toBe("Error de autenticación");
  });

  it("asks to retry when the server could not be reached", () => {
    expect(athleteAuthFailure(new NetworkError("offline"))).toBe("Error de conexión. Inténtalo de nuevo.");
  });
});

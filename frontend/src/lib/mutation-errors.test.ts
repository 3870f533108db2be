import { describe, expect, it } from "vitest";
import { ApiError, NetworkError } from "./api-fetch";
import { mutationErrorToast } from "./mutation-errors";

describe("mutationErrorToast", () => {
  it("says the error's own message under 'Error' by default", () => {
    expect(mutationErrorToast(new ApiError("El correo ya está registrado", 409), undefined)).toEqual({
      title: "Error",
      description: "El correo ya está registrado",
    });
    expect(mutationErrorToast(new NetworkError(new TypeError("Failed to fetch")), {})?.description).toMatch(
      /^No se pudo conectar con el servidor/,
    );
  });

  it("takes the mutation's title and text when it gives them", () => {
    const error = new ApiError("429: Too Many Requests", 429);
    expect(mutationErrorToast(error, { errorTitle: "No se pudo reintentar" })).toEqual({
      title: "No se pudo reintentar",
      description: "429: Too Many Requests",
    });
    expect(mutationErrorToast(error, { errorMessage: "No se pudo crear el evento" })?.description).toBe(
      "No se pudo crear el evento",
    );
    expect(mutationErrorToast(error, { errorMessage: (failure) => `Falló: ${failure.message}` })?.description).toBe(
      "Falló: 429: Too Many Requests",
    );
  });

  it("shows nothing for a mutation whose screen reports its failures", () => {
    expect(mutationErrorToast(new ApiError("Credenciales inválidas", 401), { errorToast: false })).toBeNull();
  });
});

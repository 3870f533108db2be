import { describe, expect, it } from "vitest";
import { firstErrorByField } from "./field-errors";

describe("firstErrorByField", () => {
  const issues = [
    { path: ["name"], message: "Nombre muy corto" },
    { path: ["name"], message: "Solo letras" },
    { path: ["tiers", 2, "price"], message: "Precio inválido" },
    { path: "email", message: "Correo inválido" },
  ];

  it("keeps each top-level field's first message, from zod's paths or the API's field names", () => {
    expect(firstErrorByField(issues)).toEqual({
      name: "Nombre muy corto",
      tiers: "Precio inválido",
      email: "Correo inválido",
    });
  });

  it("lets a field have its own wording", () => {
    expect(firstErrorByField(issues, (field, message) => (field === "name" ? "Escribe el nombre" : message))).toEqual({
      name: "Escribe el nombre",
      tiers: "Precio inválido",
      email: "Correo inválido",
    });
  });
});

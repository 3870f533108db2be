import { describe, expect, it } from "vitest";
import { z } from "zod";
import "./index";

const messageOf = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;

describe("the Spanish zod messages installed by the shared package", () => {
  it("say every issue code in Spanish, with limits in words", () => {
    const cases: [z.ZodType, unknown, string][] = [
      [z.object({ name: z.string() }), {}, "Este campo es obligatorio"],
      [z.string(), 5, "Debe ser un texto"],
      [z.coerce.number(), "abc", "Debe ser un número"],
      [z.number().int(), 1.5, "Debe ser un número entero"],
      [z.boolean(), "sí", "Debe ser verdadero o falso"],
      [z.array(z.string()), "a", "Debe ser una lista"],
      [z.object({}), "a", "Debe ser un conjunto de campos"],
      [z.string().max(200), "x".repeat(201), "Debe tener como máximo 200 caracteres"],
      [z.string().length(1), "ab", "Debe tener exactamente 1 carácter"],
      [z.string().min(1), "", "No puede estar vacío"],
      [z.string().min(6), "abc", "Debe tener al menos 6 caracteres"],
      [z.array(z.string()).min(1), [], "Debe tener al menos 1 elemento"],
      [z.array(z.string()).max(100), Array(101).fill("a"), "Debe tener como máximo 100 elementos"],
      [z.number().max(1_000_000), 2_000_000, "Debe ser como máximo 1.000.000"],
      [z.number().lt(10), 10, "Debe ser menor que 10"],
      [z.number().positive(), 0, "Debe ser mayor que 0"],
      [z.number().min(1), 0, "Debe ser como mínimo 1"],
      [z.email(), "a", "El correo electrónico no es válido"],
      [z.url(), "a", "La dirección web no es válida"],
      [z.iso.date(), "2026-13-45", "La fecha no es válida (formato AAAA-MM-DD)"],
      [z.iso.datetime(), "ayer", "La fecha y hora no son válidas"],
      [z.string().regex(/^[a-z0-9]{10,40}$/), "A", "El formato no es válido"],
      [z.uuid(), "a", "El formato no es válido"],
      [z.number().multipleOf(1000), 1500, "Debe ser múltiplo de 1.000"],
      [z.strictObject({}), { extra: 1 }, "Contiene un campo no admitido"],
      [z.union([z.string(), z.number()]), true, "Los datos no corresponden a ninguna forma admitida"],
      [
        z.discriminatedUnion("kind", [z.object({ kind: z.literal("a") }), z.object({ kind: z.literal("b") })]),
        { kind: "c" },
        "Opción no válida",
      ],
      [z.record(z.string().regex(/^\d+$/), z.string()), { a: "x" }, "Contiene una clave no válida"],
      [z.map(z.object({}), z.number()), new Map([[{}, "x"]]), "Contiene un valor no válido"],
      [z.enum(["active", "completed"]), "other", "Opción no válida"],
      [z.literal("photographer"), "admin", "Valor no válido"],
      [z.string().refine((value) => value === "ok"), "no", "Valor no válido"],
    ];
    for (const [schema, input, expected] of cases) expect(messageOf(schema, input)).toBe(expected);
  });

  it("leaves the messages a schema sets itself as they are", () => {
    expect(messageOf(z.string().max(3, "Máximo 3 letras"), "abcd")).toBe("Máximo 3 letras");
    expect(messageOf(z.string({ error: "Escribe tu nombre" }), undefined)).toBe("Escribe tu nombre");
  });
});

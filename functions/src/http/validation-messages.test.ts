import { messages } from "@dorsal/shared";
import { api, type EndpointSpec } from "@dorsal/shared/contract";
import { describe, expect, it } from "vitest";
import type { core } from "zod";

/** Values a client can send in place of anything: wrong types, empty, huge, malformed. */
const scalars: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e20,
  "",
  " ",
  "texto",
  "abc123",
  "-5",
  "1.5",
  "99999999999999999999",
  "2026-13-45",
  "x".repeat(5000),
  [],
  {},
];

/**
 * Hostile inputs for a schema, read from its definition: every field of an object gets every bad
 * value in turn (with the object's literal fields, such as a union's discriminator, kept right so
 * the branch behind them is reached), lists get bad elements and too many of them.
 */
function hostileInputs(schema: core.$ZodType, depth = 0): unknown[] {
  if (depth > 4) return scalars;
  const def = schema._zod.def as core.$ZodTypeDef & Record<string, unknown>;
  const inner = (key: string) => hostileInputs(def[key] as core.$ZodType, depth + 1);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return inner("innerType");
    case "pipe":
      return [...inner("in"), ...inner("out")];
    case "union":
      return (def.options as core.$ZodType[]).flatMap((option) => hostileInputs(option, depth + 1));
    case "array":
      return [...scalars, Array(10_001).fill("x"), ...inner("element").map((element) => [element])];
    case "object": {
      const shape = def.shape as Record<string, core.$ZodType>;
      const literals = Object.fromEntries(
        Object.entries(shape).flatMap(([key, field]) => {
          const fieldDef = field._zod.def as core.$ZodTypeDef & { values?: unknown[] };
          return fieldDef.type === "literal" ? [[key, fieldDef.values?.[0]]] : [];
        }),
      );
      const perField = Object.entries(shape).flatMap(([key, field]) =>
        hostileInputs(field, depth + 1).map((value) => ({ ...literals, [key]: value })),
      );
      return [...scalars, literals, ...perField];
    }
    default:
      return scalars;
  }
}

function routeSchemas() {
  const schemas: { where: string; schema: core.$ZodType }[] = [];
  for (const group of Object.values(api)) {
    for (const endpoint of Object.values(group as Record<string, EndpointSpec>)) {
      for (const part of ["body", "query", "params"] as const) {
        const schema = endpoint[part];
        if (schema) schemas.push({ where: `${endpoint.method} ${endpoint.path} ${part}`, schema });
      }
    }
  }
  return schemas;
}

const englishWords =
  /\b(expected|invalid|received|must|input|string|number|boolean|array|object|too|big|small|required|option|pattern|characters?|items?|match|value|unrecognized|nan)\b/i;
/** A regex (or a piece of one) shown as it is written in the code. */
const regexSource = /\/\^|\$\/|\\[dwsb]|\[[a-z0-9]-[a-z0-9]/i;

describe("validation messages of every route", () => {
  it("are Spanish sentences, never zod's English nor a regex, whatever a client sends", async () => {
    const schemas = routeSchemas();
    expect(schemas.length).toBeGreaterThan(40);
    const seen = new Map<string, string>();
    const codes = new Set<string>();
    for (const { where, schema } of schemas) {
      for (const input of hostileInputs(schema)) {
        const parsed = await (
          schema as unknown as { safeParseAsync(value: unknown): Promise<core.util.SafeParseResult<unknown>> }
        ).safeParseAsync(input);
        for (const issue of parsed.error?.issues ?? []) {
          codes.add(issue.code);
          seen.set(issue.message, `${where} ${issue.path.join(".")} (${issue.code})`);
        }
      }
    }
    const offending = [...seen].filter(([message]) => englishWords.test(message) || regexSource.test(message));
    expect(offending).toEqual([]);
    expect([...codes].sort()).toEqual(
      expect.arrayContaining([
        "invalid_format",
        "invalid_type",
        "invalid_union",
        "invalid_value",
        "too_big",
        "too_small",
      ]),
    );
    expect([...seen.keys()]).toEqual(
      expect.arrayContaining([
        "Este campo es obligatorio",
        "Debe ser un número",
        "Debe tener como máximo 200 caracteres",
        "El formato no es válido",
        messages.passwordTooLong,
      ]),
    );
  });
});

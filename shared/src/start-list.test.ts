import { describe, expect, it } from "vitest";
import { nearestListedBibs, splitByStartList } from "./start-list";
import { decodeCsvBytes, parseStartListCsv, startListLimits } from "./start-list-csv";

const listed = new Set(["1234", "1235", "234", "12345", "M10380", "7"]);

describe("nearestListedBibs", () => {
  it("finds the listed bibs one character changed, missing or extra away, shortest first", () => {
    expect(nearestListedBibs("1284", listed)).toEqual(["1234"]);
    expect(nearestListedBibs("1236", listed)).toEqual(["1234", "1235"]);
    // A digit missing from the read: 1234 lost its 4, 234 its 1.
    expect(nearestListedBibs("123", listed)).toEqual(["1234", "1235"]);
    // A digit extra in the read: 12334 and 1234 differ by one, so do 12345 and 1234.
    expect(nearestListedBibs("12334", listed)).toEqual(["1234"]);
    expect(nearestListedBibs("2345", listed)).toEqual(["234", "12345"]);
  });

  it("works for letter bibs and ignores the read's case and leading zeros", () => {
    expect(nearestListedBibs("10380", listed)).toEqual(["M10380"]);
    expect(nearestListedBibs("n10380", listed)).toEqual(["M10380"]);
    expect(nearestListedBibs("01284", listed)).toEqual(["1234"]);
  });

  it("never returns the read itself, and nothing when no listed bib is that close", () => {
    expect(nearestListedBibs("1234", listed)).toEqual(["234", "1235", "12345"]);
    expect(nearestListedBibs("9876", listed)).toEqual([]);
    expect(nearestListedBibs("1234", new Set())).toEqual([]);
  });
});

describe("splitByStartList", () => {
  it("publishes everything without a list", () => {
    expect(splitByStartList(["1284", "55"], undefined)).toEqual({ published: ["1284", "55"], suggestions: [] });
    expect(splitByStartList(["1284"], new Set())).toEqual({ published: ["1284"], suggestions: [] });
  });

  it("publishes listed reads and turns the others into suggestions with their nearest listed bibs", () => {
    expect(splitByStartList(["1234", "1284", "9876", "m10380"], listed)).toEqual({
      published: ["1234", "m10380"],
      suggestions: [
        { number: "1284", nearest: ["1234"] },
        { number: "9876", nearest: [] },
      ],
    });
  });
});

describe("parseStartListCsv", () => {
  it("reads Spanish headers in any case and accents, ';' separated, with a BOM and quoted fields", () => {
    const csv =
      '\uFEFFDORSAL;Nombre;Correo Electrónico;CATEGORIA\r\n0101;"Gómez; Ana";ana@example.com;F30\r\n102;Luis Pérez;;\r\n';
    expect(parseStartListCsv(csv)).toEqual({
      rows: [
        { line: 2, bib: "101", name: "Gómez; Ana", email: "ana@example.com", category: "F30" },
        { line: 3, bib: "102", name: "Luis Pérez", email: null, category: null },
      ],
      errors: [],
    });
  });

  it("reads ',' separated files with English or other Spanish headers, quotes escaped and line breaks in quotes", () => {
    const csv =
      'número,nombres,apellidos,email\n7,"Ana ""La Flaca""",Ruiz,\n"8","María\nJosé",Díaz,mj@example.co\n\n9,Juan,Soto,\n';
    const parsed = parseStartListCsv(csv);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows.map(({ line, bib, name }) => ({ line, bib, name }))).toEqual([
      { line: 2, bib: "7", name: 'Ana "La Flaca" Ruiz' },
      { line: 3, bib: "8", name: "María\nJosé Díaz" },
      { line: 6, bib: "9", name: "Juan Soto" },
    ]);
  });

  it("reports each bad line in Spanish and keeps only valid rows", () => {
    const csv = [
      "dorsal;nombre;correo",
      "1;Ana;ana@example.com",
      ";Sin dorsal;",
      "2;;",
      "3;Luis;no-es-correo",
      "1;Otra Ana;",
      "12-34;Guion;",
      "12345678901;Largo;",
      "4;Bien;",
    ].join("\n");
    const parsed = parseStartListCsv(csv);
    expect(parsed.rows.map((row) => row.bib)).toEqual(["1", "4"]);
    expect(parsed.errors).toEqual([
      { line: 3, message: "Línea 3: falta el dorsal" },
      { line: 4, message: "Línea 4: falta el nombre" },
      { line: 5, message: "Línea 5: el correo «no-es-correo» no es válido" },
      { line: 6, message: "Línea 6: el dorsal 1 está repetido (ya está en la línea 2)" },
      { line: 7, message: "Línea 7: el dorsal «12-34» no es válido: usa solo números y letras" },
      { line: 8, message: "Línea 8: el dorsal «12345678901» es demasiado largo (máximo 10 caracteres)" },
    ]);
  });

  it("says which required column is missing, and when the file is empty or too long", () => {
    expect(parseStartListCsv("nombre,email\nAna,a@b.co").errors[0]?.message).toMatch(
      /^Línea 1: falta la columna la del dorsal/,
    );
    expect(parseStartListCsv("\uFEFF\r\n").errors).toEqual([{ line: null, message: "El archivo está vacío" }]);
    const tooMany = [
      "dorsal,nombre",
      ...Array.from({ length: startListLimits.maxParticipants + 1 }, (_, i) => `${i + 1},N`),
    ];
    expect(parseStartListCsv(tooMany.join("\n")).errors[0]?.line).toBeNull();
  });
});

describe("decodeCsvBytes", () => {
  it("reads UTF-8 (its BOM dropped), and falls back to Windows-1252 as Excel saves plain CSV on Spanish Windows", () => {
    expect(decodeCsvBytes(new TextEncoder().encode("\uFEFFdorsal;categoría"))).toBe("dorsal;categoría");
    expect(decodeCsvBytes(Uint8Array.from([0x63, 0x61, 0x74, 0x65, 0x67, 0x6f, 0x72, 0xed, 0x61]))).toBe("categoría");
  });
});

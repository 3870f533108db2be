import { normaliseBib } from "./bib-format";

/**
 * Reading an organizer's start list: a CSV with the bib, the name and optionally the email and
 * category of each participant, as registration platforms and Excel export it (Excel in es-CO
 * separates with ';' and may save in Windows-1252 instead of UTF-8).
 */

export const startListLimits = {
  /** The file: ~40,000 participants with email and category fit in it. */
  maxBytes: 3 * 1024 * 1024,
  maxParticipants: 40_000,
  maxBibLength: 10,
  maxNameLength: 200,
  maxEmailLength: 254,
  maxCategoryLength: 100,
  /** Errors reported back at most; the rest are counted. */
  maxReportedErrors: 100,
} as const;

export interface StartListRow {
  /** The file's line the row starts on (the header is line 1). */
  line: number;
  /** In canonical form (see normaliseBib). */
  bib: string;
  name: string;
  email: string | null;
  category: string | null;
}

export interface StartListError {
  /** null for a problem of the whole file (no header, too many rows). */
  line: number | null;
  message: string;
}

export interface StartListParse {
  rows: StartListRow[];
  errors: StartListError[];
}

/**
 * The file's text: UTF-8 (with or without BOM) when it is valid UTF-8, else Windows-1252, which is
 * what Excel's plain 'CSV (delimitado por comas)' writes on Spanish Windows.
 */
export function decodeCsvBytes(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

type Column = "bib" | "name" | "surname" | "email" | "category";

/** Header spellings, compared without accents, case, punctuation or extra spaces. */
const headerAliases: Record<Column, readonly string[]> = {
  bib: ["dorsal", "numero", "numero de dorsal", "numero dorsal", "no dorsal", "nro", "nro dorsal", "bib"],
  name: ["nombre", "nombres", "nombre completo", "participante", "corredor", "atleta", "name", "full name"],
  surname: ["apellido", "apellidos", "last name", "surname"],
  email: ["email", "correo", "correo electronico", "e mail", "mail"],
  category: ["categoria", "category"],
};

const normalizeHeader = (header: string) =>
  header
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

const columnOf = (header: string): Column | undefined => {
  const normalized = normalizeHeader(header);
  return (Object.keys(headerAliases) as Column[]).find((column) => headerAliases[column].includes(normalized));
};

/** The separator the header line uses most, outside quotes: ';' (Excel es-CO), ',' or tab. */
function detectDelimiter(text: string): string {
  const firstLine = text.split(/\r\n|\n|\r/, 1)[0] ?? "";
  const unquoted = firstLine.replace(/"[^"]*"/g, "");
  const counts = [";", ",", "\t"].map((delimiter) => ({ delimiter, count: unquoted.split(delimiter).length - 1 }));
  const best = counts.reduce((a, b) => (b.count > a.count ? b : a));
  return best.count > 0 ? best.delimiter : ",";
}

/** RFC 4180 records (quoted fields may hold separators, quotes as "" and line breaks), with the line each starts on. */
function readRecords(text: string, delimiter: string): { line: number; cells: string[] }[] {
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endCell = () => {
    cells.push(cell);
    cell = "";
  };
  const endRecord = () => {
    endCell();
    records.push({ line: recordLine, cells });
    cells = [];
  };
  for (let i = 0; i < text.length; i++) {
    const character = text[i] as string;
    if (quoted) {
      if (character === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (character === '"') {
        quoted = false;
      } else {
        if (character === "\n" || (character === "\r" && text[i + 1] !== "\n")) line++;
        cell += character;
      }
    } else if (character === '"' && cell.trim() === "") {
      cell = "";
      quoted = true;
    } else if (character === delimiter) {
      endCell();
    } else if (character === "\n" || character === "\r") {
      if (character === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      cell += character;
    }
  }
  if (cell !== "" || cells.length > 0) endRecord();
  return records;
}

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const bibShape = /^[A-Z0-9]+$/;

/**
 * Parses a start list. Every problem is reported with its line, in Spanish, so the organizer can
 * fix the file; rows are returned only when they are valid.
 */
export function parseStartListCsv(content: string): StartListParse {
  const text = content.replace(/^\uFEFF/, "");
  const delimiter = detectDelimiter(text);
  const records = readRecords(text, delimiter).filter((record) => record.cells.some((cell) => cell.trim() !== ""));
  const header = records.shift();
  if (!header) return { rows: [], errors: [{ line: null, message: "El archivo está vacío" }] };

  const columns = new Map<Column, number>();
  header.cells.forEach((cell, index) => {
    const column = columnOf(cell);
    if (column && !columns.has(column)) columns.set(column, index);
  });
  const missing = [
    columns.has("bib") ? null : "la del dorsal («dorsal» o «número»)",
    columns.has("name") ? null : "la del nombre («nombre»)",
  ].filter((text): text is string => text !== null);
  if (missing.length > 0) {
    return {
      rows: [],
      errors: [
        {
          line: header.line,
          message: `Línea ${header.line}: falta la columna ${missing.join(" y ")}. La primera línea debe tener los encabezados, por ejemplo: dorsal;nombre;correo;categoría`,
        },
      ],
    };
  }
  if (records.length > startListLimits.maxParticipants) {
    return {
      rows: [],
      errors: [
        {
          line: null,
          message: `La lista tiene ${records.length} participantes; el máximo es ${startListLimits.maxParticipants}`,
        },
      ],
    };
  }

  const cellOf = (cells: string[], column: Column) => {
    const index = columns.get(column);
    return index === undefined ? "" : (cells[index] ?? "").trim();
  };
  const rows: StartListRow[] = [];
  const errors: StartListError[] = [];
  const lineOfBib = new Map<string, number>();
  for (const { line, cells } of records) {
    const fail = (problem: string) => errors.push({ line, message: `Línea ${line}: ${problem}` });
    const typedBib = cellOf(cells, "bib");
    const bib = normaliseBib(typedBib);
    const name = [cellOf(cells, "name"), cellOf(cells, "surname")].filter(Boolean).join(" ");
    const email = cellOf(cells, "email");
    const category = cellOf(cells, "category");
    const problems = errors.length;
    if (typedBib === "") fail("falta el dorsal");
    else if (!bibShape.test(bib)) fail(`el dorsal «${typedBib}» no es válido: usa solo números y letras`);
    else if (bib.length > startListLimits.maxBibLength)
      fail(`el dorsal «${typedBib}» es demasiado largo (máximo ${startListLimits.maxBibLength} caracteres)`);
    else if (lineOfBib.has(bib)) fail(`el dorsal ${bib} está repetido (ya está en la línea ${lineOfBib.get(bib)})`);
    if (name === "") fail("falta el nombre");
    else if (name.length > startListLimits.maxNameLength)
      fail(`el nombre es demasiado largo (máximo ${startListLimits.maxNameLength} caracteres)`);
    if (email !== "" && (email.length > startListLimits.maxEmailLength || !emailShape.test(email)))
      fail(`el correo «${email}» no es válido`);
    if (category.length > startListLimits.maxCategoryLength)
      fail(`la categoría es demasiado larga (máximo ${startListLimits.maxCategoryLength} caracteres)`);
    if (bibShape.test(bib) && !lineOfBib.has(bib)) lineOfBib.set(bib, line);
    if (errors.length === problems) rows.push({ line, bib, name, email: email || null, category: category || null });
  }
  return { rows, errors };
}

import { type core, z } from "zod";
import { messages } from "./messages";

/**
 * zod's own messages are English and name internal types and regexes ("Invalid input: expected
 * number, received NaN", "must match pattern /^…$/"). This map says every issue in Spanish, limits
 * in words, and is installed once for the whole repo (server and browser both import this package).
 * A message a schema sets itself still wins: zod consults this map only when there is none.
 */
const amount = (value: number | bigint) => new Intl.NumberFormat("es-CO").format(value);
const counted = (value: number | bigint, one: string, many: string) => `${amount(value)} ${value === 1 ? one : many}`;

/** What a size limit counts, by the kind of value zod reports. */
const units: Record<string, [one: string, many: string]> = {
  string: ["carácter", "caracteres"],
  array: ["elemento", "elementos"],
  set: ["elemento", "elementos"],
  file: ["byte", "bytes"],
};

const typeSentences: Record<string, string> = {
  string: "Debe ser un texto",
  number: "Debe ser un número",
  int: "Debe ser un número entero",
  bigint: "Debe ser un número entero",
  boolean: "Debe ser verdadero o falso",
  array: "Debe ser una lista",
  tuple: "Debe ser una lista",
  set: "Debe ser una lista",
  object: "Debe ser un conjunto de campos",
  record: "Debe ser un conjunto de campos",
  map: "Debe ser un conjunto de campos",
  date: "Debe ser una fecha",
  nonoptional: "Este campo es obligatorio",
  never: "Este campo no está permitido",
};

const formatSentences: Record<string, string> = {
  email: "El correo electrónico no es válido",
  url: "La dirección web no es válida",
  date: "La fecha no es válida (formato AAAA-MM-DD)",
  datetime: "La fecha y hora no son válidas",
  time: "La hora no es válida",
  duration: "La duración no es válida",
  jwt: "El token no es válido",
  e164: "El número de teléfono no es válido",
};

function tooBig(issue: core.$ZodRawIssue<core.$ZodIssueTooBig>): string {
  const unit = units[issue.origin];
  if (unit) {
    const size = counted(issue.maximum, ...unit);
    if (issue.exact) return `Debe tener exactamente ${size}`;
    return issue.inclusive === false ? `Debe tener menos de ${size}` : `Debe tener como máximo ${size}`;
  }
  if (issue.origin === "date") return "La fecha es posterior a la permitida";
  return issue.inclusive === false
    ? `Debe ser menor que ${amount(issue.maximum)}`
    : `Debe ser como máximo ${amount(issue.maximum)}`;
}

function tooSmall(issue: core.$ZodRawIssue<core.$ZodIssueTooSmall>): string {
  const unit = units[issue.origin];
  if (unit) {
    if (issue.origin === "string" && issue.minimum === 1 && !issue.exact) return "No puede estar vacío";
    const size = counted(issue.minimum, ...unit);
    if (issue.exact) return `Debe tener exactamente ${size}`;
    return issue.inclusive === false ? `Debe tener más de ${size}` : `Debe tener al menos ${size}`;
  }
  if (issue.origin === "date") return "La fecha es anterior a la permitida";
  return issue.inclusive === false
    ? `Debe ser mayor que ${amount(issue.minimum)}`
    : `Debe ser como mínimo ${amount(issue.minimum)}`;
}

export const spanishZodError: core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "Este campo es obligatorio";
      return typeSentences[issue.expected] ?? "El tipo de dato no es válido";
    case "too_big":
      return tooBig(issue);
    case "too_small":
      return tooSmall(issue);
    case "invalid_format":
      return formatSentences[issue.format] ?? "El formato no es válido";
    case "not_multiple_of":
      return `Debe ser múltiplo de ${amount(issue.divisor)}`;
    case "unrecognized_keys":
      return issue.keys.length === 1 ? "Contiene un campo no admitido" : "Contiene campos no admitidos";
    case "invalid_union":
      return issue.discriminator ? "Opción no válida" : "Los datos no corresponden a ninguna forma admitida";
    case "invalid_key":
      return "Contiene una clave no válida";
    case "invalid_element":
      return "Contiene un valor no válido";
    case "invalid_value":
      return issue.values.length === 1 ? "Valor no válido" : "Opción no válida";
    case "custom":
      return "Valor no válido";
    default:
      return messages.invalidRequest;
  }
};

z.config({ customError: spanishZodError });

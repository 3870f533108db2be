/**
 * What an event's bibs look like. `bibPattern` (event_configs) is a regular expression a whole read
 * must match, tested case-insensitively on the read as printed (`printedBib`); the digit count is the
 * event's minDigits/maxDigits. Organizers never type the expression: they pick a `BibFormat` and
 * the screen builds it with `bibPatternOf`; `bibFormatOf` reads it back.
 */

/** The default: digits only, as bibs always were. */
export const digitsOnlyPattern = "^\\d+$";
export const bibPatternMaxLength = 100;
/** A typed or searched bib: letters and digits, at least one digit (the longest pattern plus letters). */
export const bibTextMaxLength = 12;

/**
 * A read or a typed bib as printed, in capitals. A space, hyphen, dot or slash between a letter and
 * the number is print style too: "M 10380" and "M-10380" are M10380 (the text engines read the gap
 * of a bib printed "M 10380" as a space, and no separator can match a bib format). Between digits
 * nothing is joined: "12 34" is two numbers. Leading zeros stay (the leading-zero rule reads them).
 */
export function printedBib(text: string): string {
  return text
    .trim()
    .toUpperCase()
    .replace(
      /([A-Z])[\s./_-]+(?=\d)|(\d)[\s./_-]+(?=[A-Z])/g,
      (_, letter?: string, digit?: string) => letter ?? digit ?? "",
    );
}

/** Bibs are stored and searched as printed (`printedBib`); leading zeros are print style ("0891" is 891). */
export function normaliseBib(text: string): string {
  return printedBib(text).replace(/^0+(?=\d)/, "");
}

export const bibTextMessage = "El dorsal solo lleva letras y números, con al menos un número";

/** Whether a typed bib could be a bib of some event; the event's own format is judged elsewhere. */
export function isBibText(text: string): boolean {
  const bib = printedBib(text);
  return bib.length <= bibTextMaxLength && /^[A-Z0-9]+$/.test(bib) && /\d/.test(bib);
}

export function digitCount(text: string): number {
  return text.replace(/\D/g, "").length;
}

const compiled = new Map<string, RegExp>();

/** The event's pattern as a whole-read test; anchors are added so `[A-Z]\d+` cannot match inside a longer read. */
function wholeReadRegExp(pattern: string): RegExp {
  let regExp = compiled.get(pattern);
  if (!regExp) {
    regExp = new RegExp(`^(?:${pattern})$`, "i");
    compiled.set(pattern, regExp);
  }
  return regExp;
}

export function matchesBibPattern(read: string, pattern: string): boolean {
  return wholeReadRegExp(pattern).test(printedBib(read));
}

export const bibPatternMessages = {
  tooLong: `El formato de dorsal admite como máximo ${bibPatternMaxLength} caracteres`,
  invalid: "El formato de dorsal no es una expresión regular válida",
  matchesEmpty: "El formato de dorsal no puede aceptar una lectura vacía",
  nestedQuantifiers:
    "El formato de dorsal repite un grupo que ya se repite por dentro, como (\\d+)+; eso puede bloquear el reconocimiento",
} as const;

/**
 * Why a pattern cannot be an event's bib format, or `undefined` when it can. A repeated group that
 * itself contains a quantifier or an alternation ('(\d+)+', '(a|ab)*') can take exponential time to
 * reject a read, and every word of every photo is tested against it.
 */
export function bibPatternProblem(pattern: string): string | undefined {
  if (pattern.length > bibPatternMaxLength) return bibPatternMessages.tooLong;
  let regExp: RegExp;
  try {
    regExp = wholeReadRegExp(pattern);
  } catch {
    return bibPatternMessages.invalid;
  }
  if (regExp.test("")) return bibPatternMessages.matchesEmpty;
  if (hasRepeatedComplexGroup(pattern)) return bibPatternMessages.nestedQuantifiers;
  return undefined;
}

/** Length of the quantifier at `at` that repeats its atom more than once ('*', '+', '{2}', '{1,}'), or 0. */
function repeatingQuantifierAt(pattern: string, at: number): { length: number; repeats: boolean } {
  const char = pattern[at];
  if (char === "*" || char === "+") return { length: 1, repeats: true };
  if (char === "?") return { length: 1, repeats: false };
  if (char === "{") {
    const range = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
    if (!range) return { length: 0, repeats: false };
    const upper =
      range[2] === undefined ? Number(range[1]) : range[3] === "" ? Number.POSITIVE_INFINITY : Number(range[3]);
    return { length: range[0].length, repeats: upper > 1 };
  }
  return { length: 0, repeats: false };
}

/** Only called on patterns that compile, so escapes, classes and groups are well formed. */
function hasRepeatedComplexGroup(pattern: string): boolean {
  const groups: { complex: boolean }[] = [{ complex: false }];
  let at = 0;
  while (at < pattern.length) {
    const char = pattern[at];
    const current = groups[groups.length - 1] as { complex: boolean };
    if (char === "\\") {
      at += 2;
    } else if (char === "[") {
      at++;
      while (at < pattern.length && pattern[at] !== "]") at += pattern[at] === "\\" ? 2 : 1;
      at++;
    } else if (char === "(") {
      groups.push({ complex: false });
      at++;
      // '(?:', '(?=', '(?!', '(?<=', '(?<!', '(?<name>': the '?' opens the group, it quantifies nothing.
      if (pattern[at] === "?") {
        const named = /^\?<[A-Za-z_$][\w$]*>/.exec(pattern.slice(at));
        at += named ? named[0].length : pattern[at + 1] === "<" ? 3 : 2;
      }
    } else if (char === ")") {
      const closed = groups.pop() as { complex: boolean };
      at++;
      const quantifier = repeatingQuantifierAt(pattern, at);
      if (quantifier.repeats && closed.complex) return true;
      const parent = groups[groups.length - 1] as { complex: boolean };
      parent.complex ||= closed.complex || quantifier.length > 0;
      at += quantifier.length;
    } else if (char === "|") {
      current.complex = true;
      at++;
    } else {
      const quantifier = repeatingQuantifierAt(pattern, at);
      if (quantifier.length > 0) current.complex = true;
      at += Math.max(1, quantifier.length);
    }
  }
  return false;
}

/** Where the letter goes on the event's bibs. */
export type BibLetterPlacement = "none" | "before" | "after";

export interface BibFormat {
  placement: BibLetterPlacement;
  /** The letters the bibs may carry, in capitals ("M", "MF"); empty for any letter. Unused for "none". */
  letters: string;
}

export type BibDigits = { minDigits: number; maxDigits: number };

const anyLetter = "[A-Z]";

function letterClass(letters: string): string {
  if (letters === "") return anyLetter;
  return letters.length === 1 ? letters : `[${letters}]`;
}

/** Keeps only distinct capital letters: what the letter field can hold. */
export function cleanLetters(typed: string): string {
  return [...new Set(typed.toUpperCase().replace(/[^A-Z]/g, ""))].join("");
}

export function bibPatternOf(format: BibFormat): string {
  const letters = letterClass(cleanLetters(format.letters));
  if (format.placement === "before") return `^${letters}\\d+$`;
  if (format.placement === "after") return `^\\d+${letters}$`;
  return digitsOnlyPattern;
}

const letterPart = "(\\[A-Z\\]|\\[a-z\\]|[A-Za-z]|\\[[A-Za-z]{2,26}\\])";
const digitsPart = "\\\\d(\\+|\\{\\d+\\}|\\{\\d+,\\d+\\})";
const formatShape = new RegExp(`^\\^?(?:${letterPart})?${digitsPart}(?:${letterPart})?\\$?$`);

/**
 * The choices a pattern came from, or `null` when the choices cannot express it (the screen then
 * shows it as a custom format). A digit count written in the pattern is expressible only when it is
 * the event's own.
 */
export function bibFormatOf(pattern: string, digits: BibDigits): BibFormat | null {
  const shape = formatShape.exec(pattern);
  if (!shape) return null;
  const [, before, count, after] = shape;
  if (before && after) return null;
  if (count !== "+") {
    const [min, max = min] = (count as string).slice(1, -1).split(",").map(Number);
    if (min !== digits.minDigits || max !== digits.maxDigits) return null;
  }
  const letter = before ?? after;
  if (letter === undefined) return { placement: "none", letters: "" };
  const placement = before ? "before" : "after";
  if (/^\[A-Z\]$/i.test(letter)) return { placement, letters: "" };
  const letters = cleanLetters(letter);
  // '[MM]' says no more than 'M', but rewriting it would change what the organizer stored.
  if (letters.length !== letter.replace(/[[\]]/g, "").length) return null;
  return { placement, letters };
}

/** Digits of a plausible bib, as many as the event's longest. */
const sampleDigits = "1038047291";

export function bibExample(format: BibFormat, digits: BibDigits): string {
  const number = sampleDigits.slice(0, Math.max(1, digits.maxDigits));
  const letter = cleanLetters(format.letters)[0] ?? (format.placement === "after" ? "A" : "M");
  if (format.placement === "before") return `${letter}${number}`;
  if (format.placement === "after") return `${number}${letter}`;
  return number;
}

function digitsPhrase({ minDigits, maxDigits }: BibDigits): string {
  if (minDigits === maxDigits) return `${minDigits} ${minDigits === 1 ? "dígito" : "dígitos"}`;
  return `de ${minDigits} a ${maxDigits} dígitos`;
}

function letterPhrase(letters: string): string {
  if (letters === "") return "una letra";
  if (letters.length === 1) return `la letra ${letters}`;
  return `una letra (${[...letters].slice(0, -1).join(", ")} o ${letters.slice(-1)})`;
}

/** "una letra y 5 dígitos": what the event's bibs look like, for the organizer's screen and messages. */
export function describeBibFormat(format: BibFormat, digits: BibDigits): string {
  const letters = cleanLetters(format.letters);
  if (format.placement === "before") return `${letterPhrase(letters)} y ${digitsPhrase(digits)}`;
  if (format.placement === "after") return `${digitsPhrase(digits)} y ${letterPhrase(letters)}`;
  return `solo números, ${digitsPhrase(digits)}`;
}

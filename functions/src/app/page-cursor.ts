import type { PageCursor } from "../data/photos";
import { invalid } from "./errors";

/** A table page's position as the opaque string the API hands out (base64url of its key). */
export const encodeCursor = (cursor: PageCursor | undefined): string | null =>
  cursor ? Buffer.from(JSON.stringify(cursor)).toString("base64url") : null;

/** The table position of a cursor the API handed out; a tampered one is a 400, not a crash. */
export function decodeCursor(cursor: string | undefined): PageCursor | undefined {
  if (!cursor) return undefined;
  try {
    return JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as PageCursor;
  } catch {
    throw invalid("Cursor de paginación inválido");
  }
}

import { messages } from "@dorsal/shared";
import { z } from "zod";
import type { PageCursor } from "../data/photos";
import { tableSchema } from "../data/table-schema";
import { invalid } from "./errors";

/** What the table hands back as a page's position: its key, string attributes only. */
const cursorShape = z.strictObject({
  [tableSchema.partitionKey]: z.string(),
  [tableSchema.sortKey]: z.string(),
  ...Object.fromEntries(
    tableSchema.globalIndexes
      .flatMap((index) => [index.partitionKey, index.sortKey])
      .map((name) => [name, z.string().optional()]),
  ),
});

/** A table page's position as the opaque string the API hands out (base64url of its key). */
export const encodeCursor = (cursor: PageCursor | undefined): string | null =>
  cursor ? Buffer.from(JSON.stringify(cursor)).toString("base64url") : null;

/**
 * The table position of a cursor the API handed out; a tampered one is a 400, not a crash. A
 * well-formed key the table still refuses (another query's, say) is the adapter's InvalidCursorError.
 */
export function decodeCursor(cursor: string | undefined): PageCursor | undefined {
  if (!cursor) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid(messages.invalidCursor);
  }
  const key = cursorShape.safeParse(json);
  if (!key.success) throw invalid(messages.invalidCursor);
  return key.data;
}

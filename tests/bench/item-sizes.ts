/**
 * What the table stores per photo, and what each index holds of it (issue 24 item 3):
 *
 *   npm run bench:items -- [--photos 2000] [--bibs 400] [--sales 100] [--users 200]
 *
 * Seeds one event as bench:scale does (tests/bench/seed-event.ts: the project's repositories, with
 * each processed photo's text item; one photo in 20 without a bib, one in 200 failed, every fourth
 * with two bibs), then reads dynalite's files directly: every item and every index entry, sized by
 * DynamoDB's rules (attribute names + values; an index entry also pays 100 bytes of overhead in
 * storage). dynalite stores in an index only what its projection names, as DynamoDB does, so the
 * figures follow the table definition in functions/src/data/table-schema.ts.
 *
 * Prints one table per item type and, from the average sizes, the read units (eventually consistent,
 * as every index read is) of the pages whose queries go through the indexes.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Level } from "level";
import { createEventRepository } from "../../functions/src/data/events";
import { activeEvent } from "../support/in-process";
import { benchTableName, seedEventPhotos, seedSales, seedUsers, withBenchTable } from "./seed-event";

const { values } = parseArgs({
  options: {
    photos: { type: "string", default: "2000" },
    bibs: { type: "string", default: "400" },
    sales: { type: "string", default: "100" },
    users: { type: "string", default: "200" },
  },
});
const [photoCount, bibCount, saleCount, userCount] = [values.photos, values.bibs, values.sales, values.users].map(
  Number,
);
if (![photoCount, bibCount, saleCount, userCount].every((n) => Number.isInteger(n) && (n ?? 0) > 0)) {
  throw new Error("every option is a positive integer");
}

type AttributeValue = { [type: string]: unknown };
type StoredItem = Record<string, AttributeValue>;
interface StoredIndex {
  IndexName: string;
  Projection: { ProjectionType: string; NonKeyAttributes?: string[] };
}

const utf8 = (text: string) => Buffer.byteLength(text, "utf8");

/** DynamoDB's number size: one byte per two significant digits, plus one. */
function numberSize(text: string): number {
  const digits = text.replace(/^-/, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "");
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

function valueSize(value: AttributeValue): number {
  const [type, content] = Object.entries(value)[0] as [string, unknown];
  switch (type) {
    case "S":
      return utf8(content as string);
    case "N":
      return numberSize(content as string);
    case "B":
      return Buffer.from(content as string, "base64").length;
    case "BOOL":
    case "NULL":
      return 1;
    case "SS":
      return (content as string[]).reduce((total, text) => total + utf8(text), 0);
    case "NS":
      return (content as string[]).reduce((total, text) => total + numberSize(text), 0);
    case "L":
      return 3 + (content as AttributeValue[]).reduce((total, element) => total + valueSize(element) + 1, 0);
    case "M":
      return (
        3 + Object.entries(content as StoredItem).reduce((total, [name, v]) => total + utf8(name) + valueSize(v) + 1, 0)
      );
    default:
      throw new Error(`unknown attribute type ${type}`);
  }
}

const itemSize = (item: StoredItem) =>
  Object.entries(item).reduce((total, [name, value]) => total + utf8(name) + valueSize(value), 0);

const indexOverhead = 100;
const prefixRange = (prefix: string) => ({ gte: prefix, lt: `${prefix}\uffff` });
const keyOf = (item: StoredItem) => `${item.pk?.S}\u0000${item.sk?.S}`;

const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-bench-items-"));
try {
  const eventId = 1;
  await withBenchTable(dataDir, async (table) => {
    const events = createEventRepository(table);
    await events.nextId();
    await events.create(activeEvent(eventId, `Maratón de ${photoCount} fotos`));
    const seeded = await seedEventPhotos(table, {
      eventId,
      photos: photoCount as number,
      bibs: bibCount as number,
      unbibbedEvery: 20,
      failedEvery: 200,
      text: true,
      raceStart: new Date(Date.now() - (photoCount as number) * 1500),
    });
    await seedSales(table, eventId, saleCount as number, bibCount as number);
    await seedUsers(table, userCount as number);
    console.log(
      `${photoCount} photos (${seeded.unbibbed} without bib, ${seeded.failed} failed), ${seeded.links} bib links, ` +
        `${bibCount} bibs, ${saleCount} paid sales, ${userCount} athletes`,
    );
  });

  const db = new Level<string, unknown>(path.join(dataDir, "dynamodb"), { valueEncoding: "json" });
  await db.open();
  try {
    const definition = (await db.get(`table~${benchTableName}`)) as { GlobalSecondaryIndexes?: StoredIndex[] };
    const indexes = definition.GlobalSecondaryIndexes ?? [];
    // A type per item: its `type` attribute (every repository writes one), else its sort key's prefix.
    const typeOf = new Map<string, string>();
    const rows = new Map<
      string,
      { count: number; base: number; indexed: Map<string, { count: number; bytes: number }> }
    >();
    const row = (type: string) => {
      let found = rows.get(type);
      if (!found) {
        found = { count: 0, base: 0, indexed: new Map() };
        rows.set(type, found);
      }
      return found;
    };
    for await (const value of db.values(prefixRange(`item-${benchTableName}~`))) {
      const item = value as StoredItem;
      const type = (item.type?.S as string | undefined) ?? String(item.sk?.S).split("#")[0] ?? "?";
      typeOf.set(keyOf(item), type);
      const entry = row(type);
      entry.count++;
      entry.base += itemSize(item);
    }
    for (const index of indexes) {
      for await (const value of db.values(prefixRange(`index-global~${benchTableName}~${index.IndexName}~`))) {
        const piece = value as StoredItem;
        const entry = row(typeOf.get(keyOf(piece)) ?? "?");
        const held = entry.indexed.get(index.IndexName) ?? { count: 0, bytes: 0 };
        held.count++;
        held.bytes += itemSize(piece);
        entry.indexed.set(index.IndexName, held);
      }
    }

    const names = indexes.map((index) => index.IndexName);
    console.log(
      `\nindexes: ${indexes
        .map(
          (index) =>
            `${index.IndexName} ${index.Projection.ProjectionType}${index.Projection.NonKeyAttributes ? ` (${index.Projection.NonKeyAttributes.join(", ")})` : ""}`,
        )
        .join("; ")}`,
    );
    console.log(
      `\n${"item type".padEnd(22)} ${"items".padStart(7)} ${"base B/item".padStart(12)} ` +
        names.map((name) => `${`${name} entries`.padStart(16)} ${`${name} B/entry`.padStart(16)}`).join(" ") +
        `   (B/entry without the ${indexOverhead} B overhead)`,
    );
    const average = (bytes: number, count: number) => (count === 0 ? 0 : Math.round(bytes / count));
    const sorted = [...rows.entries()].sort(([, a], [, b]) => b.base - a.base);
    for (const [type, entry] of sorted) {
      console.log(
        `${type.padEnd(22)} ${String(entry.count).padStart(7)} ${String(average(entry.base, entry.count)).padStart(12)} ` +
          names
            .map((name) => {
              const held = entry.indexed.get(name) ?? { count: 0, bytes: 0 };
              return `${String(held.count).padStart(16)} ${String(average(held.bytes, held.count)).padStart(16)}`;
            })
            .join(" "),
      );
    }

    // Per photo: everything the pipeline stores for it (the photo, its text, its bib links, the
    // participants they count in), base and indexes, storage overhead included.
    const photoTypes = ["photo", "photoText", "bibPhoto", "participant"];
    let perPhotoBase = 0;
    const perPhotoIndex = new Map(names.map((name) => [name, 0]));
    for (const type of photoTypes) {
      const entry = rows.get(type);
      if (!entry) continue;
      perPhotoBase += entry.base + entry.count * indexOverhead;
      for (const name of names) {
        const held = entry.indexed.get(name);
        if (held) perPhotoIndex.set(name, (perPhotoIndex.get(name) ?? 0) + held.bytes + held.count * indexOverhead);
      }
    }
    const photos = photoCount as number;
    const indexTotal = [...perPhotoIndex.values()].reduce((total, bytes) => total + bytes, 0);
    console.log(
      `\nstored per photo (photo + text + links + participants, 100 B overhead per item or entry): ` +
        `base ${Math.round(perPhotoBase / photos)} B, ` +
        names.map((name) => `${name} ${Math.round((perPhotoIndex.get(name) ?? 0) / photos)} B`).join(", ") +
        `, total ${Math.round((perPhotoBase + indexTotal) / photos)} B`,
    );

    // Read units: a query pays for the entries it reads, summed, in 4 KB units; a batch get pays
    // 4 KB units per item; eventually consistent halves both.
    const entryBytes = (type: string, index: string) => {
      const held = rows.get(type)?.indexed.get(index);
      return held ? held.bytes / held.count : 0;
    };
    const baseBytes = (type: string) => {
      const entry = rows.get(type);
      return entry ? entry.base / entry.count : 0;
    };
    const queryUnits = (bytes: number) => Math.ceil(bytes / 4096) / 2;
    const getUnits = (bytes: number, count: number) => (Math.ceil(bytes / 4096) * count) / 2;
    const indexOfKeys = (keys: string) => indexes.find((index) => index.IndexName.startsWith(keys));
    const pages: { name: string; type: string; keys: string; count: number; getsAll: boolean }[] = [
      { name: "event's photos page (48)", type: "photo", keys: "gsi1", count: 48, getsAll: true },
      { name: "recount page (200)", type: "photo", keys: "gsi1", count: 200, getsAll: false },
      { name: "failed list (25)", type: "photo", keys: "gsi2", count: 25, getsAll: false },
      { name: "users page (50)", type: "user", keys: "gsi1", count: 50, getsAll: true },
      { name: "an event's sales (200)", type: "sale", keys: "gsi1", count: 200, getsAll: true },
    ];
    console.log(
      `\n${"page".padEnd(28)} ${"index".padEnd(8)} ${"query RCU".padStart(10)} ${"batch get RCU".padStart(14)} ${"total".padStart(7)}`,
    );
    for (const page of pages) {
      const index = indexOfKeys(page.keys);
      if (!index) continue;
      const all = index.Projection.ProjectionType === "ALL";
      const query = queryUnits(entryBytes(page.type, index.IndexName) * page.count);
      // An index that does not project everything is followed by a batch get where the page needs the whole item.
      const batch = !all && page.getsAll ? getUnits(baseBytes(page.type), page.count) : 0;
      console.log(
        `${page.name.padEnd(28)} ${index.IndexName.padEnd(8)} ${String(query).padStart(10)} ${String(batch).padStart(14)} ${String(query + batch).padStart(7)}`,
      );
    }
  } finally {
    await db.close();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}

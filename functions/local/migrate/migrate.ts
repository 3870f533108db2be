import { createHash } from "node:crypto";
import { GetItemCommand, ResourceNotFoundException, ScanCommand } from "@aws-sdk/client-dynamodb";
import { downloadZipPrefix } from "../../src/app/storage-paths";
import type { BucketRole } from "../../src/ports/object-store";
import { stoppedCleanly } from "../clean-stop";
import { lockDataDir } from "../data-dir-lock";
import { type Checkpoint, type ItemsProgress, openCheckpoint } from "./checkpoint";
import { getItems, type Item, itemHash, keyOf, keyText, kindOf, putItems, scanPage, skipReason } from "./items";
import { copyObject, headObject, type ListedObject, listObjects, objectHash } from "./objects";
import { missingIndexes, openLocalSource, openTarget, type Store, type TargetSpec } from "./stores";

export interface MigrationOptions {
  /** A stopped local runtime's DATA_DIR. */
  dataDir: string;
  /** The table and bucket names that runtime used (its TABLE_NAME, ORIGINALS_BUCKET, DERIVED_BUCKET). */
  source: { tableName: string; buckets: Record<BucketRole, string> };
  target: TargetSpec;
  onProgress?: (phase: "copia" | "verificación", done: number, total: number, detail: string) => void;
  /** Stops the run between two steps, as a kill would (the checkpoint keeps what was done). */
  signal?: AbortSignal;
  /** Objects larger than this go up in parts of this size (S3 takes parts of 5 MiB and more). */
  partBytes?: number;
  /** Objects copied or verified at once. */
  concurrency?: number;
}

export interface MigrationReport {
  ok: boolean;
  resumed: boolean;
  checkpointFile: string;
  items: {
    /** Per kind of item (`EVENT/BIB`…): how many the source has to copy, and how many the target holds the same. */
    kinds: Record<string, { source: number; same: number }>;
    /** Written and found already the same by this run. */
    written: number;
    unchanged: number;
    /** Left behind on purpose, by reason (items.ts `skipReason`). */
    skipped: Record<string, number>;
    mismatches: string[];
  };
  objects: {
    buckets: Record<BucketRole, { source: number; same: number; bytes: number }>;
    /** Copied and found already the same by this run. */
    copied: number;
    unchanged: number;
    /** Download ZIPs: made again on demand, removed after a day or two anyway. */
    skippedDownloadZips: number;
    mismatches: string[];
  };
}

/** Why a migration does not start, or stopped when asked to: said to the operator as it is, exit code 2. */
export class MigrationRefused extends Error {
  override name = "MigrationRefused";
}

const roles: BucketRole[] = ["originals", "derived"];
const scanPageSize = 100;
const maxListedMismatches = 20;

/**
 * `npm run migrate`: copies a stopped local runtime's table items and stored objects to a deployed
 * stack (or any endpoints speaking DynamoDB and S3), then verifies by counts and hashes.
 * 1. takes the data dir (no runtime may start on it meanwhile) and checks the last stop was clean;
 * 2. checks the target's indexes, and that a fresh migration does not land on a table in use;
 * 3. copies the items a page at a time, writing only those the target lacks or holds different;
 * 4. copies the objects, skipping those the checkpoint or the target's own bytes show are there;
 * 5. verifies every item's and object's hash at the target, and reports.
 * Steps 3 and 4 append to the checkpoint as they go: a run stopped anywhere goes on from there.
 */
export async function migrate(options: MigrationOptions): Promise<MigrationReport> {
  const release = await lockDataDir(options.dataDir, "migration");
  const stores: Store[] = [];
  try {
    if (!(await stoppedCleanly(options.dataDir))) {
      throw new MigrationRefused(
        `Dorsal no se detuvo limpiamente en ${options.dataDir} (o nunca arrancó allí): arráncalo con npm start ` +
          "y detenlo con Ctrl-C, que deja los contadores exactos, y vuelve a migrar.",
      );
    }
    const source = await openLocalSource(options.dataDir, options.source);
    stores.push(source);
    const target = await openTarget(options.target);
    stores.push(target);
    await checkTarget(target);
    const checkpoint = await openCheckpoint(options.dataDir, targetId(target));
    if (!checkpoint.resumed && (await holdsEvents(target))) {
      throw new MigrationRefused(
        `La tabla ${target.tableName} ya tiene eventos. Migra a un despliegue recién creado (docs/deploy.md), ` +
          "o continúa una migración desde la misma carpeta de datos.",
      );
    }
    return await run(source, target, checkpoint, options);
  } finally {
    for (const store of stores.reverse()) await store.close();
    await release();
  }
}

async function checkTarget(target: Store): Promise<void> {
  let missing: string[];
  try {
    missing = await missingIndexes(target);
  } catch (error) {
    if (error instanceof ResourceNotFoundException) {
      throw new MigrationRefused(`No existe la tabla ${target.tableName} en ${target.label}: despliega primero.`);
    }
    throw error;
  }
  if (missing.length > 0) {
    throw new MigrationRefused(
      `La tabla ${target.tableName} no tiene los índices de esta versión (${missing.join("; ")}): ` +
        "despliega con la misma fase de leanIndexes que la carpeta local (docs/deploy.md).",
    );
  }
}

/** The event-id counter exists once an event was ever created there. */
async function holdsEvents(target: Store): Promise<boolean> {
  const { Item: counter } = await target.dynamo.send(
    new GetItemCommand({
      TableName: target.tableName,
      Key: { pk: { S: "COUNTER#event" }, sk: { S: "COUNTER" } },
      ConsistentRead: true,
    }),
  );
  return counter !== undefined;
}

/** By its names, not its endpoint: stand-ins answer on a new port at every start. */
function targetId(target: Store): string {
  const identity = JSON.stringify([target.tableName, target.buckets]);
  return createHash("sha256").update(identity).digest("hex").slice(0, 16);
}

async function run(
  source: Store,
  target: Store,
  checkpoint: Checkpoint,
  options: MigrationOptions,
): Promise<MigrationReport> {
  const now = Math.floor(Date.now() / 1000);
  const partBytes = options.partBytes ?? 8 * 1024 * 1024;
  const concurrency = options.concurrency ?? 8;
  const abortIfAsked = () => {
    if (options.signal?.aborted) throw new MigrationRefused("Migración interrumpida: vuelve a ejecutarla para seguir.");
  };

  const itemTotal = await countItems(source);
  const objects: { role: BucketRole; object: ListedObject }[] = [];
  let skippedDownloadZips = 0;
  for (const role of roles) {
    for await (const object of listObjects(source.s3, source.buckets[role])) {
      if (role === "originals" && object.key.startsWith(downloadZipPrefix)) skippedDownloadZips += 1;
      else objects.push({ role, object });
    }
  }
  const objectBytes = objects.reduce((sum, { object }) => sum + object.size, 0);
  // Progress counts an item as one unit and an object as one unit per KiB: both phases weigh in.
  const units = (bytes: number) => Math.ceil(bytes / 1024);
  const total = itemTotal + units(objectBytes);

  // 3. Items.
  const fresh = { cursor: null, complete: false, seen: 0, written: 0, unchanged: 0 };
  let items: ItemsProgress = checkpoint.items ?? fresh;
  const writtenBefore = items.written;
  const unchangedBefore = items.unchanged;
  let done = items.seen;
  const report = (phase: "copia" | "verificación", detail: string) =>
    options.onProgress?.(phase, done, phase === "copia" ? total : itemTotal + objects.length, detail);
  while (!items.complete) {
    abortIfAsked();
    const page = await scanPage(source.dynamo, source.tableName, items.cursor ?? undefined, scanPageSize);
    const kept = page.items.filter((item) => !skipReason(item, now));
    const present = await getItems(target.dynamo, target.tableName, kept.map(keyOf));
    const changed = kept.filter((item) => {
      const there = present.get(keyText(item));
      return !there || itemHash(there) !== itemHash(item);
    });
    await putItems(target.dynamo, target.tableName, changed);
    items = {
      cursor: page.cursor ?? null,
      complete: !page.cursor,
      seen: items.seen + page.items.length,
      written: items.written + changed.length,
      unchanged: items.unchanged + kept.length - changed.length,
    };
    await checkpoint.saveItems(items);
    done = items.seen;
    report("copia", `${items.seen} de ${itemTotal} elementos de la tabla`);
  }

  // 4. Objects.
  let copied = 0;
  let unchanged = 0;
  let bytesDone = 0;
  const objectsDone = () => `${copied + unchanged} de ${objects.length} archivos`;
  await inPool(objects, concurrency, async ({ role, object }) => {
    abortIfAsked();
    const id = `${role}/${object.key}`;
    const from = { s3: source.s3, bucket: source.buckets[role] };
    const to = { s3: target.s3, bucket: target.buckets[role] };
    const known = checkpoint.objects.get(id);
    if (known && known.etag === object.etag && known.size === object.size) {
      unchanged += 1;
    } else {
      const there = await headObject(to.s3, to.bucket, object.key);
      const sourceHash = there?.size === object.size ? await objectHash(from.s3, from.bucket, object.key) : undefined;
      if (sourceHash && sourceHash === (await objectHash(to.s3, to.bucket, object.key))) {
        await checkpoint.saveObject(id, { etag: object.etag, size: object.size, sha256: sourceHash });
        unchanged += 1;
      } else {
        const result = await copyObject(from, to, object.key, partBytes);
        await checkpoint.saveObject(id, { etag: object.etag, size: result.size, sha256: result.sha256 });
        copied += 1;
      }
    }
    bytesDone += object.size;
    done = items.seen + units(bytesDone);
    report("copia", objectsDone());
  });

  // 5. Verification: everything again, from the target's side.
  done = 0;
  const verified = await verifyItems(source, target, now, () => {
    done += 1;
    report("verificación", "elementos de la tabla");
  });
  // The next run reads the table again and writes what differs.
  if (verified.mismatches.length > 0) await checkpoint.saveItems(fresh);
  const buckets = Object.fromEntries(roles.map((role) => [role, { source: 0, same: 0, bytes: 0 }])) as Record<
    BucketRole,
    { source: number; same: number; bytes: number }
  >;
  const objectMismatches: string[] = [];
  await inPool(objects, concurrency, async ({ role, object }) => {
    const id = `${role}/${object.key}`;
    const counts = buckets[role];
    counts.source += 1;
    counts.bytes += object.size;
    const problem = await objectProblem(source, target, role, object, checkpoint.objects.get(id)?.sha256);
    if (problem) {
      objectMismatches.push(`${id}: ${problem}`);
      await checkpoint.forgetObject(id);
    } else {
      counts.same += 1;
    }
    done += 1;
    report("verificación", "archivos");
  });

  return {
    ok: verified.mismatches.length === 0 && objectMismatches.length === 0,
    resumed: checkpoint.resumed,
    checkpointFile: checkpoint.file,
    items: {
      ...verified,
      written: items.written - writtenBefore,
      unchanged: items.unchanged - unchangedBefore,
    },
    objects: {
      buckets,
      copied,
      unchanged,
      skippedDownloadZips,
      mismatches: objectMismatches.sort().slice(0, maxListedMismatches),
    },
  };
}

async function countItems(store: Store): Promise<number> {
  let count = 0;
  let cursor: Item | undefined;
  do {
    const page = await store.dynamo.send(
      new ScanCommand({
        TableName: store.tableName,
        Select: "COUNT",
        ...(cursor ? { ExclusiveStartKey: cursor } : {}),
      }),
    );
    count += page.Count ?? 0;
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return count;
}

/**
 * Every item the source has to copy, read again at the target and compared by hash, counted by
 * kind; and the items left behind, by reason.
 */
async function verifyItems(
  source: Store,
  target: Store,
  now: number,
  onItem: () => void,
): Promise<Pick<MigrationReport["items"], "kinds" | "mismatches" | "skipped">> {
  const kinds: Record<string, { source: number; same: number }> = {};
  const skipped: Record<string, number> = {};
  const mismatches: string[] = [];
  let cursor: Item | undefined;
  do {
    const page = await scanPage(source.dynamo, source.tableName, cursor, scanPageSize);
    const kept: Item[] = [];
    for (const item of page.items) {
      const reason = skipReason(item, now);
      if (reason) skipped[reason] = (skipped[reason] ?? 0) + 1;
      else kept.push(item);
      onItem();
    }
    const present = await getItems(target.dynamo, target.tableName, kept.map(keyOf));
    for (const item of kept) {
      const kind = kindOf(item);
      const counts = kinds[kind] ?? { source: 0, same: 0 };
      kinds[kind] = counts;
      counts.source += 1;
      const there = present.get(keyText(item));
      if (there && itemHash(there) === itemHash(item)) counts.same += 1;
      else if (mismatches.length < maxListedMismatches) {
        mismatches.push(`${keyText(item)}: ${there ? "distinto en el destino" : "falta en el destino"}`);
      }
    }
    cursor = page.cursor;
  } while (cursor);
  return { kinds, mismatches, skipped };
}

/** What is wrong with the target's copy of an object, if anything: missing, size, headers or bytes. */
async function objectProblem(
  source: Store,
  target: Store,
  role: BucketRole,
  object: ListedObject,
  sha256: string | undefined,
): Promise<string | undefined> {
  const there = await headObject(target.s3, target.buckets[role], object.key);
  if (!there) return "falta en el destino";
  if (there.size !== object.size) return `tamaño ${there.size} en vez de ${object.size}`;
  const original = await headObject(source.s3, source.buckets[role], object.key);
  if (!original) return "ya no está en el origen";
  if (original.headers.contentType !== there.headers.contentType) return "tipo de contenido distinto";
  if (JSON.stringify(sorted(original.headers.metadata)) !== JSON.stringify(sorted(there.headers.metadata))) {
    return "metadatos distintos";
  }
  const expected = sha256 ?? (await objectHash(source.s3, source.buckets[role], object.key));
  if ((await objectHash(target.s3, target.buckets[role], object.key)) !== expected)
    return "contenido distinto (SHA-256)";
  return undefined;
}

const sorted = (record: Record<string, string>) => Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1));

/** Runs `work` over the list, `size` at a time; the first failure stops the rest and is thrown. */
async function inPool<T>(list: T[], size: number, work: (entry: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < list.length) {
      const entry = list[next++] as T;
      try {
        await work(entry);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, list.length) }, worker));
}

/** The key pairs the repositories query by (the port's `index`): each served by one index of the table. */
export type IndexKeys = "gsi1" | "gsi2";

export type Projection = { type: "ALL" } | { type: "INCLUDE"; attributes: readonly string[] };

export interface GlobalIndex {
  name: string;
  keys: IndexKeys;
  partitionKey: string;
  sortKey: string;
  projection: Projection;
}

/** What the counter recount reads of each photo (photos.countingPage): a small part of a processed photo's item. */
export const countedPhotoAttributes = [
  "id",
  "eventId",
  "processingStatus",
  "countedInTotal",
  "removedAt",
  "recognition",
  "faces",
  "detectedDorsals",
  "gsi2pk",
] as const;

/**
 * What queries read from gsi1 entries themselves (docs/data-model.md, "Indexes"): the counter
 * recount (photos.countingPage), the top bibs (participants.topByPhotos), a photo's bibs
 * (bibLinks.linkedBibs) and the event deletion's sweeps. Every other gsi1 read takes the items'
 * keys from the index and the items from the table (query-all.ts, `queryThenGet`), so a photo is
 * not stored twice whole: the index holds ~0.4 KB of it instead of ~1.4 KB (`npm run bench:items`).
 */
export const gsi1Attributes = [...countedPhotoAttributes, "bib", "dorsalNumber", "photoCount", "batchId"] as const;

const gsi1: GlobalIndex = {
  // A projection cannot change in place: the lean index has a name of its own (docs/deploy.md).
  name: "gsi1v2",
  keys: "gsi1",
  partitionKey: "gsi1pk",
  sortKey: "gsi1sk",
  projection: { type: "INCLUDE", attributes: gsi1Attributes },
};

// gsi2 holds only sparse lists (photos without a bib or failed, active ZIP batches, pending and
// paid sales, uploads, applications): ~70 B per photo, not worth replacing the index for.
const gsi2: GlobalIndex = {
  name: "gsi2",
  keys: "gsi2",
  partitionKey: "gsi2pk",
  sortKey: "gsi2sk",
  projection: { type: "ALL" },
};

/** The table's key schema, shared by the CDK stack and the local runtime's table creation. */
export const tableSchema = {
  partitionKey: "pk",
  sortKey: "sk",
  globalIndexes: [gsi1, gsi2],
  /**
   * Indexes of earlier definitions that a table made by an older version still has. The code
   * reads none of them once their successor is active; AWS drops them in the migration's last
   * deploy (docs/deploy.md), the local runtime when it opens an older data dir (dynalite-repair.ts).
   */
  retiredIndexes: [{ ...gsi1, name: "gsi1", projection: { type: "ALL" } }] satisfies GlobalIndex[],
  timeToLiveAttribute: "ttl",
} as const;

/** The index each key pair is queried through, unless the deployment says otherwise (GSI1_INDEX_NAME). */
export const servingIndexNames: Record<IndexKeys, string> = { gsi1: gsi1.name, gsi2: gsi2.name };

/** Whether a query on `keys` may read `attribute` from the index entries (keys are always projected). */
export function isProjected(keys: IndexKeys, attribute: string): boolean {
  const index = tableSchema.globalIndexes.find((candidate) => candidate.keys === keys);
  if (!index) return false;
  if (index.projection.type === "ALL") return true;
  return (
    [tableSchema.partitionKey, tableSchema.sortKey, index.partitionKey, index.sortKey].includes(attribute) ||
    index.projection.attributes.includes(attribute)
  );
}

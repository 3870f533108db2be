import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DeleteTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { defaultEventPricing } from "@dorsal/shared";
import { photographerApplicationRequest } from "@dorsal/shared/applications";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTable, startDynalite } from "../../functions/local/storage";
import { createDynamoTable, documentClientSender } from "../../functions/src/adapters/aws/dynamodb-table";
import { readCachedTable } from "../../functions/src/adapters/local/read-cached-table";
import { createMemoryTable } from "../../functions/src/adapters/memory/table";
import { createIds, systemClock } from "../../functions/src/adapters/system/system";
import { createApplicationRepository } from "../../functions/src/data/applications";
import { createAssignmentRepository } from "../../functions/src/data/assignments";
import { createBibLinkRepository } from "../../functions/src/data/bib-links";
import { createEventRepository } from "../../functions/src/data/events";
import { keys } from "../../functions/src/data/keys";
import { createLoginAttemptRepository } from "../../functions/src/data/login-attempts";
import { createParticipantRepository } from "../../functions/src/data/participants";
import { createPhotoFacesRepository } from "../../functions/src/data/photo-faces";
import { createPhotoRepository, newPhotoFields, type PhotoRecord } from "../../functions/src/data/photos";
import { createPricingRepository } from "../../functions/src/data/pricing";
import { createSalesRepository } from "../../functions/src/data/sales";
import { createUserRepository } from "../../functions/src/data/users";
import type { Table } from "../../functions/src/ports/table";
import { sampleApplication } from "../support/applications";
import { pendingSale } from "../support/sales";

/**
 * The data layer's guarantees (conditional writes, atomic counters, idempotent links) checked
 * directly on the repositories with the real DynamoDB adapter. Runs on dynalite by default; with
 * DYNAMODB_TEST_ENDPOINT set (see `npm run test:dynamodb-local`) on that endpoint instead, in a
 * table of its own that is deleted afterwards.
 */
const region = "us-east-1";
const externalEndpoint = process.env.DYNAMODB_TEST_ENDPOINT;

/** A table for one suite run, and how to let it go. */
interface TableUnderTest {
  table: Table;
  close(): Promise<void>;
}

async function dynamoTable(): Promise<TableUnderTest> {
  let endpoint = externalEndpoint;
  let dataDir: string | undefined;
  let stopDynalite: (() => Promise<void>) | undefined;
  if (!endpoint) {
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-repositories-"));
    const dynamo = await startDynalite(dataDir);
    endpoint = dynamo.endpoint;
    stopDynalite = dynamo.close;
  }
  const tableName = `dorsal-repositories-${randomUUID().slice(0, 8)}`;
  // The runtime's own table creation, from the shared schema.
  await ensureTable(endpoint, region, tableName);
  const client = new DynamoDBClient({
    endpoint,
    region,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  return {
    table: createDynamoTable(documentClientSender(client), tableName),
    async close() {
      await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      client.destroy();
      await stopDynalite?.();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * dynalite called in process, as the embedded runtime calls it (no SDK, no HTTP); with `cachedReads`,
 * each answer kept until a write touches what it read, as the runtime reads.
 */
async function inProcessDynaliteTable(cachedReads: boolean): Promise<TableUnderTest> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-repositories-"));
  const dynamo = await startDynalite(dataDir);
  const tableName = "in-process";
  await ensureTable(dynamo.endpoint, region, tableName);
  const table = createDynamoTable(dynamo.send, tableName);
  return {
    table: cachedReads ? readCachedTable(table, dynamo.writes.of(tableName)) : table,
    async close() {
      await dynamo.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// Every way the product reaches a table must keep the same guarantees: the same suite runs on each.
const backends: [string, () => Promise<TableUnderTest>][] = [
  [externalEndpoint ? `DynamoDB at ${externalEndpoint}` : "dynalite over HTTP", dynamoTable],
  ["dynalite in process", () => inProcessDynaliteTable(false)],
  ["dynalite in process with cached reads", () => inProcessDynaliteTable(true)],
  ["the in-memory table", async () => ({ table: createMemoryTable(), close: async () => undefined })],
];

describe.each(backends)("repositories on %s", (_name, open) => {
  let underTest: TableUnderTest | undefined;
  let table: Table;
  const ids = createIds(systemClock);

  beforeAll(async () => {
    underTest = await open();
    table = underTest.table;
  });

  afterAll(async () => {
    await underTest?.close();
  });

  describe("the table port", () => {
    const partition = () => `TEST#${randomUUID()}`;

    it("pages an index in either order with the cursor it gives out, and skips items the index lacks", async () => {
      const gsi = partition();
      const pk = partition();
      const entries = ["b", "d", "a", "c", "e"];
      await table.batchPut(entries.map((sk) => ({ pk, sk, gsi1pk: gsi, gsi1sk: `k#${sk}` })));
      await table.put({ pk, sk: "not-indexed" });
      const walk = async (descending: boolean) => {
        const seen: string[] = [];
        let cursor: Record<string, unknown> | undefined;
        do {
          const page = await table.query<{ sk: string }>({
            index: "gsi1",
            partition: gsi,
            limit: 2,
            descending,
            ...(cursor ? { cursor } : {}),
          });
          seen.push(...page.items.map((item) => item.sk));
          cursor = page.cursor;
        } while (cursor);
        return seen;
      };
      expect(await walk(false)).toEqual(["a", "b", "c", "d", "e"]);
      expect(await walk(true)).toEqual(["e", "d", "c", "b", "a"]);
      const between = await table.query<{ sk: string }>({ partition: pk, sortBetween: ["b", "d"] });
      expect(between.items.map((item) => item.sk)).toEqual(["b", "c", "d"]);
      const prefixed = await table.query<{ sk: string }>({ partition: pk, sortPrefix: "not" });
      expect(prefixed.items.map((item) => item.sk)).toEqual(["not-indexed"]);
    });

    it("reads only the attributes asked for, reserved words included, and pages a projected query", async () => {
      const pk = partition();
      const stored = ["a", "b", "c"].map((sk) => ({
        pk,
        sk,
        name: `photo ${sk}`,
        status: "successful",
        textDetections: [{ text: "MEDELLIN", box: { left: 0.1 } }],
      }));
      await table.batchPut(stored);
      const attributes = ["sk", "name", "status", "neverWritten"];
      const view = (sk: string) => ({ sk, name: `photo ${sk}`, status: "successful" });
      expect(await table.get({ pk, sk: "a" }, { attributes })).toEqual(view("a"));
      const found = await table.batchGet<{ sk: string }>(
        ["c", "a"].map((sk) => ({ pk, sk })),
        { attributes },
      );
      expect(found.sort((x, y) => x.sk.localeCompare(y.sk))).toEqual([view("a"), view("c")]);
      const first = await table.query({ partition: pk, limit: 2, attributes });
      expect(first.items).toEqual([view("a"), view("b")]);
      const rest = await table.query({
        partition: pk,
        limit: 2,
        attributes,
        ...(first.cursor ? { cursor: first.cursor } : {}),
      });
      expect(rest.items).toEqual([view("c")]);
      expect(await table.get({ pk, sk: "a" })).toEqual(stored[0]);
    });

    it("updates conditionally: <> holds for a missing attribute, < does not; ADD starts from zero", async () => {
      const key = { pk: partition(), sk: "item" };
      expect(
        await table.update({ key, set: { state: "new" }, conditions: [{ attribute: "pk", op: "exists" }] }),
      ).toBeUndefined();
      expect(await table.get(key)).toBeUndefined();
      const created = await table.update<{ state: string; hits: number }>({
        key,
        set: { state: "new", gone: undefined },
        add: { hits: 2 },
        conditions: [{ attribute: "state", op: "<>", value: "done" }],
      });
      expect(created).toEqual({ ...key, state: "new", hits: 2 });
      expect(
        await table.update({ key, add: { hits: 1 }, conditions: [{ attribute: "missing", op: "<", value: 5 }] }),
      ).toBeUndefined();
      const counted = await table.update<{ hits: number; state?: string }>({
        key,
        add: { hits: 1 },
        remove: ["state"],
        conditions: [{ attribute: "hits", op: "<", value: 3 }],
      });
      expect(counted).toEqual({ ...key, hits: 3 });
      expect(await table.put({ ...key, other: 1 }, { ifAbsent: true })).toBe(false);
      expect(await table.delete(key)).toBe(true);
      expect(await table.delete(key)).toBe(false);
    });
  });

  describe("users", () => {
    const input = (email: string) => ({
      email,
      passwordHash: "hash",
      role: "photographer" as const,
      name: "Ana",
      assignedEventId: null,
    });

    it("lets exactly one of two concurrent creates with the same email succeed", async () => {
      const users = createUserRepository(table, ids, systemClock);
      const results = await Promise.all([users.create(input("Same@Race.test")), users.create(input("same@race.test"))]);
      const created = results.filter((user) => user !== undefined);
      expect(created).toHaveLength(1);
      expect((await users.findByEmail("SAME@race.test"))?.id).toBe(created[0]?.id);
      expect(await users.create(input("same@race.test"))).toBeUndefined();
    });

    it("claims the new email and releases the old one on an email change", async () => {
      const users = createUserRepository(table, ids, systemClock);
      const user = await users.create(input("old@race.test"));
      const other = await users.create(input("taken@race.test"));
      if (!user || !other) throw new Error("setup failed");

      const taken = await users.update(user, { name: "Ana", email: "Taken@race.test", role: "photographer" });
      expect(taken).toEqual({ status: "email_taken" });

      const moved = await users.update(user, { name: "Ana B", email: "New@race.test", role: "photographer" });
      expect(moved).toMatchObject({ status: "updated", user: { email: "new@race.test", name: "Ana B" } });
      expect((await users.findByEmail("new@race.test"))?.id).toBe(user.id);
      expect(await users.findByEmail("old@race.test")).toBeUndefined();
      expect(await table.get(keys.userEmail("old@race.test"))).toBeUndefined();
      // The old email is free again; the new one is not.
      expect(await users.create(input("old@race.test"))).toBeDefined();
      expect(await users.create(input("new@race.test"))).toBeUndefined();

      // An update based on a stale read is refused and leaves its claim released.
      const stale = await users.update(user, { name: "Ana", email: "third@race.test", role: "photographer" });
      expect(stale).toEqual({ status: "stale" });
      expect(await table.get(keys.userEmail("third@race.test"))).toBeUndefined();
    });
  });

  it("hands out distinct, consecutive event ids to concurrent callers", async () => {
    const events = createEventRepository(table);
    const got = await Promise.all(Array.from({ length: 12 }, () => events.nextId()));
    const sorted = [...got].sort((a, b) => a - b);
    expect(new Set(got).size).toBe(12);
    expect(sorted).toEqual(Array.from({ length: 12 }, (_, index) => (sorted[0] ?? 0) + index));
    expect(await events.nextId()).toBe((sorted[11] ?? 0) + 1);
  });

  describe("photos", () => {
    const eventId = 901;
    const photo = (id: string): PhotoRecord => ({
      ...newPhotoFields,
      id,
      eventId,
      filename: `${id}.jpg`,
      originalFilename: `${id}.jpg`,
      originalKey: `eventos/${eventId}/${id}.jpg`,
      uploadedAt: new Date().toISOString(),
      uploadedBy: "tester",
    });
    const results = {
      webKey: "web",
      thumbnailKey: "thumb",
      previewKey: null,
      previewThumbnailKey: null,
      gratisKey: null,
      faces: [],
      recognition: null,
      textDetections: [],
      imageSize: { width: 10, height: 10 },
    };

    /** The engine's raw text of a photo that shows one number. */
    const aRead = (number: string) => [
      {
        type: "WORD" as const,
        id: 1,
        text: number,
        confidence: 99,
        box: { left: 0.1, top: 0.2, width: 0.1, height: 0.05 },
      },
    ];

    it("creates a pending photo once and moves it to processing once", async () => {
      const photos = createPhotoRepository(table);
      const id = ids.newId();
      expect(await photos.createPending(photo(id))).toBe(true);
      expect(await photos.createPending(photo(id))).toBe(false);
      const claims = await Promise.all([photos.markProcessing(id), photos.markProcessing(id)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await photos.get(id)).toMatchObject({ processingStatus: "processing", attempts: 1, countedInTotal: true });
    });

    it("counts a successful photo once, and refuses markSuccessful on a missing photo", async () => {
      const photos = createPhotoRepository(table);
      const id = ids.newId();
      await photos.createPending(photo(id));
      await photos.markProcessing(id);
      expect(await photos.markSuccessful(id, results, new Date())).toBe(true);
      expect(await photos.markSuccessful(id, { ...results, webKey: "web-2" }, new Date())).toBe(false);
      expect(await photos.get(id)).toMatchObject({ processingStatus: "successful", processed: true, webKey: "web-2" });
      // A failure after success is ignored.
      expect(await photos.markFailed(id, "late", new Date(), eventId)).toBe(false);
      expect(await photos.markSuccessful(ids.newId(), results, new Date())).toBe(false);
    });

    it("keeps a processed photo's raw text in an item of its own, and reads an older photo's from the photo", async () => {
      const photos = createPhotoRepository(table);
      const text = aRead("3638");
      const id = ids.newId();
      await photos.createPending(photo(id));
      await photos.markProcessing(id);
      await photos.markSuccessful(id, { ...results, textDetections: text }, new Date());
      const stored = await photos.get(id);
      expect(stored).not.toHaveProperty("textDetections");
      expect(await photos.textOf({ id })).toEqual(text);

      // Processed before the text had its own item: read from the photo, moved on its next run.
      const older = ids.newId();
      await photos.createPending({ ...photo(older), textDetections: text });
      expect(await photos.textOf({ id: older, textDetections: text })).toEqual(text);
      await photos.markProcessing(older);
      await photos.markSuccessful(older, { ...results, textDetections: [] }, new Date());
      expect(await photos.get(older)).not.toHaveProperty("textDetections");
      expect(await photos.textOf({ id: older })).toEqual([]);

      // A photo deleted before its record step leaves no text behind.
      const gone = ids.newId();
      expect(await photos.markSuccessful(gone, { ...results, textDetections: text }, new Date())).toBe(false);
      expect(await table.get(keys.photoText(gone))).toBeUndefined();
    });

    it("moves an older photo's raw text to its own item once, keeping every word", async () => {
      const photos = createPhotoRepository(table);
      const text = aRead("5173");
      const older = ids.newId();
      await photos.createPending({ ...photo(older), textDetections: text });
      const listed = await photos.get(older);
      expect(listed).toHaveProperty("textDetections", text);
      expect(await photos.moveTextApart(listed ?? { id: older })).toBe(true);
      expect(await photos.get(older)).not.toHaveProperty("textDetections");
      expect(await table.get(keys.photoText(older))).toMatchObject({ textDetections: text });
      expect(await photos.textOf({ id: older })).toEqual(text);
      // The listing the caller held still names the text: a second move finds nothing left to move.
      expect(await photos.moveTextApart(listed ?? { id: older })).toBe(false);
      expect(await photos.moveTextApart({ id: older })).toBe(false);
      expect(await photos.textOf({ id: older })).toEqual(text);
    });

    it("fails once, lists the failure, and reopens it once", async () => {
      const photos = createPhotoRepository(table);
      const id = ids.newId();
      await photos.createPending(photo(id));
      await photos.markProcessing(id);
      expect(await photos.markFailed(id, "broken", new Date(), eventId)).toBe(true);
      expect(await photos.markFailed(id, "again", new Date(), eventId)).toBe(false);
      expect((await photos.get(id))?.failureReason).toBe("broken");
      const listed = await photos.listFailed({ eventId, limit: 50 });
      expect(listed.photos.map((failed) => failed.id)).toContain(id);

      const reopened = await Promise.all([photos.resetFailed(id), photos.resetFailed(id)]);
      expect(reopened.filter((item) => item !== undefined)).toHaveLength(1);
      expect(await photos.get(id)).toMatchObject({ processingStatus: "pending", failureReason: null, reruns: 1 });
      expect((await photos.listFailed({ eventId, limit: 50 })).photos.map((failed) => failed.id)).not.toContain(id);
      expect(await photos.markProcessing(id)).toBe(true);
    });

    it("releases from and claims for the event total once each", async () => {
      const photos = createPhotoRepository(table);
      const id = ids.newId();
      await photos.createPending(photo(id));
      expect(await photos.claimForTotal(id)).toBe(true);
      expect(await photos.claimForTotal(id)).toBe(false);
      expect(await photos.releaseFromTotal(id)).toBe(true);
      expect(await photos.releaseFromTotal(id)).toBe(false);
      expect(await photos.claimForTotal(ids.newId())).toBe(false);
    });

    it("keeps the first holder of a content hash and marks the copy a duplicate once", async () => {
      const photos = createPhotoRepository(table);
      const [first, second] = [ids.newId(), ids.newId()];
      await photos.createPending(photo(first));
      await photos.createPending(photo(second));
      const sha = "ab".repeat(32);
      expect(await photos.claimContentHash(eventId, sha, first, new Date())).toBe(first);
      expect(await photos.claimContentHash(eventId, sha, second, new Date())).toBe(first);
      expect(await photos.markDuplicate(second, first, sha, new Date())).toBe(true);
      expect(await photos.markDuplicate(second, first, sha, new Date())).toBe(false);
      expect(await photos.get(second)).toMatchObject({ processingStatus: "duplicate", duplicateOf: first });
    });

    it("refuses a bib write based on a stale version", async () => {
      const photos = createPhotoRepository(table);
      const id = ids.newId();
      await photos.createPending(photo(id));
      const stored = (await photos.get(id)) as PhotoRecord;
      const next = { machineBibs: [], manualBibs: { added: ["7"], removed: [] }, bibs: [], detectedDorsals: ["7"] };
      const writes = await Promise.all([photos.writeBibs(stored, 0, next), photos.writeBibs(stored, 0, next)]);
      expect(writes.filter(Boolean)).toHaveLength(1);
      expect((await photos.get(id))?.bibsVersion).toBe(1);
    });

    it("links and unlinks bibs idempotently, with participant and event counts following", async () => {
      const bibLinks = createBibLinkRepository(table);
      const participants = createParticipantRepository(table);
      const events = createEventRepository(table);
      const linkEvent = 902;
      const [a, b] = [ids.newId(), ids.newId()];
      const now = new Date().toISOString();

      const links = await Promise.all([
        bibLinks.linkBib(linkEvent, "42", a, now),
        bibLinks.linkBib(linkEvent, "42", a, now),
        bibLinks.linkBib(linkEvent, "42", b, now),
        bibLinks.linkBib(linkEvent, "7", a, now),
      ]);
      expect(links).toEqual([expect.any(Boolean), expect.any(Boolean), true, true]);
      expect(links.slice(0, 2).filter(Boolean)).toHaveLength(1);
      expect(await participants.participantCounts(linkEvent)).toEqual(
        new Map([
          ["7", 1],
          ["42", 2],
        ]),
      );
      expect((await events.stats([linkEvent])).get(linkEvent)?.dorsalsDetected).toBe(3);
      expect((await bibLinks.linkedBibs(a)).sort()).toEqual(["42", "7"]);
      expect((await bibLinks.photoIdsForBib(linkEvent, "42")).sort()).toEqual([a, b].sort());

      expect(await bibLinks.unlinkBib(linkEvent, "42", a)).toBe(true);
      expect(await bibLinks.unlinkBib(linkEvent, "42", a)).toBe(false);
      expect((await participants.participantCounts(linkEvent)).get("42")).toBe(1);
      expect((await events.stats([linkEvent])).get(linkEvent)?.dorsalsDetected).toBe(2);
      expect(await bibLinks.photoIdsForBib(linkEvent, "42")).toEqual([b]);
    });

    it("keeps the bib grid's list in step with every count change: links, unlinks and recounts", async () => {
      const bibLinks = createBibLinkRepository(table);
      const participants = createParticipantRepository(table);
      const gridEvent = 903;
      const [a, b] = [ids.newId(), ids.newId()];
      const now = new Date().toISOString();
      expect(await participants.bibsWithPhotos(gridEvent)).toEqual([]);
      await bibLinks.linkBib(gridEvent, "42", a, now);
      await bibLinks.linkBib(gridEvent, "42", b, now);
      await bibLinks.linkBib(gridEvent, "7", a, now);
      const linked = [
        { dorsalNumber: "7", photoCount: 1 },
        { dorsalNumber: "42", photoCount: 2 },
      ];
      expect(await participants.bibsWithPhotos(gridEvent)).toEqual(linked);
      expect(await participants.bibsWithPhotos(gridEvent)).toEqual(linked);
      await bibLinks.unlinkBib(gridEvent, "42", a);
      expect(await participants.bibsWithPhotos(gridEvent)).toEqual([
        { dorsalNumber: "7", photoCount: 1 },
        { dorsalNumber: "42", photoCount: 1 },
      ]);
      // A recount that finds bib 7 on no photo any more.
      expect(await participants.replaceParticipantCount(gridEvent, "7", 0, 1)).toBe(true);
      expect(await participants.bibsWithPhotos(gridEvent)).toEqual([{ dorsalNumber: "42", photoCount: 1 }]);
    });
  });

  it("refuses a second assignment of the same photographer to the same event", async () => {
    const assignments = createAssignmentRepository(table, ids, systemClock);
    const userId = ids.newId();
    const input = { userId, eventId: 903, role: "photographer" as const, notes: null, assignedBy: null };
    const results = await Promise.all([assignments.assign(input), assignments.assign(input)]);
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    expect(await assignments.assign({ ...input, eventId: 904 })).toBeDefined();
    expect((await assignments.ofUser(userId)).map((assignment) => assignment.eventId)).toEqual([903, 904]);

    expect(await assignments.remove(userId, 903)).toBe(true);
    expect(await assignments.remove(userId, 903)).toBe(false);
    expect(await assignments.assign(input)).toBeDefined();
    await assignments.removeAllOfEvent(903);
    expect((await assignments.ofUser(userId)).map((assignment) => assignment.eventId)).toEqual([904]);
  });

  it("lets only one review claim a pending application, and gives back only that claim", async () => {
    const applications = createApplicationRepository(table);
    const input = photographerApplicationRequest.parse({ ...sampleApplication, email: "laura@fotos.test" });
    const application = await applications.create(ids.newId(), input, new Date().toISOString());
    const by = (reviewedAt: string) => ({ reviewedAt, reviewedBy: "admin", reviewedByEmail: "admin@race.test" });

    const claims = await Promise.all([
      applications.approve(application, 1, by("2026-01-01T00:00:00.000Z")),
      applications.approve(application, 2, by("2026-01-01T00:00:01.000Z")),
    ]);
    const won = claims.filter((claim) => claim !== undefined);
    expect(won).toHaveLength(1);
    const winner = won[0];
    if (!winner?.reviewedAt) throw new Error("no approval won");
    expect(await applications.reject(application, "no", by("2026-01-01T00:00:02.000Z"))).toBeUndefined();
    // Giving back a claim made at another time changes nothing; the right one reopens it.
    await applications.releaseApproval(application, "1999-01-01T00:00:00.000Z");
    expect((await applications.get(application.id))?.status).toBe("approved");
    await applications.releaseApproval(application, winner.reviewedAt);
    expect(await applications.get(application.id)).toMatchObject({ status: "pending", assignedEventId: null });
    const pending = await applications.list({ status: "pending", limit: 100 });
    expect(pending.applications.map((item) => item.id)).toContain(application.id);
    expect(await applications.approve(application, 3, by("2026-01-02T00:00:00.000Z"))).toMatchObject({
      status: "approved",
      assignedEventId: 3,
    });
    expect(await applications.approve(application, 4, by("2026-01-02T00:00:01.000Z"))).toBeUndefined();
  });

  it("binds a payment transaction to the one sale that claims it first, even when two race", async () => {
    const sales = createSalesRepository(table);
    const transactionId = `tx-${ids.newId()}`;
    const claims = await Promise.all([
      sales.claimTransaction(transactionId, "sale-a"),
      sales.claimTransaction(transactionId, "sale-b"),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const holder = claims[0] ? "sale-a" : "sale-b";
    const other = claims[0] ? "sale-b" : "sale-a";
    // The holder settling again (a redelivered event, a lookup) keeps its claim; the other never gets it.
    expect(await sales.claimTransaction(transactionId, holder)).toBe(true);
    expect(await sales.claimTransaction(transactionId, other)).toBe(false);
    expect(await table.get(keys.paymentTransaction(transactionId))).toMatchObject({ saleId: holder });
  });

  it("recounts a month a stopped process left one sale short, and leaves a right one alone", async () => {
    const sales = createSalesRepository(table);
    // A month no other test pays in.
    const at = new Date("2031-03-10T15:00:00.000Z");
    const pay = async (n: number) => {
      const created = pendingSale(ids.newId(), at, { eventId: 931, dorsalNumber: String(n) });
      expect(await sales.create(created)).toBe(true);
      const paid = await sales.markPaid(created, {
        transactionId: `tx-${created.id}`,
        paymentMethod: "CARD",
        statusMessage: null,
        at,
      });
      if (!paid) throw new Error("the sale was not paid");
      return paid;
    };
    await sales.countPaid(await pay(1));
    // Paid, then the process stopped before counting it.
    await pay(2);
    expect(await sales.month("2031-03")).toEqual({ count: 1, revenue: 15000 });
    expect(await sales.recountMonth("2031-03")).toBe(true);
    expect(await sales.month("2031-03")).toEqual({ count: 2, revenue: 30000 });
    expect(await sales.recountMonth("2031-03")).toBe(false);
    // Counting goes on from the recounted figures.
    await sales.countPaid(await pay(3));
    expect(await sales.month("2031-03")).toEqual({ count: 3, revenue: 45000 });
    // A month nobody paid in stays without figures.
    expect(await sales.recountMonth("2031-04")).toBe(false);
    expect(await table.get(keys.salesMonth("2031-04"))).toBeUndefined();
  });

  it("gives a paid sale one emailed token beside its own; a new link drops both, and a stale one changes nothing", async () => {
    const sales = createSalesRepository(table);
    const id = ids.newId();
    const at = new Date("2026-12-06T09:30:00.000Z");
    const created = pendingSale(id, at, { eventId: 906, dorsalNumber: "5173" });
    expect(await sales.create(created)).toBe(true);
    // Not before it is paid.
    expect(await sales.addEmailToken(created, `antes-${id}`, at)).toBe(false);
    const paid = await sales.markPaid(created, {
      transactionId: `tx-${id}`,
      paymentMethod: "CARD",
      statusMessage: null,
      at,
    });
    if (!paid) throw new Error("the sale was not paid");

    // Two settlements racing: one emailed token, and the loser's guard is gone.
    const added = await Promise.all([
      sales.addEmailToken(paid, `correo-a-${id}`, at),
      sales.addEmailToken(paid, `correo-b-${id}`, at),
    ]);
    expect(added.filter(Boolean)).toHaveLength(1);
    const [kept, lost] = added[0] ? [`correo-a-${id}`, `correo-b-${id}`] : [`correo-b-${id}`, `correo-a-${id}`];
    expect(await table.get(keys.downloadToken(lost))).toBeUndefined();
    expect(await table.get(keys.downloadToken(`antes-${id}`))).toBeUndefined();
    expect((await sales.byTokenHash(kept))?.id).toBe(id);
    expect((await sales.byTokenHash(created.tokenHash))?.id).toBe(id);
    expect(await sales.byTokenHash(lost)).toBeUndefined();

    // A new link read before the emailed token existed changes nothing.
    expect(await sales.replaceToken(paid, `viejo-${id}`, at)).toBeUndefined();
    expect(await table.get(keys.downloadToken(`viejo-${id}`))).toBeUndefined();
    expect((await sales.byTokenHash(kept))?.id).toBe(id);

    const current = await sales.get(id);
    if (!current) throw new Error("the sale is gone");
    const replaced = await sales.replaceToken(current, `nuevo-${id}`, at);
    expect(replaced).toMatchObject({ tokenHash: `nuevo-${id}` });
    expect(replaced?.emailTokenHash).toBeUndefined();
    for (const old of [created.tokenHash, kept]) {
      expect(await sales.byTokenHash(old)).toBeUndefined();
      expect(await table.get(keys.downloadToken(old))).toBeUndefined();
    }
    expect((await sales.byTokenHash(`nuevo-${id}`))?.id).toBe(id);
  });

  it("keeps a photo's faces as bytes that give back each descriptor, and answers only the model asked for", async () => {
    const faces = createPhotoFacesRepository(table);
    // Two unit vectors of 1,024 values, one with a negative value among its largest.
    const unitOf = (values: number[]) => {
      const norm = Math.hypot(...values);
      return Float32Array.from(values, (value) => value / norm);
    };
    const first = unitOf(Array.from({ length: 1024 }, (_, i) => Math.sin(i)));
    const second = unitOf(Array.from({ length: 1024 }, (_, i) => (i % 7) - 3));
    await faces.put(907, "photo-a", "model-new", [first, second]);
    await faces.put(907, "photo-b", "model-old", [second]);

    const found = [];
    for await (const photo of faces.ofEvent(907, "model-new")) found.push(photo);

    expect(found.map((photo) => photo.photoId)).toEqual(["photo-a"]);
    const kept = found[0]?.descriptors ?? [];
    expect(kept).toHaveLength(2);
    kept.forEach(({ scale, codes }, face) => {
      const original = face === 0 ? first : second;
      const distance = Math.hypot(...Array.from(codes, (code, i) => code * scale - (original[i] as number)));
      // One byte a value: the kept face lies within 0.01 of the original (selfie search's threshold is 0.725).
      expect(distance).toBeLessThan(0.01);
    });
    await faces.removeAll(907);
    const left = [];
    for await (const photo of faces.ofEvent(907, "model-old")) left.push(photo);
    expect(left).toEqual([]);
  });

  it("returns default pricing until one is saved, then the saved one", async () => {
    const pricing = createPricingRepository(table);
    expect(await pricing.get(905)).toMatchObject({ ...defaultEventPricing, configured: false, updatedAt: null });
    const now = new Date("2026-03-01T12:00:00.000Z");
    await pricing.save(905, { ...defaultEventPricing, basePrice: 15000, volumeDiscountEnabled: false }, now);
    expect(await pricing.get(905)).toMatchObject({
      eventId: 905,
      basePrice: 15000,
      volumeDiscountEnabled: false,
      configured: true,
      updatedAt: now.toISOString(),
    });
    expect((await pricing.get(906)).configured).toBe(false);
  });

  it("counts attempts per subject and client atomically, locks one client with a TTL, clears a subject whole", async () => {
    const attempts = createLoginAttemptRepository(table);
    const email = "Guess@Race.test";
    const window = 123;
    const expiresAt = new Date("2030-01-01T00:00:00.000Z");
    const counts = await Promise.all(
      Array.from({ length: 5 }, () => attempts.count(email, "ip:10.0.0.7", window, expiresAt)),
    );
    expect([...counts].sort()).toEqual([1, 2, 3, 4, 5]);
    await attempts.count(email, "ip:10.0.0.8", window, expiresAt);
    expect(await attempts.read("guess@race.test", ["ip:10.0.0.7"], ["ip:10.0.0.7", "ip:10.0.0.8"], window)).toEqual({
      lockedUntil: null,
      attempts: new Map([
        ["ip:10.0.0.7", 5],
        ["ip:10.0.0.8", 1],
      ]),
    });
    expect(await table.get(keys.loginAttempts(email, "ip:10.0.0.7", window))).toMatchObject({
      ttl: Math.floor(expiresAt.getTime() / 1000),
    });
    expect(await attempts.count(email, "ip:10.0.0.8", window, expiresAt, -1)).toBe(0);

    const until = new Date("2030-01-01T00:15:00.000Z");
    await attempts.lock(email, "ip:10.0.0.7", until);
    expect((await attempts.read(email, ["ip:10.0.0.7"], [], window)).lockedUntil).toEqual(until);
    expect((await attempts.read(email, ["ip:10.0.0.8"], [], window)).lockedUntil).toBeNull();
    expect(await table.get(keys.loginLock(email, "ip:10.0.0.7"))).toMatchObject({
      ttl: Math.floor(until.getTime() / 1000),
    });

    await attempts.clear(email, "ip:10.0.0.7", [window]);
    expect(await attempts.read(email, ["ip:10.0.0.7"], ["ip:10.0.0.7"], window)).toEqual({
      lockedUntil: null,
      attempts: new Map([["ip:10.0.0.7", 0]]),
    });
    await attempts.lock(email, "ip:10.0.0.8", until);
    await attempts.clearSubject(email);
    expect(await attempts.read(email, ["ip:10.0.0.8"], ["ip:10.0.0.8"], window)).toEqual({
      lockedUntil: null,
      attempts: new Map([["ip:10.0.0.8", 0]]),
    });
  });
});

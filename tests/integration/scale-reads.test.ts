import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analytics } from "../../functions/src/app/analytics";
import { setPhotoBibs } from "../../functions/src/app/bib-index";
import type { Deps } from "../../functions/src/app/deps";
import { removeDuplicatePhoto } from "../../functions/src/app/duplicates";
import { dashboardStats } from "../../functions/src/app/events";
import { recountEventStats, recountSlice } from "../../functions/src/app/processing";
import { storagePaths } from "../../functions/src/app/storage-paths";
import { listUsers } from "../../functions/src/app/users";
import { countsGeneration, type EventStats } from "../../functions/src/data/events";
import { newPhotoFields, type PhotoRecord } from "../../functions/src/data/photos";
import { startInProcess } from "../support/in-process";

/**
 * The reads a 100,000-photo event made slow (npm run bench:scale), now answered from counters kept
 * with the writes and from pages: the counters stay exact, and the recount that checks them
 * continues from its checkpoint when it is stopped.
 */
describe("counters and pages behind the admin's reads of a big event", () => {
  let standIns: Awaited<ReturnType<typeof startInProcess>>;
  let deps: Deps;
  let eventId: number;

  beforeAll(async () => {
    standIns = await startInProcess("Escala");
    deps = standIns.container.deps;
    eventId = standIns.eventId;
  });

  afterAll(async () => {
    await standIns?.stop();
  });

  const idOf = (n: number) => `0scale${String(n).padStart(22, "0")}`;
  const photoOf = (n: number, fields: Partial<PhotoRecord> = {}): PhotoRecord => ({
    ...newPhotoFields,
    id: idOf(n),
    eventId,
    filename: `${idOf(n)}.jpg`,
    originalFilename: `IMG_${n}.JPG`,
    originalKey: storagePaths.original(eventId, idOf(n), "jpg"),
    uploadedAt: new Date(Date.UTC(2026, 10, 29, 7, 0, 0, n)).toISOString(),
    uploadedBy: "test",
    ...fields,
  });
  const machine = (...numbers: string[]) =>
    numbers.map((number) => ({ number, confidence: 99, box: null, source: "machine" as const }));
  const now = () => deps.clock.now();

  /** A photo as the record step leaves it: successful, counted, its bibs written the app's way. */
  async function processed(n: number, bibs: string[]) {
    await deps.photos.createPending(
      photoOf(n, { processingStatus: "successful", processed: true, countedInTotal: true }),
    );
    await setPhotoBibs(deps, idOf(n), () => ({ machineBibs: machine(...bibs) }));
    await deps.events.addStats(eventId, { totalPhotos: 1, processedPhotos: 1 }, now());
  }
  const statsOf = async () => (await deps.events.stats([eventId])).get(eventId) as EventStats;
  const counters = ({ unbibbedPhotos, bibsWithPhotos, dorsalsDetected, totalPhotos, failedPhotos }: EventStats) => ({
    unbibbedPhotos,
    bibsWithPhotos,
    dorsalsDetected,
    totalPhotos,
    failedPhotos,
  });

  it("keeps the photos without a bib and the bibs with photos exact through bib changes, failures and duplicates", async () => {
    await processed(1, ["101"]);
    await processed(2, []);
    await processed(3, ["101", "102"]);
    await processed(4, []);
    expect(counters(await statsOf())).toEqual({
      unbibbedPhotos: 2,
      bibsWithPhotos: 2,
      dorsalsDetected: 3,
      totalPhotos: 4,
      failedPhotos: 0,
    });

    // A bib tagged by hand takes the photo off "Sin dorsal", once however often it is saved.
    const tag = () => ({ manualBibs: { added: ["103"], removed: [] } });
    await setPhotoBibs(deps, idOf(2), tag);
    await setPhotoBibs(deps, idOf(2), tag);
    expect(counters(await statsOf())).toMatchObject({ unbibbedPhotos: 1, bibsWithPhotos: 3, dorsalsDetected: 4 });
    // Both bibs of photo 3 removed: it is "Sin dorsal" now, and 102 has no photo left (101 keeps photo 1).
    await setPhotoBibs(deps, idOf(3), () => ({ manualBibs: { added: [], removed: ["101", "102"] } }));
    expect(counters(await statsOf())).toMatchObject({ unbibbedPhotos: 2, bibsWithPhotos: 2, dorsalsDetected: 2 });

    // A failure is on the failed list, never on "Sin dorsal".
    await deps.photos.createPending(photoOf(5, { countedInTotal: true }));
    expect(await deps.photos.markFailed(idOf(5), "No se pudo leer la imagen", now(), eventId)).toBe(true);
    await deps.events.addStats(eventId, { totalPhotos: 1, failedPhotos: 1 }, now());
    // A copy is counted, then removed by the admin: it never touched the bib counts.
    await deps.photos.createPending(photoOf(6, { countedInTotal: true }));
    expect(await deps.photos.markDuplicate(idOf(6), idOf(1), "f".repeat(64), now())).toBe(true);
    await deps.events.addStats(eventId, { totalPhotos: 1, duplicatePhotos: 1 }, now());
    await removeDuplicatePhoto(deps, eventId, idOf(6));

    const kept = counters(await statsOf());
    expect(kept).toEqual({ unbibbedPhotos: 2, bibsWithPhotos: 2, dorsalsDetected: 2, totalPhotos: 5, failedPhotos: 1 });
    // What the writes kept is what a recount from the photos and links finds.
    expect(await recountEventStats(deps, eventId, { links: true })).toEqual({ replaced: true });
    expect(counters(await statsOf())).toEqual(kept);
  });

  it("answers analytics and the dashboard from the counters and the participants' ranking", async () => {
    // 104 gets two photos, 105 one: the ranking puts 104 first, then the ties by the lower bib.
    await processed(7, ["104", "105"]);
    await processed(8, ["104"]);
    const stats = await statsOf();
    const report = await analytics(deps, { range: "24h", eventId });
    expect(report.uniqueDorsals).toBe(4);
    expect(report.topDorsals).toEqual([
      { dorsal: "104", count: 2, eventId },
      { dorsal: "101", count: 1, eventId },
      { dorsal: "103", count: 1, eventId },
      { dorsal: "105", count: 1, eventId },
    ]);
    const percent = Math.round(((stats.processedPhotos - 2) / stats.processedPhotos) * 100);
    expect(report.recognition.photosWithBibPercent).toBe(percent);
    expect((await dashboardStats(deps)).photosWithBibPercent).toBe(percent);
    // A bib's last photo gone takes it off the ranking.
    await setPhotoBibs(deps, idOf(7), () => ({ manualBibs: { added: [], removed: ["105"] } }));
    expect((await analytics(deps, { range: "24h", eventId })).topDorsals.map((top) => top.dorsal)).toEqual([
      "104",
      "101",
      "103",
    ]);
  });

  it("continues a stopped recount from its checkpoint, in the photos and in the bibs", async () => {
    // Three pages of photos and two of participants (the recount reads 200 at a time).
    for (let n = 100; n < 520; n++) {
      const bib = String(1000 + (n % 260));
      await deps.photos.createPending(
        photoOf(n, { processingStatus: "successful", processed: true, countedInTotal: true, detectedDorsals: [bib] }),
      );
      await deps.bibLinks.linkBib(eventId, bib, idOf(n), photoOf(n).uploadedAt);
    }
    await deps.events.addStats(eventId, { totalPhotos: 420, processedPhotos: 420 }, now());
    const exact = counters(await statsOf());
    // What kills leave behind: counters off, a participant's count off.
    await deps.events.addStats(eventId, { processedPhotos: 3, unbibbedPhotos: 1, bibsWithPhotos: -2 }, now());
    const participants = await deps.participants.participantCountsOf(eventId, ["1001"]);
    await deps.participants.replaceParticipantCount(eventId, "1001", 9, participants.get("1001"));

    const stopAt = <T extends unknown[], R>(call: number, read: (...args: T) => Promise<R>) => {
      let calls = 0;
      return async (...args: T) => {
        if (++calls === call) throw new Error("proceso detenido");
        return read(...args);
      };
    };
    // Stopped after the first page of photos.
    await expect(
      recountEventStats(
        { ...deps, photos: { ...deps.photos, countingPage: stopAt(2, deps.photos.countingPage) } },
        eventId,
        { links: true },
      ),
    ).rejects.toThrow("proceso detenido");
    expect(await deps.events.recountCheckpoint(eventId)).toMatchObject({ phase: "photos", step: 1 });

    // Resumed (the first page is not read again), then stopped after the first page of bibs.
    const cursors: unknown[] = [];
    await expect(
      recountEventStats(
        {
          ...deps,
          photos: {
            ...deps.photos,
            countingPage: (id, options) => {
              cursors.push(options.cursor);
              return deps.photos.countingPage(id, options);
            },
          },
          participants: {
            ...deps.participants,
            participantsPage: stopAt(2, deps.participants.participantsPage),
          },
        },
        eventId,
        { links: true },
      ),
    ).rejects.toThrow("proceso detenido");
    expect(cursors).toHaveLength(2);
    expect(cursors[0]).toBeDefined();
    expect(await deps.events.recountCheckpoint(eventId)).toMatchObject({ phase: "bibs", step: 4 });

    // A run without links finishes the one with them rather than starting over.
    expect(await recountEventStats(deps, eventId, { links: false })).toEqual({ replaced: true });
    expect(await deps.events.recountCheckpoint(eventId)).toBeUndefined();
    const recounted = await statsOf();
    expect(counters(recounted)).toEqual(exact);
    expect(recounted.processedPhotos).toBe(exact.totalPhotos - exact.failedPhotos);
    expect(recounted.countsGeneration).toBe(countsGeneration);
    expect(await deps.participants.participantCountsOf(eventId, ["1001"])).toEqual(participants);
  });

  it("recounts in the workflow's time slices: each ends at a checkpoint, the last one exact", async () => {
    const exact = counters(await statsOf());
    await deps.events.addStats(eventId, { processedPhotos: 2, unbibbedPhotos: 3 }, now());
    // A slice with no time left stops after its first page; the workflow calls it again until done.
    let slices = 0;
    for (let done = false; !done; slices++) ({ done } = await recountSlice(deps, { eventId }, 0));
    // Three pages of photos, two of participants, then the counters replaced.
    expect(slices).toBe(6);
    expect(counters(await statsOf())).toEqual(exact);
    expect(await deps.events.recountCheckpoint(eventId)).toBeUndefined();
  });

  it("stops a recount whose checkpoint another run moved on, changing nothing more", async () => {
    const stats = await statsOf();
    let other = false;
    const racing: Deps = {
      ...deps,
      photos: {
        ...deps.photos,
        countingPage: async (id, options) => {
          // Another run resumes the same recount and saves its own next page first.
          if (!other) {
            other = true;
            const checkpoint = await deps.events.recountCheckpoint(id);
            if (checkpoint)
              await deps.events.saveRecountCheckpoint(
                id,
                { ...checkpoint, step: checkpoint.step + 1 },
                checkpoint.step,
              );
          }
          return deps.photos.countingPage(id, options);
        },
      },
    };
    // A first page to leave a checkpoint behind.
    await expect(
      recountEventStats(
        {
          ...deps,
          photos: {
            ...deps.photos,
            countingPage: async (id, options) => {
              if (options.cursor) throw new Error("proceso detenido");
              return deps.photos.countingPage(id, options);
            },
          },
        },
        eventId,
        { links: false },
      ),
    ).rejects.toThrow("proceso detenido");
    expect(await recountEventStats(racing, eventId, { links: false })).toEqual({ replaced: false });
    expect((await statsOf()).changesAtRecount).toBe(stats.changesAtRecount);
    await deps.events.clearRecountCheckpoint(eventId);
  });

  it("pages the users list, newest first, to the last page", async () => {
    for (const n of [1, 2, 3]) {
      await deps.users.create({
        email: `atleta${n}@example.co`,
        passwordHash: "x",
        role: "athlete",
        name: `Atleta ${n}`,
        assignedEventId: null,
      });
      // Listed by creation time: each account a moment after the last.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const emails: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listUsers(deps, { limit: 2, cursor });
      expect(page.users.length).toBeLessThanOrEqual(2);
      emails.push(...page.users.map((user) => user.email));
      cursor = page.cursor ?? undefined;
    } while (cursor);
    const all = await deps.users.list();
    expect(emails).toEqual(all.map((user) => user.email).reverse());
    expect(emails.slice(0, 3)).toEqual(["atleta3@example.co", "atleta2@example.co", "atleta1@example.co"]);
  });
});

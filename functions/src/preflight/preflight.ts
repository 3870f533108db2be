import { normaliseBib, type PhotoDto } from "@dorsal/shared";
import { api, type EndpointSpec, pathFor, type RequestOf, type ResponseOf } from "@dorsal/shared/contract";

/**
 * The preflight: a probe pushed through every stage a race-day photo goes through, over the
 * public HTTP API exactly as the browser uses it (issue 21). Each check says GREEN, YELLOW or RED,
 * how long it took and what it saw; a RED stops the checks that depend on it, and the probe event
 * is removed whatever happened once it exists.
 */

export type CheckStatus = "GREEN" | "YELLOW" | "RED";

export interface CheckResult {
  name: string;
  status: CheckStatus;
  ms: number;
  detail: string;
}

export interface PreflightReport {
  status: CheckStatus;
  checks: CheckResult[];
}

export interface PreflightOptions {
  /** Where Dorsal answers: `http://localhost:3000`, or the deployed SiteUrl. */
  url: string;
  email: string;
  password: string;
  /** A JPEG whose bib is `probeBib`, worn below a face (probe-photo.ts makes one). */
  probeImage: Buffer;
  probeBib: string;
  /** A ZIP holding one other JPEG (a different bib, so it is not a duplicate of the first). */
  probeZip: Buffer;
  /** How long the pipeline may take with the probe photo. */
  pipelineTimeoutMs?: number;
  /** Told each check as it ends, for a live report; the next check waits for it (a save must not overtake another). */
  onCheck?: (check: CheckResult) => void | Promise<void>;
}

/** A check that failed: its message is the RED check's detail. */
class CheckFailed extends Error {}

/** What a check that did not fail saw: GREEN with this detail, or a status of its own. */
type Outcome = string | { status: Exclude<CheckStatus, "RED">; detail: string };

const pollIntervalMs = 500;
const probeFilename = "preflight.jpg";
/** Spec's SLA: a photo searchable within a minute of its upload; slower is worth a look (YELLOW). */
const slowPipelineMs = 60_000;

export async function runPreflight(options: PreflightOptions): Promise<PreflightReport> {
  const checks: CheckResult[] = [];
  let token: string | undefined;

  async function call<E extends EndpointSpec>(endpoint: E, request: RequestOf<E>): Promise<ResponseOf<E>> {
    const { params, query, body } = request as {
      params?: Record<string, string | number>;
      query?: object;
      body?: unknown;
    };
    const url = new URL(pathFor(endpoint, params), options.url);
    for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (body !== undefined && !(body instanceof FormData)) headers["content-type"] = "application/json";
    const payload = body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, { method: endpoint.method, headers, ...(payload ? { body: payload } : {}) });
    const text = await response.text();
    if (!response.ok) {
      const reason = (() => {
        try {
          return (JSON.parse(text) as { error?: string }).error ?? text;
        } catch {
          return text;
        }
      })();
      throw new CheckFailed(`${endpoint.method} ${endpoint.path}: ${response.status} ${reason}`.trim());
    }
    return (text ? JSON.parse(text) : undefined) as ResponseOf<E>;
  }

  /** Runs one check; false when it was RED, so the caller stops what depends on it. */
  async function check(name: string, run: () => Promise<Outcome>) {
    const started = performance.now();
    let result: Omit<CheckResult, "ms">;
    try {
      const outcome = await run();
      result = typeof outcome === "string" ? { name, status: "GREEN", detail: outcome } : { name, ...outcome };
    } catch (error) {
      const detail = error instanceof CheckFailed ? error.message : `error inesperado: ${String(error)}`;
      result = { name, status: "RED", detail };
    }
    const done = { name, status: result.status, ms: Math.round(performance.now() - started), detail: result.detail };
    checks.push(done);
    await options.onCheck?.(done);
    return done.status !== "RED";
  }

  let eventId: number | undefined;
  let photo: PhotoDto | undefined;
  const bib = normaliseBib(options.probeBib);
  const probeEvent = () => ({ id: eventId as number });

  const steps: [string, () => Promise<Outcome>][] = [
    [
      "api",
      async () => {
        await call(api.settings.get, {});
        return `${options.url} responde`;
      },
    ],
    [
      "signIn",
      async () => {
        const session = await call(api.auth.login, { body: { email: options.email, password: options.password } });
        if (session.user.role !== "admin") throw new CheckFailed(`${options.email} no es administrador`);
        token = session.token;
        return `sesión iniciada como ${session.user.email}`;
      },
    ],
    [
      "probeEvent",
      async () => {
        const now = new Date().toISOString();
        const event = await call(api.events.create, {
          body: { name: `Preflight ${now}`, date: now.slice(0, 10), unlisted: true },
        });
        eventId = event.id;
        return `evento ${event.id} (oculto al público)`;
      },
    ],
    [
      "upload",
      async () => {
        const form = new FormData();
        form.set("eventId", String(eventId));
        form.append("photos", new Blob([new Uint8Array(options.probeImage)], { type: "image/jpeg" }), probeFilename);
        const uploaded = await call(api.photos.upload, { body: form });
        if (uploaded.uploaded !== 1)
          throw new CheckFailed(`se subieron ${uploaded.uploaded} de 1: ${uploaded.message}`);
        return `${options.probeImage.length} bytes por ${api.photos.upload.path}`;
      },
    ],
    [
      "pipeline",
      async () => {
        const timeoutMs = options.pipelineTimeoutMs ?? 120_000;
        const started = Date.now();
        for (;;) {
          const page = await call(api.photos.eventPhotos, { params: probeEvent(), query: { limit: 10 } });
          photo = page.photos.find((candidate) => candidate.originalFilename === probeFilename);
          if (photo?.processingStatus === "failed") throw new CheckFailed(`la foto falló: ${photo.failureReason}`);
          const waited = Date.now() - started;
          if (photo?.processed) {
            const detail = `buscable ${waited} ms después de la subida`;
            return waited > slowPipelineMs
              ? { status: "YELLOW", detail: `${detail} (más de ${slowPipelineMs} ms)` }
              : detail;
          }
          if (waited > timeoutMs) {
            throw new CheckFailed(`sin procesar después de ${timeoutMs} ms (${photo?.processingStatus ?? "sin foto"})`);
          }
          await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
        }
      },
    ],
    [
      "zip",
      async () => {
        const form = new FormData();
        form.set("eventId", String(eventId));
        form.append(
          "zipFile",
          new Blob([new Uint8Array(options.probeZip)], { type: "application/zip" }),
          "preflight.zip",
        );
        const { batchId } = await call(api.photos.uploadZip, { body: form });
        const timeoutMs = options.pipelineTimeoutMs ?? 120_000;
        const started = Date.now();
        for (;;) {
          const batch = await call(api.photos.zipBatchStatus, { params: { batchId } });
          if (batch.status === "error") throw new CheckFailed(`la importación del ZIP falló: ${batch.error}`);
          if (batch.skippedFiles > 0) {
            throw new CheckFailed(
              `la foto del ZIP se omitió: ${batch.skipped.map((entry) => entry.reason).join("; ")}`,
            );
          }
          if (batch.status === "completed")
            return `extraídas y procesadas ${batch.processedFiles} de ${batch.totalFiles}`;
          if (Date.now() - started > timeoutMs) {
            throw new CheckFailed(`la importación del ZIP seguía en ${batch.status} después de ${timeoutMs} ms`);
          }
          await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
        }
      },
    ],
    [
      "bibRead",
      async () => {
        const read = photo?.detectedDorsals ?? [];
        if (!read.map(normaliseBib).includes(bib)) throw new CheckFailed(`se leyó [${read.join(", ")}], no ${bib}`);
        return `se leyó ${bib}`;
      },
    ],
    [
      "faces",
      async () => {
        // The event's counters add up the faces each photo's detect step found; only the probe photo has one.
        const figures = await call(api.admin.analytics, { query: { eventId: probeEvent().id } });
        const found = figures.recognition.facesDetected;
        if (found < 1) throw new CheckFailed("no se encontró la cara de la foto de prueba");
        return `${found === 1 ? "se encontró 1 cara" : `se encontraron ${found} caras`} en las fotos de prueba`;
      },
    ],
    [
      "search",
      async () => {
        const found = await call(api.photos.search, { query: { eventId: probeEvent().id, dorsalNumber: bib } });
        const probe = found.photos.find((candidate) => candidate.id === photo?.id);
        if (!probe) throw new CheckFailed(`buscar ${bib} encontró ${found.totalFound} fotos, ninguna es la de prueba`);
        photo = probe;
        return `el dorsal ${bib} encuentra la foto de prueba`;
      },
    ],
    [
      "images",
      async () => {
        const answers = await Promise.all(
          Object.entries({ miniatura: photo?.thumbnailUrl, web: photo?.webUrl }).map(async ([kind, url]) => {
            if (!url) throw new CheckFailed(`sin URL de ${kind}`);
            const response = await fetch(new URL(url, options.url));
            await response.arrayBuffer();
            const type = response.headers.get("content-type") ?? "";
            if (!response.ok || !type.startsWith("image/")) {
              throw new CheckFailed(`la URL de ${kind} respondió ${response.status} ${type}`);
            }
            return `${kind} ${response.status}`;
          }),
        );
        return `las URLs firmadas responden: ${answers.join(", ")}`;
      },
    ],
    [
      "counters",
      async () => {
        const counters = await call(api.admin.processing, { params: probeEvent() });
        if (counters.totalPhotos !== 2 || counters.processedPhotos !== 2) {
          throw new CheckFailed(
            `el evento cuenta ${counters.processedPhotos} procesadas de ${counters.totalPhotos}, no 2 de 2`,
          );
        }
        return "2 procesadas de 2 (la subida y el ZIP)";
      },
    ],
  ];
  for (const [name, run] of steps) if (!(await check(name, run))) break;

  if (eventId !== undefined) {
    await check("cleanup", async () => {
      await call(api.events.remove, { params: probeEvent(), body: { adminPassword: options.password } });
      // The deletion runs in the background: the probe is removed once its workflow has finished.
      const timeoutMs = options.pipelineTimeoutMs ?? 120_000;
      const started = Date.now();
      for (;;) {
        const deletion = (await call(api.events.deletions, {})).find((candidate) => candidate.eventId === eventId);
        if (deletion?.status === "done") {
          return `evento ${eventId} eliminado: ${deletion.deleted.photos} fotos y ${deletion.deleted.objects} archivos`;
        }
        if (Date.now() - started > timeoutMs) {
          throw new CheckFailed(`la eliminación del evento ${eventId} no terminó en ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
      }
    });
  }
  const status: CheckStatus = checks.some((c) => c.status === "RED")
    ? "RED"
    : checks.some((c) => c.status === "YELLOW")
      ? "YELLOW"
      : "GREEN";
  return { status, checks };
}

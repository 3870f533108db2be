import { getHeapStatistics } from "node:v8";
import {
  formatPrice,
  type PreflightCheckDto,
  type PreflightCheckName,
  type PreflightRunDto,
  type PreflightTrigger,
  preflightCheckNames,
  worstStatus,
} from "@dorsal/shared";
import type { Deps } from "../app/deps";
import { hashPassword } from "../app/passwords";
import { rekognitionDefaultTps } from "../pipeline/definition";
import type { PlatformQuotas } from "../ports/preflight";
import { type CheckResult, runPreflight } from "./preflight";
import { makeBibPhoto, zipOf } from "./probe-photo";
import { probePortraitJpeg } from "./probe-portrait";

/**
 * A preflight run made by the server itself (issue 21): from /preflight, on a schedule, or after
 * a deploy. The probe goes through the public API like any browser's requests, signed in as a
 * temporary admin made for the run and removed after it; then the checks only the server can
 * make: the payment keys, the platform's quotas, the chosen event and the process itself.
 */

type Outcome = Pick<PreflightCheckDto, "status" | "detail">;

/** Lambda's minimum of unreserved executions is 100; the API, unzip and starter share them. */
const comfortableUnreserved = 200;
const heapWarningShare = 0.85;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Records a new run; undefined when another one is still going (runs never overlap, unless `force`). */
export async function recordPreflightRun(
  deps: Deps,
  input: { trigger: PreflightTrigger; eventId: number | null; requestedBy: string | null; force?: boolean },
): Promise<PreflightRunDto | undefined> {
  const run: PreflightRunDto = {
    id: deps.ids.newId(),
    trigger: input.trigger,
    eventId: input.eventId,
    requestedBy: input.requestedBy,
    state: "running",
    status: null,
    startedAt: deps.clock.now().toISOString(),
    endedAt: null,
    totalMs: null,
    checks: [],
    expectedChecks: preflightCheckNames.length - (input.eventId === null ? 1 : 0),
    systemInfo: null,
  };
  if (!(await deps.preflightRuns.lock(run.id)) && !input.force) return undefined;
  await deps.preflightRuns.save(run);
  return run;
}

/**
 * Runs a recorded run against the site at `siteUrl`, saving each check as it ends so the screen
 * follows along. Always ends the run and hands the lock back, whatever fails.
 */
export async function executePreflightRun(
  deps: Deps,
  runId: string,
  options: { siteUrl: string; pipelineTimeoutMs: number },
): Promise<PreflightRunDto> {
  const recorded = await deps.preflightRuns.get(runId);
  if (!recorded) throw new Error(`preflight run ${runId} is not recorded`);
  let run = recorded;
  const started = deps.clock.now();
  const record = async (check: Omit<PreflightCheckDto, "at">) => {
    const checks = [...run.checks, { ...check, at: deps.clock.now().toISOString() }];
    run = { ...run, checks, status: worstStatus(checks.map((c) => c.status)) };
    await deps.preflightRuns.save(run);
  };
  const timed = async (name: PreflightCheckName, measure: () => Promise<Outcome>) => {
    const from = performance.now();
    const outcome = await measure().catch(
      (error: unknown): Outcome => ({ status: "RED", detail: `error inesperado: ${String(error)}` }),
    );
    await record({ name, ...outcome, ms: Math.round(performance.now() - from) });
  };

  try {
    const admin = await temporaryAdmin(deps, runId);
    try {
      // A five-digit bib no race is likely to print, another each run; the ZIP's photo has the next one.
      const probeBib = 90_000 + Math.floor(Math.random() * 9_999);
      await runPreflight({
        url: options.siteUrl,
        email: admin.email,
        password: admin.password,
        probeBib: String(probeBib),
        probeImage: await makeBibPhoto(String(probeBib), { portrait: probePortraitJpeg() }),
        probeZip: await zipOf("preflight-zip.jpg", await makeBibPhoto(String(probeBib + 1))),
        pipelineTimeoutMs: options.pipelineTimeoutMs,
        onCheck: (check) => record(asDto(check)),
      });
    } finally {
      await deps.users.delete(admin.user);
      deps.tokens.forget(admin.user.id);
    }
    await timed("payments", () => paymentsCheck(deps));
    await timed("quotas", async () => quotasCheck(await deps.quotas.read()));
    if (run.eventId !== null) await timed("event", () => eventCheck(deps, run.eventId as number));
    await timed("system", async () => systemCheck());
  } catch (error) {
    deps.logger.error("preflight run stopped", error);
    await record({ name: "system", status: "RED", ms: 0, detail: `la verificación se detuvo: ${String(error)}` });
  } finally {
    const ended = deps.clock.now();
    const { rss, heapUsed, external } = process.memoryUsage();
    run = {
      ...run,
      state: "done",
      status: worstStatus(run.checks.map((check) => check.status)) ?? "RED",
      endedAt: ended.toISOString(),
      totalMs: ended.getTime() - started.getTime(),
      systemInfo: {
        memory: { rss, heapUsed, external },
        nodeVersion: process.version,
        environment: deps.config.DORSAL_RUNTIME,
      },
    };
    await deps.preflightRuns.save(run);
    await deps.preflightRuns.unlock(runId);
  }
  return run;
}

const asDto = (check: CheckResult): Omit<PreflightCheckDto, "at"> => ({
  ...check,
  name: (preflightCheckNames as readonly string[]).includes(check.name) ? (check.name as PreflightCheckName) : "api",
});

/** Reserved for documentation and tests (RFC 2606): no real mailbox can have it. */
const temporaryAdminDomain = "dorsal.invalid";
const temporaryAdminEmail = /^preflight-([0-9a-z-]+)@dorsal\.invalid$/;

/**
 * An admin account for this run only: random password, never shown or logged, deleted when the
 * run ends. The run signs in as any admin would, so sign-in itself is checked.
 */
async function temporaryAdmin(deps: Deps, runId: string) {
  // A run whose process was killed left its admin behind: one whose run is no longer going goes.
  for (const user of await deps.users.list()) {
    const leftBy = temporaryAdminEmail.exec(user.email)?.[1];
    if (!leftBy || leftBy === runId || (await deps.preflightRuns.get(leftBy))?.state === "running") continue;
    await deps.users.delete(user);
    deps.tokens.forget(user.id);
  }
  const email = `preflight-${runId}@${temporaryAdminDomain}`;
  const password = deps.ids.newToken();
  const user = await deps.users.create({
    email,
    passwordHash: await hashPassword(password),
    role: "admin",
    name: "Verificación previa (temporal)",
    assignedEventId: null,
  });
  if (!user) throw new Error(`the temporary admin ${email} exists already`);
  return { user, email, password };
}

async function paymentsCheck(deps: Deps): Promise<Outcome> {
  try {
    const { environment } = await deps.payments.selfCheck();
    const detail = "llaves de Wompi cargadas, un evento firmado con ellas se verifica y la API de Wompi responde";
    if (environment === "prod") return { status: "GREEN", detail: `${detail} (producción)` };
    // Locally the payment sandbox is the point; on AWS test keys mean nobody really pays.
    return deps.config.DORSAL_RUNTIME === "local"
      ? { status: "GREEN", detail: `${detail} (llaves de prueba)` }
      : { status: "YELLOW", detail: `${detail}, pero son llaves de prueba: los pagos no son reales` };
  } catch (error) {
    return {
      status: "YELLOW",
      detail: `pagos no disponibles: la compra de fotos responde 503 (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

function quotasCheck(quotas: PlatformQuotas): Outcome {
  if (quotas.platform === "local") {
    return {
      status: "GREEN",
      detail: `runtime local, sin cuotas de AWS: ${quotas.pipelineConcurrency} fotos a la vez en el pipeline, ${quotas.ocrWorkers} hilos de reconocimiento`,
    };
  }
  const { lambda, rekognitionTps } = quotas;
  const warnings: string[] = [];
  if (lambda.unreserved < comfortableUnreserved) {
    warnings.push(
      `solo ${lambda.unreserved} ejecuciones de Lambda sin reservar para la API y la importación (pide más en Service Quotas)`,
    );
  }
  for (const [operation, tps] of Object.entries(rekognitionTps)) {
    if (tps !== null && tps < rekognitionDefaultTps) {
      warnings.push(`Rekognition ${operation}: ${tps} TPS, menos de los ${rekognitionDefaultTps} que supone detect`);
    }
  }
  const tps = (value: number | null) => (value === null ? "desconocido" : `${value} TPS`);
  const figures =
    `Lambda: límite ${lambda.limit}, ${lambda.unreserved} sin reservar; ` +
    `Rekognition DetectText ${tps(rekognitionTps.detectText)}, DetectFaces ${tps(rekognitionTps.detectFaces)}`;
  return warnings.length > 0
    ? { status: "YELLOW", detail: `${figures}. ${warnings.join("; ")}` }
    : { status: "GREEN", detail: figures };
}

/** The chosen event's readiness: its photos, and a price the gateway can charge. */
export async function eventCheck(deps: Deps, eventId: number): Promise<Outcome> {
  const [event, stats, pricing] = await Promise.all([
    deps.events.get(eventId),
    deps.events.stats([eventId]),
    deps.pricing.get(eventId),
  ]);
  if (!event) return { status: "RED", detail: `el evento ${eventId} no existe` };
  const counts = stats.get(eventId);
  const failed = counts?.failedPhotos ?? 0;
  // A pricing saved before only pesos were offered may be in another currency; checkout refuses it.
  const inPesos = pricing.currency === "COP";
  const price = inPesos ? formatPrice(pricing.basePrice) : `${pricing.basePrice} ${pricing.currency}`;
  const detail =
    `«${event.name}»: ${counts?.totalPhotos ?? 0} fotos, ${counts?.processedPhotos ?? 0} procesadas, ` +
    `${failed} fallidas; precio ${price}${pricing.configured ? "" : " (el predeterminado)"}`;
  const warnings: string[] = [];
  if (!inPesos)
    warnings.push(`la pasarela de pagos no cobra en ${pricing.currency}: guarda sus precios en pesos en Precios`);
  if (failed > 0) warnings.push("revisa las fallidas en /processing");
  if (warnings.length > 0) return { status: "YELLOW", detail: `${detail}; ${warnings.join("; ")}` };
  return { status: "GREEN", detail };
}

function systemCheck(): Outcome {
  const { rss, heapUsed, external } = process.memoryUsage();
  const limit = getHeapStatistics().heap_size_limit;
  const detail = `memoria: ${mb(rss)} MB RSS, ${mb(heapUsed)} MB de heap (límite ${mb(limit)} MB), ${mb(external)} MB externa; Node ${process.version}`;
  return heapUsed > limit * heapWarningShare
    ? { status: "YELLOW", detail: `${detail}; el heap está cerca de su límite` }
    : { status: "GREEN", detail };
}

import type { Context } from "aws-lambda";
import { describe, expect, it } from "vitest";
import type { Container } from "../compose";
import type { Logger } from "../logger";
import { preflightRedLogMessage } from "../preflight/definition";
import { recordPreflightRun } from "../preflight/run";
import { memoryContainer } from "../testing/memory-container";
import { createPreflightHandler } from "./preflight";

/** Nothing answers here: the probe's first check is RED at once, which is what these tests need. */
const deadSite = "http://127.0.0.1:9";
const context = {} as Context;

async function prepare(options: { rollingBack?: boolean } = {}) {
  const container = await memoryContainer();
  const logged: { level: string; message: string }[] = [];
  const logger: Logger = {
    debug: () => {},
    info: (message) => logged.push({ level: "info", message }),
    warn: (message) => logged.push({ level: "warn", message }),
    error: (message) => logged.push({ level: "error", message }),
  };
  const load = async (): Promise<Container> => ({
    ...container,
    logger,
    ...(options.rollingBack === undefined ? {} : { stackRollingBack: async () => options.rollingBack === true }),
  });
  const handler = createPreflightHandler(load, { siteUrl: deadSite, pipelineTimeoutMs: 1_000 });
  return { deps: container.deps, handler, logged };
}

describe("the preflight function (issue 21): deploys, schedules and admins' runs", () => {
  it("fails a deploy whose run is RED, naming the checks that failed", async () => {
    const { deps, handler, logged } = await prepare();

    const outcome = handler({ type: "whatever CDK's trigger sends" }, context);

    await expect(outcome).rejects.toThrow(/^Preflight RED after the deploy: api: error inesperado/);
    expect(logged.filter((line) => line.message === preflightRedLogMessage)).toHaveLength(1);
    const [run] = (await deps.preflightRuns.latest(5)) ?? [];
    expect(run).toMatchObject({ trigger: "deploy", state: "done", status: "RED", requestedBy: null });
    // The temporary admin the run signed in with is gone.
    expect((await deps.users.list()).filter((user) => user.email.startsWith("preflight-"))).toEqual([]);
  });

  it("logs a scheduled RED run for the alarm without failing, and hands the lock back", async () => {
    const { deps, handler, logged } = await prepare();

    const first = await handler({ trigger: "schedule" }, context);
    const second = await handler({ trigger: "schedule" }, context);

    expect(first).toMatchObject({ status: "RED" });
    expect(second).toMatchObject({ status: "RED" });
    expect(logged.filter((line) => line.message === preflightRedLogMessage)).toHaveLength(2);
    const runs = await deps.preflightRuns.latest(5);
    expect(runs.map((run) => `${run.trigger} ${run.state}`)).toEqual(["schedule done", "schedule done"]);
    // Each check is saved with its time, and the whole run with the process's figures.
    expect(runs[0]?.checks.map((check) => check.name)).toEqual(["api", "payments", "quotas", "system"]);
    expect(runs[0]?.checks.every((check) => !Number.isNaN(Date.parse(check.at)))).toBe(true);
    expect(runs[0]?.systemInfo?.environment).toBe("local");
    // This composition has no payment keys: checkout would answer 503, which the run says.
    expect(runs[0]?.checks.find((check) => check.name === "payments")).toMatchObject({
      status: "YELLOW",
      detail: expect.stringMatching(/^pagos no disponibles: la compra de fotos responde 503/),
    });
  });

  it("skips a scheduled run while another is going, but not a deploy's", async () => {
    const { deps, handler } = await prepare();
    const going = await recordPreflightRun(deps, { trigger: "manual", eventId: null, requestedBy: "admin@x.co" });
    expect(going).toBeDefined();

    const scheduled = await handler({ trigger: "schedule" }, context);
    const deployed = handler({ trigger: "deploy" }, context);

    expect(scheduled).toEqual({ status: "SKIPPED" });
    await expect(deployed).rejects.toThrow(/Preflight RED/);
    // The deploy's run did not take the lock from the run still going; that one hands it back when it ends.
    expect(await recordPreflightRun(deps, { trigger: "manual", eventId: null, requestedBy: null })).toBeUndefined();
    await handler({ runId: going?.id }, context);
    expect(await recordPreflightRun(deps, { trigger: "manual", eventId: null, requestedBy: null })).toBeDefined();
  });

  it("runs the run an admin recorded, with the chosen event's readiness", async () => {
    const { deps, handler } = await prepare();
    const run = await recordPreflightRun(deps, { trigger: "manual", eventId: 404, requestedBy: "admin@x.co" });

    await handler({ runId: run?.id }, context);

    const ended = await deps.preflightRuns.get(run?.id ?? "");
    expect(ended?.expectedChecks).toBe(16);
    expect(ended?.checks.find((check) => check.name === "event")).toMatchObject({
      status: "RED",
      detail: "el evento 404 no existe",
    });
  });

  it("skips a deploy's run while the stack rolls back, so a RED cannot make the rollback fail", async () => {
    const rolling = await prepare({ rollingBack: true });
    const settled = await prepare({ rollingBack: false });

    const skipped = await rolling.handler({}, context);
    const ran = settled.handler({}, context);

    expect(skipped).toEqual({ status: "SKIPPED" });
    expect(await rolling.deps.preflightRuns.latest(5)).toEqual([]);
    await expect(ran).rejects.toThrow(/Preflight RED after the deploy/);
  });

  it("removes the temporary admin a killed run left behind, but not one whose run is still going", async () => {
    const { deps, handler } = await prepare();
    const going = await recordPreflightRun(deps, { trigger: "manual", eventId: null, requestedBy: "admin@x.co" });
    const leftover = { passwordHash: "x", role: "admin" as const, name: "Verificación previa (temporal)" };
    await deps.users.create({ ...leftover, email: "preflight-0000000000killed@dorsal.invalid", assignedEventId: null });
    await deps.users.create({ ...leftover, email: `preflight-${going?.id}@dorsal.invalid`, assignedEventId: null });

    await expect(handler({ trigger: "deploy" }, context)).rejects.toThrow(/Preflight RED/);

    const left = (await deps.users.list()).map((user) => user.email);
    expect(left).toEqual([`preflight-${going?.id}@dorsal.invalid`]);
  });
});

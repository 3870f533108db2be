import { z } from "zod";
import { type ContainerLoader, getContainer } from "../compose";
import {
  type PreflightInvocation,
  preflightPipelineTimeoutSeconds,
  preflightRedLogMessage,
} from "../preflight/definition";
import { executePreflightRun, recordPreflightRun } from "../preflight/run";
import { lambdaEntry } from "./middy";

const invocation = z.union([
  z.object({ runId: z.string().min(1) }),
  z.object({ trigger: z.enum(["schedule", "deploy"]) }),
]);

/**
 * What the preflight function was sent: a run an admin recorded, the schedule's `{trigger:
 * "schedule"}`, or anything else — CDK's trigger sends its own payload — as a deploy's run.
 */
function parseInvocation(event: unknown): PreflightInvocation {
  const parsed = invocation.safeParse(event);
  return parsed.success ? parsed.data : { trigger: "deploy" };
}

export interface PreflightHandlerOptions {
  /** Where the probe reaches the site: the runtime's own address locally, the site's domain on AWS. */
  siteUrl?: string;
  pipelineTimeoutMs?: number;
}

/**
 * The preflight function (infra/lib/preflight.ts): runs one preflight and logs its outcome. A
 * deploy's run that ends RED throws, so CDK's trigger fails the deploy; a scheduled one logs
 * `preflightRedLogMessage`, which the stack's alarm counts. While the stack rolls back (the
 * trigger is updated back too) a deploy's run is skipped: it would check a stack half undone.
 */
export function createPreflightHandler(load: ContainerLoader = getContainer, options: PreflightHandlerOptions = {}) {
  return lambdaEntry(
    "preflight",
    async (event: unknown) => {
      const { deps, logger, stackRollingBack } = await load();
      const request = parseInvocation(event);
      if ("trigger" in request && request.trigger === "deploy" && (await stackRollingBack?.())) {
        logger.info("preflight skipped: the stack is rolling back");
        return { status: "SKIPPED" };
      }
      const run =
        "runId" in request
          ? { id: request.runId }
          : await recordPreflightRun(deps, {
              trigger: request.trigger,
              eventId: null,
              requestedBy: null,
              // A deploy checks what it deployed even while another run is going.
              force: request.trigger === "deploy",
            });
      if (!run) {
        logger.info("preflight skipped: another run is going");
        return { status: "SKIPPED" };
      }
      const ended = await executePreflightRun(deps, run.id, {
        siteUrl: options.siteUrl ?? deps.siteOrigin({}),
        pipelineTimeoutMs: options.pipelineTimeoutMs ?? preflightPipelineTimeoutSeconds * 1000,
      });
      const summary = {
        runId: ended.id,
        trigger: ended.trigger,
        status: ended.status,
        totalMs: ended.totalMs,
        checks: ended.checks.map(({ name, status, detail }) => `${status} ${name}: ${detail}`),
      };
      if (ended.status !== "RED") {
        logger.info(`preflight ${ended.status}`, summary);
        return { status: ended.status, runId: ended.id };
      }
      logger.error(preflightRedLogMessage, summary);
      if (ended.trigger === "deploy") {
        const failed = ended.checks.filter((check) => check.status === "RED");
        throw new Error(
          `Preflight RED after the deploy: ${failed.map(({ name, detail }) => `${name}: ${detail}`).join("; ")}`,
        );
      }
      return { status: ended.status, runId: ended.id };
    },
    load,
  );
}

export const handler = createPreflightHandler();

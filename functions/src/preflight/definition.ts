import type { PreflightTrigger } from "@dorsal/shared";

/**
 * What the preflight function and the stack that deploys it agree on (infra/lib/preflight.ts):
 * the payloads it is invoked with and the log line its alarm counts.
 */

/** What the function is sent: a run already recorded by an admin (`runId`), or a trigger of its own. */
export type PreflightInvocation = { runId: string } | { trigger: Exclude<PreflightTrigger, "manual"> };

/** Logged once per run that ended RED; a metric filter on it feeds the stack's preflight alarm. */
export const preflightRedLogMessage = "preflight RED";

/** How long the probe photos may take through the pipeline before the run calls it RED. */
export const preflightPipelineTimeoutSeconds = 300;

/**
 * Lambda's maximum: sign-in, two photos through the pipeline (up to the timeout above each) and
 * the cleanup fit well within it.
 */
export const preflightFunctionTimeoutSeconds = 900;

import { z } from "zod";
import { idParam } from "./api";

/**
 * The preflight (issue 21, spec §2.7 and §4): a probe pushed through every stage a race-day photo
 * goes through, plus the checks only the server can make (payment keys, quotas, the chosen event).
 */
export const preflightStatuses = ["GREEN", "YELLOW", "RED"] as const;
export type PreflightStatus = (typeof preflightStatuses)[number];

/** Who started a run: an admin from /preflight, the schedule, or `cdk deploy`. */
export const preflightTriggers = ["manual", "schedule", "deploy"] as const;
export type PreflightTrigger = (typeof preflightTriggers)[number];

/** Every check a server-side run makes, in the order it makes them (the progress bar's total). */
export const preflightCheckNames = [
  "api",
  "signIn",
  "probeEvent",
  "upload",
  "pipeline",
  "zip",
  "bibRead",
  "faces",
  "search",
  "images",
  "counters",
  "cleanup",
  "payments",
  "quotas",
  "event",
  "system",
] as const;
export type PreflightCheckName = (typeof preflightCheckNames)[number];

export interface PreflightCheckDto {
  name: PreflightCheckName;
  status: PreflightStatus;
  /** How long the check took. */
  ms: number;
  /** What it saw, in Spanish. */
  detail: string;
  /** When it ended (ISO 8601). */
  at: string;
}

export interface PreflightSystemInfo {
  /** Of the process that ran the checks (the runtime, or the preflight Lambda), in bytes. */
  memory: { rss: number; heapUsed: number; external: number };
  nodeVersion: string;
  environment: "local" | "aws";
}

export interface PreflightRunDto {
  id: string;
  trigger: PreflightTrigger;
  /** The event whose readiness was also checked, when one was chosen. */
  eventId: number | null;
  /** The admin who started it (manual runs). */
  requestedBy: string | null;
  /** `interrupted`: the process running it stopped before it ended (a restart, a timeout). */
  state: "running" | "done" | "interrupted";
  /** Worst check so far; null before the first check ends. */
  status: PreflightStatus | null;
  startedAt: string;
  endedAt: string | null;
  totalMs: number | null;
  checks: PreflightCheckDto[];
  /** How many checks the run makes in all: the progress bar's denominator. */
  expectedChecks: number;
  systemInfo: PreflightSystemInfo | null;
}

export interface PreflightRunList {
  /** Newest first. */
  runs: PreflightRunDto[];
}

export const startPreflightRequest = z.object({ eventId: idParam.optional() });
export type StartPreflightRequest = z.infer<typeof startPreflightRequest>;

export const preflightRunIdParam = z.string().regex(/^[0-9a-z-]{10,64}$/);

/** The worst of some statuses: RED over YELLOW over GREEN; null when there are none. */
export function worstStatus(statuses: readonly PreflightStatus[]): PreflightStatus | null {
  if (statuses.length === 0) return null;
  return statuses.includes("RED") ? "RED" : statuses.includes("YELLOW") ? "YELLOW" : "GREEN";
}

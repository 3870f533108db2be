import type { Config, LocalConfig } from "../config";

export type FaultPoint = NonNullable<LocalConfig["FAULT_KILL_AT"]>;

/**
 * Fault injection for the crash tests (the local runtime's FAULT_KILL_AT, never set otherwise): the
 * process dies right here, as a kill -9 or a stopped Lambda would leave it, between two writes that
 * cannot be one transaction.
 */
export function faultPoint(config: Config, point: FaultPoint): void {
  if (config.DORSAL_RUNTIME === "local" && config.FAULT_KILL_AT === point) process.kill(process.pid, "SIGKILL");
}

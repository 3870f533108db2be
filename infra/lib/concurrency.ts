import type { IConstruct } from "constructs";
import { capacity } from "./capacity";

/** `-c reservedConcurrency=false`: the pipeline functions reserve nothing (accounts below 185). */
export const reservedConcurrencyContext = "reservedConcurrency";

/** Whether this deploy reserves the pipeline's concurrency (the default) or not. */
export function reservesConcurrency(scope: IConstruct): boolean {
  const given: unknown = scope.node.tryGetContext(reservedConcurrencyContext);
  if (given === undefined || given === null || given === true || given === "true") return true;
  if (given === false || given === "false") return false;
  throw new Error(`The ${reservedConcurrencyContext} context value is true or false, not ${JSON.stringify(given)}`);
}

/** Lambda refuses a reservation that leaves fewer than this many executions unreserved. */
export const minimumUnreserved = 100;

export interface AccountConcurrency {
  /** The account's concurrent executions quota in the region. */
  limit: number;
  /** What no function has reserved. */
  unreserved: number;
  /** What Dorsal's own functions reserve already (a redeploy), 0 on a first deploy. */
  reservedByDorsal: number;
}

export interface ConcurrencyVerdict {
  ok: boolean;
  message: string;
}

/**
 * Whether Lambda will accept the pipeline's reservations in this account, said the way ops need it
 * before a deploy rather than as CloudFormation's rollback: the reservation Dorsal needs, what the
 * account has, and the two ways out.
 */
export function concurrencyVerdict(
  account: AccountConcurrency,
  needed: number = capacity.detectReservedConcurrency + capacity.variantsReservedConcurrency,
): ConcurrencyVerdict {
  const available = account.unreserved + account.reservedByDorsal - minimumUnreserved;
  const figures =
    `Lambda concurrency: the account's limit is ${account.limit}, ${account.unreserved} unreserved; ` +
    `Dorsal reserves ${needed} (detect ${capacity.detectReservedConcurrency}, variants ${capacity.variantsReservedConcurrency}) ` +
    `and Lambda keeps ${minimumUnreserved} unreserved.`;
  if (available >= needed) return { ok: true, message: `${figures} OK: ${available} can be reserved.` };
  return {
    ok: false,
    message:
      `${figures} Only ${Math.max(available, 0)} can be reserved, so the deploy would fail. Either request a limit of at least ` +
      `${needed + minimumUnreserved + account.limit - account.unreserved - account.reservedByDorsal} in Service Quotas ` +
      "(Lambda → Concurrent executions) and wait for it, or deploy without the reservations: " +
      `npx cdk deploy --all -c ${reservedConcurrencyContext}=false ` +
      "(the pipeline then shares the account's pool, and its retries absorb Rekognition's throttling).",
  };
}

import type { Clock } from "../../ports/clock";
import type { Ids } from "../../ports/ids";

/** A clock a use-case test moves by hand, so expiry and "today" are facts of the test, not of the day it runs. */
export interface ManualClock extends Clock {
  advance(milliseconds: number): void;
}

export function createManualClock(start: Date): ManualClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(milliseconds) {
      now += milliseconds;
    },
  };
}

/** Ids in creation order that a test can predict and a failure message shows plainly. */
export function createSequentialIds(): Ids {
  let next = 0;
  const sequence = () => String(++next).padStart(6, "0");
  return { newId: () => `id-${sequence()}`, newToken: () => `token-${sequence()}` };
}

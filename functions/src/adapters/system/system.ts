import { randomBytes } from "node:crypto";
import type { Clock } from "../../ports/clock";
import type { Ids } from "../../ports/ids";

/** Real time and randomness; the same in Lambda and in the local runtime. */
export const systemClock: Clock = { now: () => new Date() };

export function createIds(clock: Clock): Ids {
  return {
    newId() {
      // Time prefix keeps ids roughly sortable by creation; 80 random bits keep them unguessable.
      const time = clock.now().getTime().toString(36).padStart(9, "0");
      return `${time}${randomBytes(10).toString("hex")}`;
    },
    newToken: () => randomBytes(24).toString("base64url"),
  };
}

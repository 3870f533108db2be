import { setTimeout as sleep } from "node:timers/promises";
import { messages } from "@dorsal/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perAddressLimits } from "../../functions/src/http/abuse-limits";
import { type RunningDorsal, startDorsal } from "../support/server";

/**
 * The local runtime's mirror of AWS's limits in front of the API (npm start's default): one
 * address's code checks, then its API requests, past their minute's limit, are answered 429 in
 * Spanish with Retry-After, while the site itself still loads.
 */
describe("rate limits on the local runtime", () => {
  let dorsal: RunningDorsal;

  beforeAll(async () => {
    dorsal = await startDorsal({ env: { RATE_LIMITS: "on" } });
  });
  afterAll(async () => {
    await dorsal?.stop();
  });

  const validate = (attempt: number) =>
    fetch(`${dorsal.url}/api/download-codes/validate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      // A bib of its own each time, so the codes' own throttle (per event and bib) never locks first.
      body: JSON.stringify({ code: "NOEXISTE", eventId: 1, dorsalNumber: String(1000 + attempt) }),
    });

  it("holds back an address's code checks, then its API requests, past their minute's limits", async () => {
    let requests = 0;
    for (let attempt = 0; attempt < perAddressLimits.secretsPerAddress; attempt++) {
      // Slower than the route's own throttle (20 a second for every client), so only the address's limit counts.
      await sleep(60);
      const answer = await validate(attempt);
      requests++;
      expect(answer.status, `attempt ${attempt + 1}`).toBe(200);
      expect(await answer.json()).toMatchObject({ valid: false });
    }
    const refused = await validate(perAddressLimits.secretsPerAddress);
    requests++;
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ success: false, error: messages.tooManyRequests });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(perAddressLimits.windowSeconds);

    // Other requests of the address go on until its API limit (sent 25 at a time: well inside the minute).
    const statuses: number[] = [];
    while (requests < perAddressLimits.apiPerAddress) {
      const batch = Math.min(25, perAddressLimits.apiPerAddress - requests);
      const answers = await Promise.all(
        Array.from({ length: batch }, async () => {
          const answer = await fetch(`${dorsal.url}/api/events`);
          await answer.arrayBuffer();
          return answer.status;
        }),
      );
      statuses.push(...answers);
      requests += batch;
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const over = await fetch(`${dorsal.url}/api/events`);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await over.json()).toEqual({ success: false, error: messages.tooManyRequests });
    // The limit is the API's: the site itself still loads.
    expect((await fetch(`${dorsal.url}/`)).status).toBe(200);
  });
});

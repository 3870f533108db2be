import type { Context } from "aws-lambda";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PermanentError } from "../app/errors";
import type { Container } from "../compose";
import { permanentErrorName } from "../pipeline/definition";
import { lambdaEntry } from "./middy";

const context = (remainingMs = 60_000) =>
  ({ awsRequestId: "invocation-1", getRemainingTimeInMillis: () => remainingMs }) as Context;

function container() {
  const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  return { logger, load: async () => ({ logger }) as unknown as Container };
}

afterEach(() => vi.restoreAllMocks());

describe("the middy stack of the non-HTTP Lambda entries", () => {
  it("passes the event and context through and returns the handler's result as it is", async () => {
    const { logger, load } = container();
    const result = { photoId: "p1", bibs: ["123"] };
    const base = vi.fn(async (_event: { photoId: string }, _context: Context) => result);
    const entry = lambdaEntry("pipeline task record", base, load);
    const ctx = context();
    expect(await entry({ photoId: "p1" }, ctx)).toBe(result);
    expect(base).toHaveBeenCalledWith({ photoId: "p1" }, ctx, expect.anything());
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("logs an error with the container's logger, then rethrows the very same error, name included", async () => {
    const { logger, load } = container();
    // The state machine matches this name to skip the retries (functions/src/pipeline/definition.ts).
    const failure = new PermanentError("not an image");
    const entry = lambdaEntry("pipeline task prepare", () => Promise.reject(failure), load);
    const thrown = await entry({}, context()).catch((error: unknown) => error);
    expect(thrown).toBe(failure);
    expect((thrown as Error).name).toBe(permanentErrorName);
    expect(logger.error).toHaveBeenCalledExactlyOnceWith("pipeline task prepare failed", failure);
  });

  it("still logs, as a JSON line, when the container itself cannot be built", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const failure = new Error("Invalid configuration: TABLE_NAME");
    const load = () => Promise.reject(failure);
    const entry = lambdaEntry("counters recount", () => load(), load);
    await expect(entry({}, context())).rejects.toBe(failure);
    const [line] = stderr.mock.calls.map(([chunk]) => JSON.parse(String(chunk)));
    expect(line).toMatchObject({
      level: "error",
      message: "counters recount failed",
      data: { error: "Error", message: "Invalid configuration: TABLE_NAME" },
    });
  });

  it("does not cut the handler short before Lambda's own timeout", async () => {
    const { load } = container();
    const entry = lambdaEntry(
      "ZIP import",
      () => new Promise<string>((resolve) => setTimeout(() => resolve("done"), 30)),
      load,
    );
    // 1 ms left: middy's default would throw a TimeoutError instead of letting the work finish.
    expect(await entry({}, context(1))).toBe("done");
  });
});

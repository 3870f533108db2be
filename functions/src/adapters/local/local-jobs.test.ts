import { StateMachine } from "aws-local-stepfunctions";
import { describe, expect, it } from "vitest";
import { buildEventDeletionDefinition, type EventDeletionInput } from "../../jobs/event-deletion-definition";
import { createLogger } from "../../logger";
import { createLocalBackgroundJobs } from "./local-jobs";

type Definition = ConstructorParameters<typeof StateMachine>[0];

describe("the event-deletion workflow on the local state machine", () => {
  // The runtime skips the schema check at start-up: this is where the definition meets it.
  it("passes the Amazon States Language schema, which a broken one does not", () => {
    const definition = buildEventDeletionDefinition("arn:aws:lambda:us-east-1:000000000000:function:dorsal-slice");
    expect(() => new StateMachine(definition as Definition)).not.toThrow();
    expect(() => new StateMachine({ ...definition, StartAt: "NoSuchState" } as Definition)).toThrow(/invalid/);
  });

  it("calls the slice again until it says done, once per deletion however often it is started", async () => {
    const calls: EventDeletionInput[] = [];
    const jobs = createLocalBackgroundJobs({
      logger: createLogger("error"),
      deleteEventSlice: async (input) => {
        calls.push(input);
        return { done: calls.length === 3 };
      },
    });
    await jobs.deleteEvent({ eventId: 7, attempt: 1 });
    await jobs.deleteEvent({ eventId: 7, attempt: 1 });
    await jobs.idle();
    // Each slice gets the workflow's input, with the previous slice's answer beside it.
    expect(calls).toEqual([
      { eventId: 7, attempt: 1 },
      { eventId: 7, attempt: 1, slice: { done: false } },
      { eventId: 7, attempt: 1, slice: { done: false } },
    ]);
    await jobs.close();
  });

  it("stops between two slices on close, waiting for the one running", async () => {
    let slices = 0;
    let finishedSlices = 0;
    const jobs = createLocalBackgroundJobs({
      logger: createLogger("error"),
      deleteEventSlice: async () => {
        slices += 1;
        await new Promise((resolve) => setTimeout(resolve, 30));
        finishedSlices += 1;
        return { done: false };
      },
    });
    await jobs.deleteEvent({ eventId: 8, attempt: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await jobs.close();
    const stoppedAt = slices;
    expect(stoppedAt).toBeGreaterThan(0);
    expect(finishedSlices).toBe(stoppedAt);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(slices).toBe(stoppedAt);
    // A closed runner starts nothing more.
    await jobs.deleteEvent({ eventId: 9, attempt: 1 });
    await jobs.idle();
    expect(slices).toBe(stoppedAt);
  });
});

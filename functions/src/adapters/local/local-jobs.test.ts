import { StateMachine } from "aws-local-stepfunctions";
import { describe, expect, it } from "vitest";
import { backgroundJobs, buildJobDefinition, type EventJobInput } from "../../jobs/definitions";
import { createLogger } from "../../logger";
import { createLocalBackgroundJobs } from "./local-jobs";

type Definition = ConstructorParameters<typeof StateMachine>[0];

describe("the background jobs' workflows on the local state machine", () => {
  // The runtime skips the schema check at start-up: this is where the definitions meet it.
  it.each(backgroundJobs)("%s passes the Amazon States Language schema, which a broken one does not", (job) => {
    const definition = buildJobDefinition(job, "arn:aws:lambda:us-east-1:000000000000:function:dorsal-slice");
    expect(() => new StateMachine(definition as Definition)).not.toThrow();
    expect(() => new StateMachine({ ...definition, StartAt: "NoSuchState" } as Definition)).toThrow(/invalid/);
  });

  it("calls the slice again until it says done, once per deletion however often it is started", async () => {
    const calls: EventJobInput[] = [];
    const recounts: EventJobInput[] = [];
    const jobs = createLocalBackgroundJobs({
      logger: createLogger("error"),
      slices: {
        eventDeletion: async (input) => {
          calls.push(input);
          return { done: calls.length === 3 };
        },
        counterRecount: async (input) => {
          recounts.push(input);
          return { done: true };
        },
        faceIndexing: async () => ({ done: true }),
      },
    });
    await jobs.start("eventDeletion", { eventId: 7, attempt: 1 });
    await jobs.start("eventDeletion", { eventId: 7, attempt: 1 });
    // Another job on the same event and attempt is its own workflow.
    await jobs.start("counterRecount", { eventId: 7, attempt: 1 });
    await jobs.idle();
    expect(recounts).toEqual([{ eventId: 7, attempt: 1 }]);
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
      slices: {
        eventDeletion: async () => {
          slices += 1;
          await new Promise((resolve) => setTimeout(resolve, 30));
          finishedSlices += 1;
          return { done: false };
        },
        counterRecount: async () => ({ done: true }),
        faceIndexing: async () => ({ done: true }),
      },
    });
    await jobs.start("eventDeletion", { eventId: 8, attempt: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await jobs.close();
    const stoppedAt = slices;
    expect(stoppedAt).toBeGreaterThan(0);
    expect(finishedSlices).toBe(stoppedAt);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(slices).toBe(stoppedAt);
    // A closed runner starts nothing more.
    await jobs.start("eventDeletion", { eventId: 9, attempt: 1 });
    await jobs.idle();
    expect(slices).toBe(stoppedAt);
  });
});

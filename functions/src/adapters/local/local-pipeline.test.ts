import { StateMachine } from "aws-local-stepfunctions";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../logger";
import { buildPipelineDefinition, type PipelineTask } from "../../pipeline/definition";
import { createLocalPipeline } from "./local-pipeline";

type Calls = { step: string; input: Record<string, unknown> }[];

/** The deployed definition run by the local state machine, over steps that only say what they got. */
function pipelineOver(detectFromWorkingCopy: boolean, failing: Partial<Record<PipelineTask, string>> = {}) {
  const calls: Calls = [];
  const done: string[] = [];
  const step =
    (name: PipelineTask, result: (input: Record<string, unknown>) => unknown, ms = 0) =>
    async (input: Record<string, unknown>) => {
      calls.push({ step: name, input });
      await new Promise((resolve) => setTimeout(resolve, ms));
      done.push(name);
      // A PermanentError is not retried, so a failing step fails once.
      if (failing[name]) throw Object.assign(new Error(failing[name]), { name: "PermanentError" });
      return result(input);
    };
  const pipeline = createLocalPipeline({
    concurrency: 1,
    logger: createLogger("error"),
    tasks: {
      prepare: step("prepare", () => ({ photoId: "p1", detectFromWorkingCopy, duplicate: false })),
      // Variants takes longer than detect: what follows must wait for both.
      variants: step("variants", () => ({ webKey: "web" }), 150),
      detect: step("detect", (input) => ({ bibs: ["7"], sawVariants: "variants" in input })),
      record: step("record", () => ({ recorded: true })),
      fail: step("fail", () => ({ failed: true })),
    },
  });
  return { pipeline, calls, done };
}

describe("the pipeline definition on the local state machine", () => {
  // The runtime skips the schema check at start-up: this is where the definition meets it.
  it("passes the Amazon States Language schema, paths and ARNs included, which a broken one does not", () => {
    const definition = buildPipelineDefinition(
      (task) => `arn:aws:lambda:us-east-1:000000000000:function:dorsal-${task}`,
    );
    type Definition = ConstructorParameters<typeof StateMachine>[0];
    expect(() => new StateMachine(definition as Definition)).not.toThrow();
    const broken = { ...definition, StartAt: "NoSuchState" };
    expect(() => new StateMachine(broken as Definition)).toThrow(/invalid/);
  });

  it("reads a JPEG while its copies are made, and records it with both results", async () => {
    const { pipeline, calls, done } = pipelineOver(false);
    await pipeline.start({ bucket: "originals", key: "eventos/1/originales/p1.jpg", size: 1, version: "1" });
    await pipeline.idle();
    // Detect started before variants finished, and was given no variants.
    expect(
      calls
        .map((c) => c.step)
        .slice(0, 3)
        .sort(),
    ).toEqual(["detect", "prepare", "variants"]);
    expect(done.indexOf("detect")).toBeLessThan(done.indexOf("variants"));
    const record = calls.find((c) => c.step === "record")?.input;
    expect(record).toMatchObject({
      photo: { photoId: "p1" },
      variants: { webKey: "web" },
      detection: { bibs: ["7"], sawVariants: false },
    });
    expect(pipeline.stats()).toMatchObject({ succeeded: 1, failed: 0 });
  });

  it("reads a photo only after variants when it is to read their working copy (HEIC, Rekognition)", async () => {
    const { pipeline, calls } = pipelineOver(true);
    await pipeline.start({ bucket: "originals", key: "eventos/1/originales/p1.heic", size: 1, version: "1" });
    await pipeline.idle();
    expect(calls.map((c) => c.step)).toEqual(["prepare", "variants", "detect", "record"]);
    expect(calls.find((c) => c.step === "detect")?.input).toMatchObject({ variants: { webKey: "web" } });
  });

  it("fails a photo whose reading failed only once its copies are done, with the reading's error", async () => {
    const { pipeline, calls, done } = pipelineOver(false, { detect: "no se pudo leer" });
    await pipeline.start({ bucket: "originals", key: "eventos/1/originales/p1.jpg", size: 1, version: "1" });
    await pipeline.idle();
    expect(done).toEqual(["prepare", "detect", "variants", "fail"]);
    expect(calls.at(-1)?.input).toMatchObject({ error: { Error: "PermanentError", Cause: "no se pudo leer" } });
  });

  it("keeps variants' error when both sides fail (an unreadable photo)", async () => {
    const { pipeline, calls } = pipelineOver(false, { detect: "motor", variants: "La foto no se puede leer" });
    await pipeline.start({ bucket: "originals", key: "eventos/1/originales/p1.jpg", size: 1, version: "1" });
    await pipeline.idle();
    expect(calls.map((c) => c.step).at(-1)).toBe("fail");
    expect(calls.at(-1)?.input).toMatchObject({ error: { Cause: "La foto no se puede leer" } });
    expect(calls.some((c) => c.step === "record")).toBe(false);
  });
});

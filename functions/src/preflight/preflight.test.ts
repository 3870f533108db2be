import { describe, expect, it } from "vitest";
import { runPreflight } from "./preflight";

describe("the preflight's live report", () => {
  it("waits for each check's report before going on, so a slow save is never overtaken", async () => {
    const happened: string[] = [];

    const report = await runPreflight({
      // Nothing answers here: the first check is RED, and the run ends after it.
      url: "http://127.0.0.1:9",
      email: "ops@dorsal.example",
      password: "irrelevante",
      probeBib: "90001",
      probeImage: Buffer.alloc(0),
      probeZip: Buffer.alloc(0),
      onCheck: async (check) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        happened.push(`reported ${check.name} ${check.status}`);
      },
    });
    happened.push("ended");

    expect(report.status).toBe("RED");
    expect(happened).toEqual(["reported api RED", "ended"]);
  });
});

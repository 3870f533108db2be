import { parseArgs } from "node:util";

/**
 * A benchmark's command line: counts (positive integers, each with its default) and free-form
 * options; `--help` prints the usage built from them and exits. A count that is not a positive
 * integer stops the run before anything is seeded.
 */
export function benchOptions<Count extends string, Text extends string = never>(
  command: string,
  counts: Record<Count, number>,
  texts: Record<Text, string> = {} as Record<Text, string>,
): { counts: Record<Count, number>; texts: Partial<Record<Text, string>> } {
  const { values } = parseArgs({
    options: {
      ...Object.fromEntries(Object.keys(counts).map((name) => [name, { type: "string" as const }])),
      ...Object.fromEntries(Object.keys(texts).map((name) => [name, { type: "string" as const }])),
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    const usage = [
      ...Object.entries(counts).map(([name, value]) => `[--${name} ${value}]`),
      ...Object.entries(texts).map(([name, value]) => `[--${name} ${value}]`),
    ];
    console.log(`npm run ${command} -- ${usage.join(" ")}`);
    process.exit(0);
  }
  const given = values as unknown as Record<string, string | undefined>;
  const parsed = Object.fromEntries(
    Object.entries(counts).map(([name, fallback]) => {
      const value = given[name] === undefined ? Number(fallback) : Number(given[name]);
      if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} is a positive integer`);
      return [name, value];
    }),
  ) as Record<Count, number>;
  const textValues = Object.fromEntries(
    Object.keys(texts).flatMap((name) => (given[name] === undefined ? [] : [[name, given[name]]])),
  ) as Partial<Record<Text, string>>;
  return { counts: parsed, texts: textValues };
}

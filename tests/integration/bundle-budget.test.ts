import { readFileSync } from "node:fs";
import path from "node:path";
import { constants, gzipSync } from "node:zlib";
import { applicationMessages } from "@dorsal/shared/applications";
import { api, type EndpointSpec } from "@dorsal/shared/contract";
import { eventsPublicApi } from "@dorsal/shared/contract/events-public";
import { photosPublicApi } from "@dorsal/shared/contract/photos-public";
import { describe, expect, it } from "vitest";
import { distDir, searchFirstLoadScripts } from "../support/first-load";

/** Issue 17: what an athlete's phone downloads before the first search result, gzipped. */
const budgetBytes = 250_000;

/**
 * The contract's groups whose routes /search calls (events: the event picker; photos: the bib
 * search and an athlete's download; pricing and settings: the prices shown; browse: the photo
 * pages). A group comes whole, each route's path with it. `codes` comes with the download-code
 * dialog, on demand.
 */
const searchGroups = ["browse", "events", "photos", "pricing", "settings"];

/**
 * Issue 20: what /search shows only after a click loads on demand, each with Chakra's dialog
 * machinery (focus trap, dismissal, scroll lock): the photo preview and the download-code dialog.
 */
const onDemandSources = [
  "src/components/ui/photo-preview-dialog.tsx",
  "src/features/search/components/code-dialog.tsx",
];

/**
 * Sentences only shared/src/zod-messages.ts holds: they reach the build only with the call that
 * installs them as zod's error map, which the bundler would drop along with them were the module
 * ever taken for side-effect free (it once was, through `sideEffects`, and /search went English).
 */
const zodSpanishSentences = ["Debe ser un conjunto de campos", "Este campo es obligatorio", "Debe ser una lista"];

/**
 * Issue 20: of the two groups /search shares with the staff's screens, only the public part:
 * the group's other routes (uploads, bib review, event settings…) and their schemas load with those screens.
 */
const publicParts = { events: eventsPublicApi, photos: photosPublicApi };

/**
 * Text only the schemas of @dorsal/shared's own subpaths hold (never its index): built on every
 * first load were one of those modules ever imported by /search's. staff-requests.ts: the
 * recognition settings' refusal and `uploadSessionId`'s pattern; applications.ts: its messages.
 */
const subpathOnlyTexts = [
  "El mínimo de dígitos no puede superar el máximo",
  "[A-Za-z0-9_-]{8,64}",
  ...Object.values(applicationMessages).filter((message) => typeof message === "string"),
];

/** A route's path is a string literal of its own in the minified code, whatever its quotes. */
const holdsPath = (code: string, route: string) =>
  ['"', "'", "`"].some((quote) => code.includes(`${quote}${route}${quote}`));

const firstLoadCode = () =>
  searchFirstLoadScripts()
    .map((file) => readFileSync(path.join(distDir, file), "utf8"))
    .join("\n");

describe("bundle budget", () => {
  it("keeps the JavaScript of /search's first load within 250 kB gzipped", () => {
    const scripts = searchFirstLoadScripts().map((file) => {
      const content = readFileSync(path.join(distDir, file));
      // The level the build's .gz copies use, i.e. what the runtime sends.
      const gzipped = gzipSync(content, { level: constants.Z_BEST_COMPRESSION }).length;
      return { file, bytes: content.length, gzipped };
    });
    const total = scripts.reduce((sum, script) => sum + script.gzipped, 0);
    const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
    console.log(
      `JS before the first search result: ${kB(total)} gzipped of ${kB(budgetBytes)} ` +
        `(${kB(scripts.reduce((sum, script) => sum + script.bytes, 0))} uncompressed)\n` +
        scripts.map((script) => `  ${script.file}: ${kB(script.gzipped)} (${kB(script.bytes)})`).join("\n"),
    );
    expect(scripts.map((script) => script.file)).toContainEqual(expect.stringMatching(/^assets\/index-.+\.js$/));
    expect(total).toBeLessThanOrEqual(budgetBytes);
  });

  // Issue 20: the whole contract in the index made every feature's new route cost /search bytes.
  it("holds the routes of only the contract groups /search calls", () => {
    const code = firstLoadCode();
    const shipped = ({ path: route }: EndpointSpec) => holdsPath(code, route);
    const groupsShipped = Object.entries(api)
      .filter(([, routes]) => Object.values<EndpointSpec>(routes).some(shipped))
      .map(([group]) => group)
      .sort();
    expect(groupsShipped).toEqual(searchGroups);
  });

  it("leaves the dialogs /search opens on a click to load on demand", () => {
    const manifest = JSON.parse(readFileSync(path.join(distDir, ".vite", "manifest.json"), "utf8")) as Record<
      string,
      { file: string; isDynamicEntry?: boolean }
    >;
    const firstLoad = searchFirstLoadScripts();
    for (const source of onDemandSources) {
      // A static import anywhere would fold the module into a first-load chunk: no chunk of its own.
      expect(manifest[source], source).toMatchObject({ isDynamicEntry: true });
      expect(firstLoad).not.toContain(manifest[source]?.file);
    }
  });

  it("carries the Spanish zod messages", () => {
    const code = firstLoadCode();
    for (const sentence of zodSpanishSentences) expect(code, sentence).toContain(sentence);
  });

  it("holds only the public part of the groups /search shares with the staff's screens", () => {
    const code = firstLoadCode();
    for (const [group, publicPart] of Object.entries(publicParts)) {
      const paths = (routes: Record<string, EndpointSpec>) =>
        [...new Set(Object.values(routes).map(({ path }) => path))].sort();
      const shippedPaths = paths(api[group as keyof typeof publicParts]).filter((route) => holdsPath(code, route));
      expect(shippedPaths, group).toEqual(paths(publicPart));
    }
  });

  it("builds none of the schemas of @dorsal/shared's subpaths", () => {
    const code = firstLoadCode();
    expect(subpathOnlyTexts.length).toBeGreaterThan(10);
    for (const text of subpathOnlyTexts) expect(code, text).not.toContain(text);
  });
});

import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createSystem, defaultConfig, defaultSystem, defineConfig } from "@chakra-ui/react";
import { describe, expect, it } from "vitest";
import { system } from "./theme";

const source = path.resolve(import.meta.dirname, "..");
const chakraDist = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@chakra-ui/react/package.json")),
  "dist",
  "esm",
);

/** Every name the app's sources import from "@chakra-ui/react" (types left out). */
function chakraImports(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(source, { recursive: true, encoding: "utf8" })) {
    if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
    const text = readFileSync(path.join(source, file), "utf8");
    for (const [, list = ""] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"@chakra-ui\/react"/g)) {
      for (const specifier of list.split(",").map((part) => part.trim())) {
        const name = specifier.split(/\s+as\s+/)[0];
        if (name && !specifier.startsWith("type ")) names.add(name);
      }
    }
  }
  return names;
}

/**
 * The recipe keys Chakra's own code looks up for those names: each export of Chakra's index leads
 * to a component's module, which (or a module of a component it renders) asks for its recipe with
 * `key: "…"` (the Dialog's "dialog", the Checkbox's "checkbox" and "checkmark"…).
 */
function recipeKeysUsed(): Set<string> {
  const index = readFileSync(path.join(chakraDist, "index.js"), "utf8");
  const moduleOf = new Map<string, string>();
  for (const [, list = "", from = ""] of index.matchAll(/export \{([^}]*)\} from '([^']+)'/g)) {
    for (const specifier of list.split(","))
      moduleOf.set(
        specifier
          .trim()
          .split(/\s+as\s+/)
          .pop() ?? "",
        from,
      );
  }
  const namespaces = new Map(
    [...index.matchAll(/import \* as (\S+) from '([^']+)'/g)].map(([, id = "", from = ""]) => [id, from]),
  );
  for (const [, id = "", name = ""] of index.matchAll(/export \{ (\S+) as (\w+) \}/g)) {
    const from = namespaces.get(id);
    if (from) moduleOf.set(name, from);
  }
  const keys = new Set<string>();
  const read = new Set<string>();
  const visit = (file: string) => {
    if (read.has(file)) return;
    read.add(file);
    const text = readFileSync(file, "utf8");
    for (const [, key = ""] of text.matchAll(/key: "([\w-]+)"/g)) keys.add(key);
    for (const [, relative = ""] of text.matchAll(/from '(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), relative);
      if (target.startsWith(path.join(chakraDist, "components"))) visit(target);
    }
  };
  for (const name of chakraImports()) {
    const from = moduleOf.get(name);
    if (from?.startsWith("./")) visit(path.join(chakraDist, from));
  }
  return keys;
}

// Issue 20: the theme carries only the recipes the app renders; a component without its recipe
// renders unstyled, silently (Chakra falls back to an empty recipe).
describe("the Chakra theme", () => {
  it("has the default's recipe of every Chakra component the app uses", () => {
    const keys = [...recipeKeysUsed()];
    expect(keys).toContain("button");
    expect(keys).toContain("dialog");
    const missing = keys.filter((key) => defaultSystem.hasRecipe(key) && !system.hasRecipe(key));
    expect(missing).toEqual([]);
    for (const key of keys.filter((candidate) => system.isRecipe(candidate)))
      expect(system.getRecipe(key)).toStrictEqual(defaultSystem.getRecipe(key));
    for (const key of keys.filter((candidate) => system.isSlotRecipe(candidate)))
      expect(system.getSlotRecipe(key)).toStrictEqual(defaultSystem.getSlotRecipe(key));
  });

  it("has no recipe the app's components leave unused", () => {
    const keys = recipeKeysUsed();
    const theme = system._config.theme;
    const unused = [...Object.keys(theme?.recipes ?? {}), ...Object.keys(theme?.slotRecipes ?? {})].filter(
      (key) => !keys.has(key),
    );
    expect(unused).toEqual([]);
  });

  it("is otherwise the default theme: the same tokens, conditions, global styles and preflight", () => {
    const withDefault = createSystem(defaultConfig, defineConfig({ globalCss: system._config.globalCss }));
    const withoutRecipes = ({ theme, ...config }: typeof system._config) => {
      const { recipes, slotRecipes, ...rest } = theme ?? {};
      return { ...config, theme: rest };
    };
    expect(withoutRecipes(system._config)).toStrictEqual(withoutRecipes(withDefault._config));
    expect(system.getTokenCss()).toStrictEqual(withDefault.getTokenCss());
    expect(system.getGlobalCss()).toStrictEqual(withDefault.getGlobalCss());
    expect(system.getPreflightCss()).toStrictEqual(withDefault.getPreflightCss());
  });
});

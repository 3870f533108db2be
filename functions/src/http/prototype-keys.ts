/**
 * Keys that name an object's prototype rather than a field. JSON.parse keeps `__proto__` as a plain
 * key of its own, harmless until code copies it with Object.assign or a merge, which then sets the
 * copy's prototype; busboy hands form fields to code that assigns them by name. No route has a field
 * of these names, so a body or form that carries one is refused before any use case sees it.
 */
const prototypeKeys = new Set(["__proto__", "constructor", "prototype"]);

export const isPrototypeKey = (key: string) => prototypeKeys.has(key);

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { api, type EndpointSpec, endpoint, pathFor } from "./index";

const endpoints = Object.entries(api).flatMap(([group, routes]) =>
  Object.entries(routes as Record<string, EndpointSpec>).map(([name, spec]) => ({ where: `${group}.${name}`, spec })),
);

describe("the API contract", () => {
  it("validates every path parameter of every route, and nothing that is not one", () => {
    const mismatched = endpoints.flatMap(({ where, spec }) => {
      const inPath = [...spec.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const shape = spec.params instanceof z.ZodObject ? Object.keys(spec.params.shape).sort() : [];
      return JSON.stringify(inPath) === JSON.stringify(shape) ? [] : [{ where, inPath, shape }];
    });
    expect(mismatched).toEqual([]);
  });

  it("declares each method and path once", () => {
    const keys = endpoints.map(({ spec }) => `${spec.method} ${spec.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    expect(keys.length).toBeGreaterThan(80);
  });

  it("fills a path's parameters URL-encoded, and refuses to build one with a parameter missing", () => {
    const download = endpoint<undefined>()({
      method: "GET",
      path: "/api/download-codes/download/{code}/{photoId}",
      access: "public",
    });
    expect(pathFor(download, { code: "AB 12/3", photoId: 7 })).toBe("/api/download-codes/download/AB%2012%2F3/7");
    expect(() => pathFor(download, { code: "AB12" })).toThrow("missing path parameter photoId");
  });
});

import { describe, expect, it } from "vitest";
import { httpRoutes } from "../src/http/routes";
import { MalformedPathError, matchRoute } from "./http-bridge";

describe("matchRoute", () => {
  it("prefers literal paths over path parameters, as API Gateway does", () => {
    expect(matchRoute("GET", "/api/photos/search")?.route.path).toBe("/api/photos/search");
    expect(matchRoute("GET", "/api/photos/abc123")).toMatchObject({
      route: { path: "/api/photos/{id}" },
      pathParameters: { id: "abc123" },
    });
  });

  it("matches the method too and finds nothing for unknown paths", () => {
    expect(matchRoute("DELETE", "/api/events")).toBeUndefined();
    expect(matchRoute("GET", "/api/events/1/extra")).toBeUndefined();
  });

  it("decodes path parameters, and refuses `%` escapes that are not UTF-8 as API Gateway does", () => {
    expect(matchRoute("GET", "/api/photos/a%20b")?.pathParameters).toEqual({ id: "a b" });
    expect(() => matchRoute("GET", "/api/photos/%")).toThrow(MalformedPathError);
    expect(() => matchRoute("GET", "/api/events/%E0%A4%A/pricing")).toThrow(MalformedPathError);
  });

  it("can reach every declared route", () => {
    for (const route of httpRoutes) {
      const path = route.path.replace(/\{\w+\}/g, "x1");
      expect(matchRoute(route.method, path)?.route.path).toBe(route.path);
    }
  });
});

import { describe, expect, it } from "vitest";
import { operations, securityOf } from "../src/index.ts";

describe("defineOperation", () => {
  it("derives the document's security from who may call", () => {
    expect(securityOf({ allow: ["apiKey", "user"], keyScopes: ["templates:read"] })).toEqual([{ apiKey: ["templates:read"] }, { basic: ["templates:read"] }]);
    expect(securityOf({ allow: ["client"], scope: "employees:sync" })).toEqual([{ oauth2: ["employees:sync"] }]);
    expect(securityOf({ allow: ["client"], scope: "scim" })).toEqual([{ scim: [] }]);
    expect(securityOf({ allow: ["client", "apiKey"], scope: "employees:sync", keyScopes: ["employees:read"] })).toEqual([
      { oauth2: ["employees:sync"] },
      { apiKey: ["employees:read"] },
      { basic: ["employees:read"] },
    ]);
    // A user token alone is a Bearer token of the apiKey scheme (its description says so); any client token is either scheme.
    expect(securityOf({ allow: ["user"] })).toEqual([{ apiKey: [] }]);
    expect(securityOf({ allow: ["apiKey", "user", "client"] })).toEqual([{ apiKey: [] }, { basic: [] }, { oauth2: [] }, { scim: [] }]);
    expect(securityOf("none")).toBeUndefined();
    expect(securityOf("body")).toBeUndefined();
  });

  it("reads an inspection import's and PATCH's body with the inspection limit, and no other", () => {
    expect(operations.filter((op) => op.body === "inspection").map((op) => `${op.method} ${op.path}`)).toEqual([
      "patch /api/inspections/{id}",
      "post /api/inspections",
    ]);
  });

  it("reads a body before the sender is known only when it is the credential", () => {
    const early = operations.filter((op) => typeof op.auth === "string" && op.body !== "none");
    expect(early.map((op) => `${op.method} ${op.path} ${op.body}`)).toEqual(["post /oauth/token credential", "post /api/auth/login credential"]);
  });
});

import { describe, expect, it } from "vitest";
import { runBulk, type ScimContext } from "../src/scim/index.ts";

// The request is checked as a whole before any operation runs (nothing here reaches the database).
const ctx = {} as ScimContext;
const bulk = (members: string) => JSON.parse(`{"schemas":["urn:ietf:params:scim:api:messages:2.0:BulkRequest"],${members}}`) as unknown;
const ops = (op: string) => `"Operations":[{"method":"POST","path":"/Users","data":{}${op}}]`;

describe("runBulk: a Bulk request's own fields", () => {
  it("refuses failOnErrors, bulkId and version holding objects (toString not callable, no prototype) with a SCIM 400 naming the field", async () => {
    const trap = '{"__proto__":null,"toString":1,"valueOf":1}';
    await expect(runBulk(ctx, bulk(`"failOnErrors":${trap},${ops(',"bulkId":"a"')}`))).rejects.toMatchObject({
      status: 400,
      scimType: "invalidValue",
      message: "failOnErrors must be a whole number",
    });
    await expect(runBulk(ctx, bulk(`"failOnErrors":[{"toString":1}],${ops(',"bulkId":"a"')}`))).rejects.toMatchObject({
      status: 400,
      message: "failOnErrors must be a whole number",
    });
    await expect(runBulk(ctx, bulk(ops(`,"bulkId":${trap}`)))).rejects.toMatchObject({
      status: 400,
      scimType: "invalidValue",
      message: "Operations[0]: bulkId must be a string",
    });
    await expect(runBulk(ctx, bulk(ops(`,"bulkId":"a","version":{"toString":1}`)))).rejects.toMatchObject({
      status: 400,
      scimType: "invalidValue",
      message: "Operations[0]: version must be a string (an ETag)",
    });
  });
});

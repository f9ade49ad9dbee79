import { describe, expect, it } from "vitest";
import { scrubMessage, serializeError } from "../src/logger.ts";

describe("error serializer: what failed, never what was sent", () => {
  it("keeps a failed query's statement and drops its parameters, its detail and the driver's copies", () => {
    const driver = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: "23505",
      constraint_name: "users_email_key",
      detail: "Key (lower(email))=(ada@secret.example) already exists.",
      parameters: ["ada@secret.example", "Ada Lovelace"],
      query: "insert into users ...",
      args: ["ada@secret.example"],
    });
    const err = Object.assign(new Error('Failed query: insert into "users" ("email", "name") values ($1, $2)\nparams: ada@secret.example,Ada Lovelace'), {
      cause: driver,
      params: ["ada@secret.example"],
    });
    const out = JSON.stringify(serializeError(err));
    expect(out).not.toContain("secret.example");
    expect(out).not.toContain("Lovelace");
    expect(serializeError(err)).toMatchObject({
      type: "Error",
      message: 'Failed query: insert into "users" ("email", "name") values ($1, $2)',
      cause: { code: "23505", constraint_name: "users_email_key", message: 'duplicate key value violates unique constraint "users_email_key"' },
    });
  });

  it("drops the value Postgres quotes in an input syntax error, and bounds long messages", () => {
    expect(scrubMessage('invalid input syntax for type uuid: "Ada Lovelace"')).toBe('invalid input syntax for type uuid: "[value removed]"');
    const long = scrubMessage(`Failed query: ${"x".repeat(3_000_000)}`);
    expect(long.length).toBeLessThan(600);
    expect(long).toMatch(/more characters\]$/);
  });

  it("keeps stack frames but not a message copied into the stack", () => {
    const err = new Error("Failed query: select $1\nparams: marker-123");
    const out = serializeError(err) as { stack: string };
    expect(out.stack).toMatch(/^Error: Failed query: select \$1\n\s+at /);
    expect(out.stack).not.toContain("marker-123");
  });
});

import { describe, expect, it } from "vitest";
import { isConnectionError, pgErrorCode } from "../src/errors.ts";

const wrapped = (cause: object) => Object.assign(new Error("Failed query: select 1\nparams: "), { cause });

describe("driver error codes through Drizzle's wrapping", () => {
  it("finds the SQLSTATE in the cause chain", () => {
    expect(pgErrorCode(wrapped({ code: "23505" }))).toBe("23505");
    expect(pgErrorCode(new Error("plain"))).toBeUndefined();
  });

  it("calls a lost or refused connection and a server going away a connection error, and nothing else", () => {
    for (const code of ["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECT_TIMEOUT", "ECONNREFUSED", "ECONNRESET", "57P01", "57P03", "53300"]) {
      expect(isConnectionError(wrapped({ code })), code).toBe(true);
    }
    // Class 08 from the server is a protocol error, a deadlock is a retry of another kind, a unique violation is final.
    for (const code of ["08P01", "08006", "40P01", "23505", "22P02"]) expect(isConnectionError(wrapped({ code })), code).toBe(false);
    expect(isConnectionError(null)).toBe(false);
    expect(isConnectionError("CONNECTION_CLOSED")).toBe(false);
  });
});

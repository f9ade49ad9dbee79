import { readFileSync } from "node:fs";

/**
 * A server the service needs cannot be used, for a reason that will not go away by itself (a
 * setting points nowhere, a port is taken, a folder cannot be reached). Its message is one line
 * that names the setting to change; launchers print it without a stack trace and exit with 78
 * (EX_CONFIG).
 */
export class ServerSetupError extends Error {
  /**
   * "setting": a server named by a setting (or its default) does not answer; "embedded": an
   * embedded server could not be started (no binaries for this platform, a port taken, ...).
   */
  constructor(
    message: string,
    readonly source: "setting" | "embedded" = "embedded",
  ) {
    super(message);
    this.name = "ServerSetupError";
  }
}

/** The last `n` lines of a log file ([] when it cannot be read), to say why a server stopped. */
export function lastLines(file: string, n: number): string[] {
  try {
    return readFileSync(file, "utf8").trim().split("\n").slice(-n);
  } catch {
    return [];
  }
}

import readline from "node:readline";
import { Writable } from "node:stream";
import { MIN_PASSWORD_LENGTH, hashPassword } from "@insp/core";

/** Reads the password: all of stdin when piped, or one line typed without echo at a terminal. */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = "";
    for await (const chunk of process.stdin) text += chunk;
    return text.replace(/\r?\n$/, "");
  }
  process.stderr.write("Password (not shown): ");
  const silent = new Writable({ write: (_chunk, _enc, done) => done() });
  const rl = readline.createInterface({ input: process.stdin, output: silent, terminal: true });
  const line = await new Promise<string>((resolve) => rl.once("line", resolve));
  rl.close();
  process.stderr.write("\n");
  return line;
}

/**
 * `hash-password`: prints the argon2id hash of a password read from stdin, for
 * ADMIN_DASHBOARD_PASSWORD_HASH. The password never goes on the command line, where `ps` and
 * the shell's history would show it. Needs no database.
 */
export async function hashPasswordCommand(): Promise<number> {
  const password = await readPassword();
  if (password.length < MIN_PASSWORD_LENGTH) {
    console.error(`Error: the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
    return 2;
  }
  console.log(await hashPassword(password));
  return 0;
}

import type { Server } from "node:net";
import { ConfigError } from "./error.ts";

/** The settings a listener comes from, named in its messages: e.g. PORT and HOST (none for a fixed address). */
export interface ListenSettings {
  port: string;
  host?: string;
}

/** The message for a port another program listens on, for a listen that failed and a check before one. */
export const portInUse = (setting: string, port: number) =>
  `${setting}=${port}: another program already listens on port ${port}; stop it or choose another port`;

/** What a failed listen says about the settings behind it; other errors are not the settings' fault. */
function problem(err: NodeJS.ErrnoException, port: number, host: string, names: ListenSettings): string | null {
  switch (err.code) {
    case "EADDRINUSE":
      return portInUse(names.port, port);
    case "EACCES":
      return `${names.port}=${port}: this user may not listen on port ${port}; ports below 1024 need privileges, choose 1024 or above`;
    case "EADDRNOTAVAIL":
      return `${names.host ?? "the address"}=${host}: not an address of this machine, so nothing can listen there; use 0.0.0.0, 127.0.0.1 or one of its addresses`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `${names.host ?? "the address"}=${host}: no such host name here; use 0.0.0.0, 127.0.0.1 or one of this machine's addresses`;
    default:
      return null;
  }
}

/**
 * Listens on `port` at `host` and answers the port it got (the one asked for, or the kernel's pick
 * for 0). A port that is taken or not allowed, or a host that is not this machine's, rejects with a
 * ConfigError naming the setting (the apps print it and exit 78): a start must never go on without
 * its listener, as one that logged "listening" and served nothing once did. Errors after that are
 * the caller's to handle (`server.on("error")`).
 */
export function listen(server: Server, port: number, host: string, names: ListenSettings): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      const p = problem(err, port, host, names);
      reject(p ? new ConfigError([p]) : err);
    };
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      const addr = server.address();
      resolve(typeof addr === "object" && addr ? addr.port : port);
    });
  });
}

import type { Server } from "node:net";
import { ConfigError } from "./error.ts";

/** What a failed listen says about the setting behind it; other errors are not the settings' fault. */
function problem(err: NodeJS.ErrnoException, port: number, host: string, setting: string): string | null {
  switch (err.code) {
    case "EADDRINUSE":
      return `${setting}=${port}: another program already listens on port ${port}; stop it or choose another port`;
    case "EACCES":
      return `${setting}=${port}: this user may not listen on port ${port}; ports below 1024 need privileges, choose 1024 or above`;
    case "EADDRNOTAVAIL":
      return `${setting}=${port}: ${host} is not an address of this machine, so nothing can listen there; use 0.0.0.0, 127.0.0.1 or one of its addresses`;
    default:
      return null;
  }
}

/**
 * Listens on `port` at `host` and answers the port it got (the one asked for, or the kernel's pick
 * for 0). A port that is taken or not allowed, or a host that is not this machine's, rejects with a
 * ConfigError naming `setting` (the apps print it as one line and exit 78); a start must never go on
 * without its listener, as one that logs "listening" and serves nothing would.
 */
export function listen(server: Server, port: number, host: string, setting: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      const p = problem(err, port, host, setting);
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

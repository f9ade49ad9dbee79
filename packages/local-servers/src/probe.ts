import net from "node:net";

/** host and port of a postgres:// or redis:// URL, with the protocol's default port. */
export function addressOf(url: string): { host: string; port: number } {
  const u = new URL(url);
  const fallback = u.protocol.startsWith("redis") ? 6379 : 5432;
  // URL keeps IPv6 hosts in brackets; net.connect wants them bare.
  return { host: u.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1", port: Number(u.port) || fallback };
}

/** How an address reads in a message: `127.0.0.1:5432`, `[::1]:6379`. */
export const showAddress = ({ host, port }: { host: string; port: number }) => `${host.includes(":") ? `[${host}]` : host}:${port}`;

/**
 * Whether something accepts TCP connections at the address: null when it does, else the reason it
 * did not (ECONNREFUSED, ENOTFOUND, a timeout), for a message.
 */
export function tcpProblem(host: string, port: number, timeoutMs = 1_500): Promise<string | null> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: timeoutMs });
    s.once("connect", () => {
      s.destroy();
      resolve(null);
    });
    s.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    s.once("timeout", () => {
      s.destroy();
      resolve(`no answer within ${timeoutMs / 1000} s`);
    });
  });
}

export const answers = async (host: string, port: number) => (await tcpProblem(host, port)) === null;

import net from "node:net";

/**
 * Counts round trips between postgres.js and Postgres: a socket factory for postgres.js's
 * `socket` option (createDb's `socket`) whose sockets note every time the client starts writing
 * after it has read. Statements that go out together (pipelined, in one or several writes
 * before any answer is read) are one round trip; a statement sent after reading an answer
 * starts the next one.
 */
export function roundTripCounter() {
  let trips = 0;
  let writes = 0;
  const socket = (options: { path?: string | false; host: string[]; port: number[] }) =>
    new Promise<net.Socket>((resolve, reject) => {
      const s = options.path ? net.connect(options.path) : net.connect(options.port[0]!, options.host[0]!);
      let answered = true;
      const write = s.write.bind(s) as (...args: unknown[]) => boolean;
      s.write = ((...args: unknown[]) => {
        writes++;
        if (answered) trips++;
        answered = false;
        return write(...args);
      }) as typeof s.write;
      s.prependListener("data", () => (answered = true));
      s.once("connect", () => resolve(s));
      s.once("error", reject);
    });
  return {
    socket,
    /** Round trips since the last reset (or since the first connection). */
    get trips() {
      return trips;
    },
    /** Socket writes since the last reset: system calls, each of which also costs Postgres a wake-up. */
    get writes() {
      return writes;
    },
    reset: () => void (trips = writes = 0),
  };
}

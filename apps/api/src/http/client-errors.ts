import { STATUS_CODES, type Server } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { isDraining, isRefused } from "./body-limits.ts";

/**
 * Requests Node's HTTP parser refuses before Express sees them (a URL and headers over 16 KB,
 * a malformed request line, a header timeout) are answered as JSON like every other error,
 * instead of Node's bare status line (Node's documented `clientError` pattern).
 *
 * A connection whose body was refused for size (413) has had its answer: an error of its
 * parser (the body ends early when the client closes) or Node's requestTimeout neither answers
 * again nor cuts the drain short; the drain's own bounds end it (body-limits.ts).
 */
export function answerClientErrorsAsJson(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (isRefused(socket as Socket)) {
      if (err.code === "ECONNRESET" || !isDraining(socket as Socket)) socket.destroy();
      return;
    }
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, error] =
      err.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request header fields too large: the URL and headers may hold at most 16 KB"]
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request timeout"]
          : [400, "Malformed HTTP request"];
    const body = JSON.stringify({ error });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

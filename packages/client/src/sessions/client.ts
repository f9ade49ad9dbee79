import type { InspClient } from "../client.ts";
import { failure } from "../client.ts";
import { HttpError } from "../errors.ts";
import type { CommitResult, Session, SessionScope } from "./types.ts";

/**
 * Calls of the snapshot-session endpoints, over the client's authenticated, retrying fetch.
 * Creating a session is not idempotent on the server, so a create that fails after the
 * request left may leave an unused open session behind; it expires on its own.
 */
export function sessionsApi(client: Pick<InspClient, "baseUrl" | "fetch">) {
  async function call<T>(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    signal?: AbortSignal,
    idempotencyKey?: string,
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { accept: "application/json", ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}) };
    const init: RequestInit = { method, headers, ...(signal ? { signal } : {}) };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { ...init.headers, "content-type": "application/json" };
    }
    const res = await client.fetch(new Request(`${client.baseUrl}${path}`, init));
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (!res.ok) throw failure(`${method} ${path}`, res, parsed);
    if (!parsed || typeof parsed !== "object") throw new HttpError(`${method} ${path}: ${res.status} without a JSON body`, res.status, parsed);
    return { status: res.status, body: parsed as T };
  }
  const sessionPath = (id: string) => `/api/v1/sync/sessions/${encodeURIComponent(id)}`;

  return {
    /**
     * POST /api/v1/sync/sessions -> 201 with the open session. The Idempotency-Key lets a
     * server that honours it answer a retried create with the same session.
     */
    async create(scope?: SessionScope, o: { signal?: AbortSignal; idempotencyKey?: string } = {}): Promise<Session> {
      return (await call<Session>("POST", "/api/v1/sync/sessions", scope && Object.keys(scope).length ? { scope } : {}, o.signal, o.idempotencyKey)).body;
    },
    async get(sessionId: string, signal?: AbortSignal): Promise<Session> {
      return (await call<Session>("GET", sessionPath(sessionId), undefined, signal)).body;
    },
    /**
     * Commits (or, with dryRun, previews) the session: 200 committed or dry run, 202 quarantined,
     * or 202 committing while its deactivations still run (then polled until they are done).
     * A commit repeated after a lost answer gets the session's outcome again.
     */
    async commit(sessionId: string, o: { dryRun?: boolean; signal?: AbortSignal; idempotencyKey?: string; pollMs?: number } = {}): Promise<CommitResult> {
      let result = (
        await call<CommitResult>("POST", `${sessionPath(sessionId)}/commit${o.dryRun ? "?dryRun=true" : ""}`, undefined, o.signal, o.idempotencyKey)
      ).body;
      while (result.status === "committing") {
        await new Promise((r) => setTimeout(r, o.pollMs ?? 1000));
        result = (await call<Session>("GET", sessionPath(sessionId), undefined, o.signal)).body;
      }
      return result;
    },
  };
}

export type SessionsApi = ReturnType<typeof sessionsApi>;

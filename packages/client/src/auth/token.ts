import createClient from "openapi-fetch";
import { SYNC_SCOPE } from "@insp/contracts";
import { AuthError, HttpError, describeErrorBody } from "../errors.ts";
import type { paths } from "../generated/openapi.d.ts";
import type { FetchLike } from "../http/retrying-fetch.ts";

export interface TokenProviderOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Scopes to ask for (space separated); default: all the client may have. */
  scope?: string;
  /** Should retry 429/503 and network errors (the token request is safe to repeat). */
  fetch: FetchLike;
  now?: () => number;
}

interface CachedToken {
  value: string;
  /** When to fetch a new one: shortly before it expires, so a request never leaves with a token about to lapse. */
  refreshAt: number;
}

/**
 * OAuth 2.0 client credentials (RFC 6749 section 4.4) with HTTP Basic client authentication.
 * One token is shared by every request; callers that need one while it is being fetched
 * wait for the same fetch.
 */
export class TokenProvider {
  private cached: CachedToken | undefined;
  private pending: Promise<string> | undefined;
  private readonly api;
  private readonly now: () => number;

  constructor(private readonly opts: TokenProviderOptions) {
    this.api = createClient<paths>({ baseUrl: opts.baseUrl, fetch: opts.fetch });
    this.now = opts.now ?? Date.now;
  }

  /** A token valid for a while yet. */
  async get(): Promise<string> {
    if (this.cached && this.now() < this.cached.refreshAt) return this.cached.value;
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** The server refused `token` (401): the next get() fetches a new one, unless another caller already did. */
  invalidate(token: string): void {
    if (this.cached?.value === token) this.cached = undefined;
  }

  private async fetchToken(): Promise<string> {
    // Basic client authentication form-encodes id and secret first (RFC 6749 section 2.3.1).
    const basic = Buffer.from(`${encodeURIComponent(this.opts.clientId)}:${encodeURIComponent(this.opts.clientSecret)}`).toString("base64");
    const { data, error, response } = await this.api.POST("/oauth/token", {
      body: { grant_type: "client_credentials", ...(this.opts.scope ? { scope: this.opts.scope } : {}) },
      bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
    });
    if (response.status === 401 || (response.status === 400 && error && "error" in error && error.error === "invalid_scope")) {
      throw new AuthError(
        `Token request refused (${response.status} ${describeErrorBody(error)}): check the client id and secret and the client's scopes`,
        response.status,
      );
    }
    if (!data) throw new HttpError(`Token request failed: ${response.status} ${describeErrorBody(error)}`, response.status, error);
    const lifetimeMs = data.expires_in * 1000;
    const margin = Math.min(60_000, lifetimeMs / 10);
    this.cached = { value: data.access_token, refreshAt: this.now() + lifetimeMs - margin };
    return data.access_token;
  }
}

/** The scope the sync endpoints require. */
export const SCOPE_EMPLOYEES_SYNC = SYNC_SCOPE;

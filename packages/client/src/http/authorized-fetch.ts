import type { TokenProvider } from "../auth/token.ts";
import type { FetchLike } from "./retrying-fetch.ts";

/**
 * Adds the bearer token to each request. A 401 means the token was refused (expired early,
 * signing key rotated, client's tokens revoked): fetch a new one and send once more; a second
 * 401 is returned to the caller, which reports bad credentials.
 */
export function authorizedFetch(tokens: TokenProvider, inner: FetchLike): FetchLike {
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.get();
      const headers = new Headers(request.headers);
      headers.set("authorization", `Bearer ${token}`);
      const res = await inner(new Request(request.clone(), { headers }));
      if (res.status !== 401 || attempt > 0) return res;
      await res.body?.cancel().catch(() => {});
      tokens.invalidate(token);
    }
  };
}

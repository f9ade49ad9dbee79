/** A small JSON client for tests that talk to a running API over HTTP. */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export type Auth = { bearer: string } | { basic: [string, string] } | { header: string } | undefined;

function authHeader(auth: Auth): Record<string, string> {
  if (!auth) return {};
  if ("bearer" in auth) return { authorization: `Bearer ${auth.bearer}` };
  if ("basic" in auth) return { authorization: `Basic ${Buffer.from(`${auth.basic[0]}:${auth.basic[1]}`).toString("base64")}` };
  return { authorization: auth.header };
}

export function client(baseUrl: string, defaultAuth?: Auth) {
  async function request<T = any>(
    method: string,
    path: string,
    opts: { auth?: Auth | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<JsonResponse<T>> {
    const auth = opts.auth === null ? undefined : (opts.auth ?? defaultAuth);
    const headers: Record<string, string> = { ...authHeader(auth), ...opts.headers };
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }
  return {
    baseUrl,
    request,
    get: <T = any>(path: string, opts?: { auth?: Auth | null; headers?: Record<string, string> }) => request<T>("GET", path, opts),
    post: <T = any>(path: string, body?: unknown, opts?: { auth?: Auth | null; headers?: Record<string, string> }) =>
      request<T>("POST", path, { ...opts, body }),
    patch: <T = any>(path: string, body?: unknown, opts?: { auth?: Auth | null; headers?: Record<string, string> }) =>
      request<T>("PATCH", path, { ...opts, body }),
  };
}
export type Client = ReturnType<typeof client>;

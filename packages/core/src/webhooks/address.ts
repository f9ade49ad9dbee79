import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";

/** The target policy: https only in production; private, loopback and link-local addresses refused unless allowed. */
export interface TargetPolicy {
  httpsOnly: boolean;
  allowPrivate: boolean;
}

/**
 * The policy of a deployment: in production https only, unless private targets are allowed
 * (receivers inside the operator's own network, where plain http is common, and the bench).
 */
export function targetPolicy(env: { NODE_ENV: string; WEBHOOK_ALLOW_PRIVATE: boolean }): TargetPolicy {
  return { httpsOnly: env.NODE_ENV === "production" && !env.WEBHOOK_ALLOW_PRIVATE, allowPrivate: env.WEBHOOK_ALLOW_PRIVATE };
}

/** Why a URL may not be a webhook endpoint (checked when it is registered), or null. */
export function urlProblem(raw: string, policy: TargetPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "url must be an absolute http(s) URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "url must be an absolute http(s) URL";
  if (policy.httpsOnly && url.protocol !== "https:") return "url must use https";
  if (url.username || url.password) return "url must not carry credentials";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host) && !isAllowedAddress(host, policy)) return `url points at a ${ipaddr.process(host).range()} address, which is not allowed`;
  if (!policy.allowPrivate && (host === "localhost" || host.endsWith(".localhost"))) return "url points at a loopback address, which is not allowed";
  return null;
}

/** Public unicast only, unless private targets are allowed (then anything but the unspecified address). */
export function isAllowedAddress(address: string, policy: Pick<TargetPolicy, "allowPrivate">): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  if (range === "unspecified") return false;
  return policy.allowPrivate || range === "unicast";
}

/**
 * A `lookup` for http.request that refuses private addresses at connection time, on the
 * address actually connected to (a name that resolved to a public address when the endpoint
 * was registered may resolve to 127.0.0.1 now: DNS rebinding).
 */
export function guardedLookup(policy: Pick<TargetPolicy, "allowPrivate">): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((a) => !isAllowedAddress(a.address, policy));
      if (refused)
        return callback(
          Object.assign(new Error(`${hostname} resolves to ${refused.address}, a ${ipaddr.process(refused.address).range()} address, which is not allowed`), {
            code: "EREFUSEDADDRESS",
          }),
        );
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  }) as net.LookupFunction;
}

import { isIP, isIPv4 } from "node:net";
import { z } from "zod";

/** What Express's `trust proxy` setting gets: nothing, a hop count, or the proxies' addresses and ranges. */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for address ranges (Express's `trust proxy` takes them). */
const RANGE_NAMES = ["loopback", "linklocal", "uniquelocal"];

const EVERYONE =
  "would trust every address, so any client could choose the address the rate limits and the sign-in limits see by sending X-Forwarded-For; give the number of proxies in front of the API (e.g. 1) or their addresses (e.g. 10.0.0.0/8)";

/** Why one entry of an address list is not a proxy Express can trust, or null when it is one. */
function entryProblem(entry: string): string | null {
  if (RANGE_NAMES.includes(entry)) return null;
  const [address = "", mask, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length) return `"${entry}" is not an address, a CIDR range or one of ${RANGE_NAMES.join(", ")}`;
  if (mask === undefined) return null;
  if (family === 4 && isIPv4(mask)) return mask === "0.0.0.0" ? `"${entry}" ${EVERYONE}` : null;
  const bits = /^\d{1,3}$/.test(mask) ? Number(mask) : -1;
  if (bits < 0 || bits > (family === 4 ? 32 : 128)) return `"${entry}" has no valid prefix length (0 to ${family === 4 ? 32 : 128})`;
  return bits === 0 ? `"${entry}" ${EVERYONE}` : null;
}

/**
 * TRUST_PROXY: `false`, a hop count, or a comma-separated list of proxy addresses, CIDR ranges
 * and proxy-addr's range names, as Express's `trust proxy` takes them; never `true` (or a range
 * holding every address), which trusts whatever X-Forwarded-For a client writes.
 */
export const trustProxyVar = () =>
  z
    .string()
    .trim()
    .transform((value, ctx): TrustProxy => {
      const lower = value.toLowerCase();
      if (lower === "false") return false;
      if (lower === "true") {
        ctx.addIssue({ code: "custom", message: `true ${EVERYONE}` });
        return z.NEVER;
      }
      if (/^\d+$/.test(value)) {
        if (value.length > 3) ctx.addIssue({ code: "custom", message: "a hop count must be at most 999" });
        return Number(value) || false;
      }
      const entries = value.split(",").map((e) => e.trim());
      const problems = entries.map(entryProblem).filter((p) => p !== null);
      for (const message of problems) ctx.addIssue({ code: "custom", message });
      return problems.length ? z.NEVER : entries;
    })
    .default(false)
    .meta({ allowed: "false, a hop count, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal" });

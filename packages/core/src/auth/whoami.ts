import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { apiKeys, oauthClients, users } from "@insp/db/schema";
import type { Principal } from "./credentials.ts";

/** GET /api/auth/whoami: the caller's credential as the API sees it (never a secret or a hash). */
export type WhoAmI =
  | {
      kind: "apiKey";
      organizationId: string;
      apiKey: { id: string; name: string; prefix: string; scopes: string[]; createdAt: string; expiresAt: string | null };
    }
  | { kind: "user"; organizationId: string; user: { id: string; email: string; name: string | null; isAdmin: boolean; mustResetPassword: boolean } }
  | { kind: "client"; organizationId: string; client: { clientId: string; name: string; scopes: string[] } };

export async function whoAmI(db: DbOrTx, p: Principal): Promise<WhoAmI> {
  const org = p.organizationId;
  if (p.kind === "apiKey") {
    const [k] = await db
      .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt, expiresAt: apiKeys.expiresAt })
      .from(apiKeys)
      .where(and(eq(apiKeys.organizationId, org), eq(apiKeys.id, p.apiKeyId)));
    return {
      kind: "apiKey",
      organizationId: org,
      apiKey: {
        id: k!.id,
        name: k!.name,
        prefix: k!.prefix,
        scopes: [...p.scopes],
        createdAt: new Date(k!.createdAt).toISOString(),
        expiresAt: k!.expiresAt ? new Date(k!.expiresAt).toISOString() : null,
      },
    };
  }
  if (p.kind === "user") {
    const [u] = await db
      .select({ id: users.id, email: users.email, name: users.name })
      .from(users)
      .where(and(eq(users.organizationId, org), eq(users.id, p.userId)));
    return {
      kind: "user",
      organizationId: org,
      user: { id: u!.id, email: u!.email, name: u!.name, isAdmin: p.isAdmin, mustResetPassword: p.mustResetPassword },
    };
  }
  const [c] = await db
    .select({ name: oauthClients.name })
    .from(oauthClients)
    .where(and(eq(oauthClients.organizationId, org), eq(oauthClients.clientId, p.clientId)));
  // The token's scopes: what this token may do, which may be fewer than the client's.
  return { kind: "client", organizationId: org, client: { clientId: p.clientId, name: c!.name, scopes: [...p.scopes] } };
}

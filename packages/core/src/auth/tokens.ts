import { randomUUID } from "node:crypto";
import { desc, isNull } from "drizzle-orm";
import {
  SignJWT,
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  importPKCS8,
  jwtVerify,
  errors as joseErrors,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  type CryptoKey,
} from "jose";
import type { Db } from "@insp/db";
import { signingKeys } from "@insp/db/schema";

/**
 * Access tokens are ES256 JWTs; verification pins algorithm, issuer and audience, so a token
 * with alg "none", an HS256 token keyed with the public key, or another service's token is refused.
 */
const TOKEN_ALG = "ES256";

export type TokenUse = "client" | "user";

export interface TokenClaims {
  use: TokenUse;
  /** OAuth client id (client tokens) or user id (user tokens). */
  sub: string;
  org: string;
  scope: string;
  iat: number;
  exp: number;
}

export interface TokenServiceOptions {
  issuer: string;
  /** PEM (PKCS#8) of an EC P-256 key; when absent the key lives in the signing_keys table so all replicas share it. */
  privateKeyPem?: string;
}

interface SigningKey {
  kid: string;
  key: CryptoKey;
}

export class TokenService {
  private signer?: SigningKey;
  private publicKeys: JWK[] = [];
  private jwks?: ReturnType<typeof createLocalJWKSet>;
  private lastReload = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: TokenServiceOptions,
  ) {}

  get audience(): string {
    return `${this.opts.issuer}:api`;
  }

  /** Loads (or, on first use of a database, creates) the signing key. */
  async init(): Promise<void> {
    if (this.opts.privateKeyPem) {
      const key = await importPKCS8(this.opts.privateKeyPem, TOKEN_ALG, { extractable: true });
      const jwk = await exportJWK(key);
      const pub: JWK = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
      const kid = await jwkThumbprintKid(pub);
      this.signer = { kid, key };
      this.publicKeys = [{ ...pub, kid, alg: TOKEN_ALG, use: "sig" }];
      this.jwks = createLocalJWKSet({ keys: this.publicKeys });
      return;
    }
    await this.reloadFromDb();
    if (!this.signer) {
      const { privateKey, publicKey } = await generateKeyPair(TOKEN_ALG, { extractable: true });
      const kid = randomUUID();
      await this.db
        .insert(signingKeys)
        .values({ kid, alg: TOKEN_ALG, privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) })
        .onConflictDoNothing();
      await this.reloadFromDb();
    }
  }

  private async reloadFromDb(): Promise<void> {
    const rows = await this.db.select().from(signingKeys).where(isNull(signingKeys.retiredAt)).orderBy(desc(signingKeys.createdAt), desc(signingKeys.kid));
    this.lastReload = Date.now();
    if (rows.length === 0) return;
    const newest = rows[0]!;
    this.signer = { kid: newest.kid, key: (await importJWK(newest.privateJwk as JWK, TOKEN_ALG)) as CryptoKey };
    this.publicKeys = rows.map((r) => ({ ...(r.publicJwk as JWK), kid: r.kid, alg: TOKEN_ALG, use: "sig" }));
    this.jwks = createLocalJWKSet({ keys: this.publicKeys });
  }

  jwksDocument(): JSONWebKeySet {
    return { keys: this.publicKeys };
  }

  async sign(claims: { use: TokenUse; sub: string; org: string; scope: string }, ttlSeconds: number): Promise<string> {
    if (!this.signer) throw new Error("TokenService.init() was not called");
    // iat with millisecond precision (NumericDate may be fractional, RFC 7519 section 2), so a
    // token issued just before a password change or a disable is told apart from one issued after.
    const now = Date.now();
    return new SignJWT({ org: claims.org, scope: claims.scope, use: claims.use, iat: now / 1000 })
      .setProtectedHeader({ alg: TOKEN_ALG, kid: this.signer.kid, typ: "at+jwt" })
      .setIssuer(this.opts.issuer)
      .setAudience(this.audience)
      .setSubject(claims.sub)
      .setExpirationTime(Math.floor(now / 1000) + ttlSeconds)
      .setJti(randomUUID())
      .sign(this.signer.key);
  }

  /** Verified claims, or null for any invalid, expired, tampered or foreign token. */
  async verify(token: string): Promise<TokenClaims | null> {
    if (!this.jwks) return null;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, { algorithms: [TOKEN_ALG], issuer: this.opts.issuer, audience: this.audience }));
    } catch (err) {
      // A key made by another replica since we loaded ours: reload at most every 10 s.
      if (err instanceof joseErrors.JWKSNoMatchingKey && !this.opts.privateKeyPem && Date.now() - this.lastReload > 10_000) {
        await this.reloadFromDb();
        return this.verify(token);
      }
      return null;
    }
    const { sub, org, scope, use, iat, exp } = payload as JWTPayload & { org?: unknown; scope?: unknown; use?: unknown };
    if (typeof sub !== "string" || typeof org !== "string" || typeof scope !== "string" || (use !== "client" && use !== "user")) return null;
    if (typeof iat !== "number" || typeof exp !== "number") return null;
    return { sub, org, scope, use, iat, exp };
  }
}

const jwkThumbprintKid = (jwk: JWK) => calculateJwkThumbprint(jwk);

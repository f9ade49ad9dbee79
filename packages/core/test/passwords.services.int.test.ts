import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@insp/db/schema";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import {
  TokenService,
  changePassword,
  generateTemporaryPassword,
  hashPassword,
  hashTemporaryPassword,
  inviteUser,
  login,
  seedDemo,
  type DemoSeed,
} from "../src/index.ts";
import { DUMMY_PASSWORD_HASH, UNUSABLE_PASSWORD, argonVerifications } from "../src/auth/passwords.ts";

/**
 * Every password check costs one argon2id verification, whatever the account holds: counted, not
 * timed, so that the test cannot fail on a slow machine. Before, an account with a temporary
 * password, no password or an unusable one was answered after a SHA-256 or nothing at all, and
 * how long a wrong password took told such accounts apart from the rest.
 */

let db: TestDatabase;
let t: DemoSeed;
let tokens: TokenService;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await seedDemo(db.db);
  tokens = new TokenService(db.db, { issuer: "test" });
  await tokens.init();
});
afterAll(() => db?.close());

/** A user of the test's organization whose stored hash is `passwordHash`. */
async function userWith(passwordHash: string | null, extra: { disabled?: boolean } = {}) {
  // A password of its own (no welcome mail), replaced below.
  const { user: u } = await inviteUser(db.db, t.organization.id, "admin_cli", {
    email: `u-${Math.random().toString(36).slice(2)}@example.test`,
    password: "replaced below",
  });
  await db.db
    .update(users)
    .set({ passwordHash, ...extra })
    .where(eq(users.id, u.id));
  return u;
}

/** How many argon2id verifications `run` made, and whether it succeeded. */
async function argonRunsOf(run: () => Promise<unknown>): Promise<{ runs: number; ok: boolean }> {
  const before = argonVerifications();
  const ok = await run().then(
    () => true,
    () => false,
  );
  return { runs: argonVerifications() - before, ok };
}

const signIn = (email: string, password: string) => () => login(db.db, tokens, email, password, 60);

describe("every sign-in costs one argon2id verification", () => {
  it("for a chosen password, right or wrong", async () => {
    expect(await argonRunsOf(signIn(t.users.admin.email, t.users.admin.password))).toEqual({ runs: 1, ok: true });
    expect(await argonRunsOf(signIn(t.users.admin.email, "not the password"))).toEqual({ runs: 1, ok: false });
  });

  it("for an unknown e-mail, an account without a password, an unusable one and a disabled one", async () => {
    expect(await argonRunsOf(signIn("nobody-here@example.test", "a guess"))).toEqual({ runs: 1, ok: false });
    expect(await argonRunsOf(signIn((await userWith(null)).email, "a guess"))).toEqual({ runs: 1, ok: false });
    expect(await argonRunsOf(signIn((await userWith(UNUSABLE_PASSWORD)).email, UNUSABLE_PASSWORD))).toEqual({ runs: 1, ok: false });
    const disabledPassword = "the disabled user's own password";
    const disabled = await userWith(await hashPassword(disabledPassword), { disabled: true });
    expect(await argonRunsOf(signIn(disabled.email, disabledPassword))).toEqual({ runs: 1, ok: false });
  });

  it("for a generated temporary password (stored as SHA-256), right or wrong", async () => {
    const temp = generateTemporaryPassword();
    const u = await userWith(hashTemporaryPassword(temp));
    expect(await argonRunsOf(signIn(u.email, "a guess"))).toEqual({ runs: 1, ok: false });
    expect(await argonRunsOf(signIn(u.email, temp))).toEqual({ runs: 1, ok: true });
  });

  it("for the currentPassword of a password change, a temporary one included", async () => {
    const temp = generateTemporaryPassword();
    const u = await userWith(hashTemporaryPassword(temp));
    expect(await argonRunsOf(() => changePassword(db.db, u.id, "a guess", "a long enough new password"))).toEqual({ runs: 1, ok: false });
    expect(await argonRunsOf(() => changePassword(db.db, u.id, temp, "a long enough new password"))).toEqual({ runs: 1, ok: true });
  });
});

describe("the dummy hash", () => {
  it("has the parameters real hashes get, so checking against it costs the same", async () => {
    const params = (hash: string) => hash.split("$").slice(1, 4).join("$");
    expect(params(DUMMY_PASSWORD_HASH)).toBe(params(await hashPassword("any password at all")));
  });
});

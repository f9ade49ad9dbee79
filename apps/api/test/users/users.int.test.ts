import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createApiKey, type DemoSeed } from "@insp/core";
import { until } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { userToken } from "../fixtures/templates.fixtures.ts";
import { useMailStack } from "../fixtures/mail.fixtures.ts";

/**
 * Users over HTTP (docs/users.md): an admin invites a user, who gets the welcome mail with a
 * temporary password through the real SMTP path; lists, filters and reads show the employee link;
 * who may, tenancy and bad input.
 */
const ctx = useMailStack();

const asAdmin = async (t: DemoSeed) => ({ bearer: await userToken(ctx.stack, t.users.admin) });
const email = () => `invited-${randomUUID()}@example.test`;

describe("inviting a user", () => {
  it("creates the user, mails a temporary password that signs in only to choose a password, and audits without it", async () => {
    const t = await ctx.stack.tenant();
    const auth = await asAdmin(t);
    const address = email();
    const made = await ctx.stack.http.post("/api/users", { email: address, name: "Jane Doe" }, { auth });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      email: address,
      username: address,
      name: "Jane Doe",
      isAdmin: false,
      disabled: false,
      mustResetPassword: true,
      employeeId: null,
      managedByHrSync: false,
      hrOwnedFields: [],
      welcomeMailQueued: true,
    });
    expect(JSON.stringify(made.body)).not.toMatch(/password_hash|passwordHash/);

    const mail = await ctx.smtp.waitFor((m) => m.envelopeTo.includes(address));
    expect(mail.subject).toBe(`Welcome to ${t.organization.name}`);
    expect(mail.text).toContain("Hello Jane Doe,");
    expect(mail.text).toContain(`Username: ${address}`);
    expect(mail.text).toContain("Sign in with this username and temporary password.");
    const temporary = /Temporary password: (\S+)/.exec(mail.text)?.[1];
    expect(temporary).toBeTruthy();

    // The temporary password signs in, but only to choose a new one.
    let login = { status: 0 };
    for (let i = 0; i < 100 && login.status !== 200; i++) {
      login = await ctx.stack.http.post("/api/auth/login", { email: address, password: temporary });
      if (login.status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(login.status).toBe(200);

    const [entry] = await ctx.stack.db
      .sql`select action, changed_fields from audit_log where organization_id = ${t.organization.id} and resource_id = ${made.body.id}`;
    expect(entry).toMatchObject({ action: "user.created" });
    expect(JSON.stringify(entry)).not.toContain(temporary!);

    const read = await ctx.stack.http.get(`/api/users/${made.body.id}`, { auth });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: made.body.id, email: address, mustResetPassword: true });
  });

  it("an e-mail already used (in any organization, any case) is a 409", async () => {
    const [t, other] = [await ctx.stack.tenant(), await ctx.stack.tenant()];
    const again = await ctx.stack.http.post("/api/users", { email: other.users.admin.email.toUpperCase() }, { auth: await asAdmin(t) });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain("already exists");
  });

  it("bad input is a 400 naming the field", async () => {
    const t = await ctx.stack.tenant();
    const auth = await asAdmin(t);
    const bad = await ctx.stack.http.post("/api/users", { email: "not an address", isAdmin: "yes" }, { auth });
    expect(bad.status).toBe(400);
    expect(bad.body.details.join(" ")).toMatch(/email/);
    expect(bad.body.details.join(" ")).toMatch(/isAdmin/);
    const extra = await ctx.stack.http.post("/api/users", { email: email(), password: "chosen by the admin" }, { auth });
    expect(extra.status).toBe(400);
    expect((await ctx.stack.http.get("/api/users?disabled=maybe", { auth })).status).toBe(400);
  });
});

describe("listing and reading", () => {
  it("pages, filters by prefix, admin flag and disabled, and shows the employee link of synced users", async () => {
    const t = await ctx.stack.tenant();
    const auth = await asAdmin(t);
    const e = uniq();
    const api = await syncCaller(ctx.stack, t);
    const { results } = await api.sync([
      { externalEmployeeId: e.id, firstName: "Sy", lastName: "Nced", email: e.email, userAccount: { forcePasswordReset: false, sendWelcomeEmail: false } },
    ]);
    const synced = await ctx.stack.http.get(`/api/users/${results[0].userId}`, { auth });
    expect(synced.body).toMatchObject({
      email: e.email,
      employeeId: results[0].employeeId,
      externalEmployeeId: e.id,
      managedByHrSync: true,
      hrOwnedFields: ["name", "email", "disabled"],
    });

    const all = await ctx.stack.http.get("/api/users?limit=2", { auth });
    expect(all.status).toBe(200);
    expect(all.body.pagination).toMatchObject({ total: 3, limit: 2, offset: 0, hasMore: true });
    const admins = await ctx.stack.http.get("/api/users?isAdmin=true", { auth });
    expect(admins.body.users.map((u: { email: string }) => u.email)).toEqual([t.users.admin.email]);
    const prefix = await ctx.stack.http.get(`/api/users?q=${encodeURIComponent(e.email.slice(0, 6).toUpperCase())}`, { auth });
    expect(prefix.body.users.map((u: { id: string }) => u.id)).toEqual([results[0].userId]);
    expect((await ctx.stack.http.get("/api/users?disabled=true", { auth })).body.pagination.total).toBe(0);
  });
});

describe("who may", () => {
  it("an inspector is refused; an API key needs users:manage; another organization's user is a 404", async () => {
    const [t, other] = [await ctx.stack.tenant(), await ctx.stack.tenant()];
    const inspector = { bearer: await userToken(ctx.stack, t.users.inspector) };
    const forbidden = { status: 403, body: { error: "Only admin users can manage users" } };
    expect(await ctx.stack.http.get("/api/users", { auth: inspector })).toMatchObject(forbidden);
    expect(await ctx.stack.http.post("/api/users", { nonsense: true }, { auth: inspector })).toMatchObject(forbidden);

    const without = (await createApiKey(ctx.stack.db.db, t.organization.id, "k", undefined, undefined, ["directory:read"])).apiKey;
    const refused = await ctx.stack.http.get("/api/users", { auth: { bearer: without } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain("users:manage");

    const withScope = (await createApiKey(ctx.stack.db.db, t.organization.id, "k", undefined, undefined, ["users:manage"])).apiKey;
    const made = await ctx.stack.http.post("/api/users", { email: email(), isAdmin: true }, { auth: { bearer: withScope } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.isAdmin).toBe(true);

    const admin = await asAdmin(t);
    expect((await ctx.stack.http.get(`/api/users/${other.users.admin.id}`, { auth: admin })).status).toBe(404);
    expect((await ctx.stack.http.get("/api/users/not-a-uuid", { auth: admin })).status).toBe(404);
    const listed = await ctx.stack.http.get("/api/users?limit=100", { auth: admin });
    expect(listed.body.users.map((u: { email: string }) => u.email)).not.toContain(other.users.admin.email);
  });
});

describe("changing a user", () => {
  it("needs If-Match (428, 412 when stale); disabling refuses sign-in and tokens at once; enabling lets them back", async () => {
    const t = await ctx.stack.tenant();
    const auth = await asAdmin(t);
    const id = t.users.inspector.id;
    const inspectorToken = await userToken(ctx.stack, t.users.inspector);
    expect((await ctx.stack.http.patch(`/api/users/${id}`, { name: "X" }, { auth })).status).toBe(428);
    const read = await ctx.stack.http.get(`/api/users/${id}`, { auth });
    const etag = read.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{20}"$/);
    const renamed = await ctx.stack.http.patch(`/api/users/${id}`, { name: "Ina Spector" }, { auth, headers: { "if-match": etag } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe("Ina Spector");
    expect(renamed.headers.get("etag")).not.toBe(etag);
    expect((await ctx.stack.http.patch(`/api/users/${id}`, { name: "Lost" }, { auth, headers: { "if-match": etag } })).status).toBe(412);

    const disabled = await ctx.stack.http.patch(`/api/users/${id}`, { disabled: true }, { auth, headers: { "if-match": "*" } });
    expect(disabled.body).toMatchObject({ disabled: true });
    expect((await ctx.stack.http.get("/api/auth/whoami", { auth: { bearer: inspectorToken } })).status).toBe(401);
    expect((await ctx.stack.http.post("/api/auth/login", { email: t.users.inspector.email, password: t.users.inspector.password })).status).toBe(401);
    expect((await ctx.stack.http.get("/api/users?disabled=true", { auth })).body.users.map((u: { id: string }) => u.id)).toEqual([id]);
    await ctx.stack.http.patch(`/api/users/${id}`, { disabled: false }, { auth, headers: { "if-match": "*" } });
    expect((await ctx.stack.http.post("/api/auth/login", { email: t.users.inspector.email, password: t.users.inspector.password })).status).toBe(200);

    const actions = await ctx.stack.db
      .sql`select action from audit_log where organization_id = ${t.organization.id} and resource_id = ${id} and action not like 'user.login%' order by created_at`;
    // user.created: the demo's users are made by the same function as POST /api/users.
    expect(actions.map((a) => a.action)).toEqual(["user.created", "user.updated", "user.disabled", "user.enabled"]);
  });

  it("the last active admin cannot be disabled or demoted (409); with a second admin they can", async () => {
    const t = await ctx.stack.tenant();
    const auth = await asAdmin(t);
    const me = t.users.admin.id;
    const demote = await ctx.stack.http.patch(`/api/users/${me}`, { isAdmin: false }, { auth, headers: { "if-match": "*" } });
    expect(demote.status).toBe(409);
    expect(demote.body.error).toContain("last active admin");
    expect((await ctx.stack.http.patch(`/api/users/${me}`, { disabled: true }, { auth, headers: { "if-match": "*" } })).status).toBe(409);
    await ctx.stack.http.patch(`/api/users/${t.users.inspector.id}`, { isAdmin: true }, { auth, headers: { "if-match": "*" } });
    expect((await ctx.stack.http.patch(`/api/users/${me}`, { isAdmin: false }, { auth, headers: { "if-match": "*" } })).status).toBe(200);
  });

  it("two admins demoting each other at once: exactly one succeeds, the other is a 409 (never a 500)", async () => {
    const t = await ctx.stack.tenant();
    const key = { bearer: t.apiKey };
    const star = { auth: key, headers: { "if-match": "*" } };
    await ctx.stack.http.patch(`/api/users/${t.users.inspector.id}`, { isAdmin: true }, star);
    const both = await Promise.all([
      ctx.stack.http.patch(`/api/users/${t.users.admin.id}`, { isAdmin: false }, star),
      ctx.stack.http.patch(`/api/users/${t.users.inspector.id}`, { disabled: true }, star),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const admins = await ctx.stack.http.get("/api/users?isAdmin=true&disabled=false", { auth: key });
    expect(admins.body.pagination.total).toBe(1);
  });

  it("a user linked to an employee: name and disabled belong to the HR sync (409 naming the field); isAdmin may change", async () => {
    const t = await ctx.stack.tenant();
    const auth = await asAdmin(t);
    const e = uniq();
    const { results } = await (
      await syncCaller(ctx.stack, t)
    ).sync([
      { externalEmployeeId: e.id, firstName: "Hr", lastName: "Owned", email: e.email, userAccount: { forcePasswordReset: false, sendWelcomeEmail: false } },
    ]);
    const path = `/api/users/${results[0].userId}`;
    const named = await ctx.stack.http.patch(path, { name: "Other" }, { auth, headers: { "if-match": "*" } });
    expect(named.status).toBe(409);
    expect(named.body.error).toBe(`name is owned by the HR sync for this user (employee ${e.id}): change it in the HR system`);
    expect((await ctx.stack.http.patch(path, { disabled: true }, { auth, headers: { "if-match": "*" } })).body.error).toContain(
      "disabled is owned by the HR sync",
    );
    expect((await ctx.stack.http.patch(path, { isAdmin: true }, { auth, headers: { "if-match": "*" } })).body).toMatchObject({
      isAdmin: true,
      managedByHrSync: true,
    });
  });

  it("reset-password: the old password and tokens stop working, a new temporary password is mailed", async () => {
    const t = await ctx.stack.tenant();
    const auth = await asAdmin(t);
    const u = t.users.inspector;
    const old = await userToken(ctx.stack, u);
    const reset = await ctx.stack.http.post(`/api/users/${u.id}/reset-password`, undefined, { auth });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ mustResetPassword: true, welcomeMailQueued: true });
    expect((await ctx.stack.http.get("/api/auth/whoami", { auth: { bearer: old } })).status).toBe(401);
    expect((await ctx.stack.http.post("/api/auth/login", { email: u.email, password: u.password })).status).toBe(401);
    const mail = await ctx.smtp.waitFor((m) => m.envelopeTo.includes(u.email));
    // It says what happened and what to do: not the welcome of a new account.
    expect(mail.subject).toBe(`Your password at ${t.organization.name} has been reset`);
    expect(mail.text).toContain(`An administrator of ${t.organization.name} has reset the password of`);
    expect(mail.text).toContain("Your previous password no longer works");
    expect(mail.text).toContain("choose a password of your own");
    expect(mail.text).not.toContain("An account has been created");
    const temporary = /Temporary password: (\S+)/.exec(mail.text)?.[1];
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await ctx.stack.http.post("/api/auth/login", { email: u.email, password: temporary })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
  });
});

describe("events", () => {
  it("user.created, user.updated, user.disabled and user.enabled reach a webhook, without any password; a key needs users:manage to register", async () => {
    const t = await ctx.stack.tenant();
    const events = ["user.created", "user.updated", "user.disabled", "user.enabled"];
    const narrow = (await createApiKey(ctx.stack.db.db, t.organization.id, "k", undefined, undefined, ["webhooks:manage"])).apiKey;
    const refused = await ctx.stack.http.post("/api/webhooks", { url: `${ctx.receiver.baseUrl}/x`, events }, { auth: { bearer: narrow } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain("users:manage");

    const path = `/users-${t.organization.id}`;
    const ep = await ctx.stack.http.post("/api/webhooks", { url: `${ctx.receiver.baseUrl}${path}`, events }, { auth: { bearer: t.apiKey } });
    expect(ep.status, ep.text).toBe(201);
    await ctx.receiver.configure(path, { secrets: [ep.body.secret] });
    const auth = await asAdmin(t);
    const made = (await ctx.stack.http.post("/api/users", { email: email(), name: "Hooked" }, { auth })).body;
    const star = { auth, headers: { "if-match": "*" } };
    await ctx.stack.http.patch(`/api/users/${made.id}`, { name: "Hooked Again" }, star);
    await ctx.stack.http.patch(`/api/users/${made.id}`, { disabled: true }, star);
    await ctx.stack.http.patch(`/api/users/${made.id}`, { disabled: false }, star);
    const got = await until(
      "four user events",
      () => ctx.receiver.received(path),
      (rs) => events.every((e) => rs.some((r) => r.body.type === e)),
    );
    for (const r of got) {
      expect(r.verified, r.body.type).toEqual([true]);
      expect(JSON.stringify(r.body)).not.toMatch(/password_?hash|sha256\$|argon2/i);
    }
    expect(got.find((r) => r.body.type === "user.created")!.body.data).toMatchObject({ id: made.id, email: made.email, managedByHrSync: false });
  });
});

describe("the admin CLI", () => {
  it("create-user runs the same function: the user signs in with the printed password, the e-mail check and the event are the same", async () => {
    const t = await ctx.stack.tenant();
    const root = fileURLToPath(new URL("../../../../", import.meta.url));
    const admin = (...args: string[]) =>
      spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "apps/admin/src/main.ts", ...args, "--json"], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: ctx.stack.env.DATABASE_URL, REDIS_URL: ctx.stack.env.REDIS_URL },
      });
    const address = email();
    const made = admin("create-user", "--org", t.organization.id, "--email", address, "--name", "From CLI");
    expect(made.status, made.stderr).toBe(0);
    const user = JSON.parse(made.stdout);
    expect(user).toMatchObject({ email: address, name: "From CLI", isAdmin: false });
    expect((await ctx.stack.http.post("/api/auth/login", { email: address, password: user.password })).status).toBe(200);
    const again = admin("create-user", "--org", t.organization.id, "--email", address.toUpperCase());
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain("already exists");
    const [change] = await ctx.stack.db.sql`select change from change_events where organization_id = ${t.organization.id} and resource_id = ${user.id}`;
    expect(change).toMatchObject({ change: "created" });
  });
});

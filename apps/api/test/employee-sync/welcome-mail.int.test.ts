import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { parseMail, startStack } from "@insp/testing";
import { countRows, syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";
import { useMailStack } from "../fixtures/mail.fixtures.ts";

const ctx = useMailStack({ workers: 2, mailFrom: "HR Sync <hr@example.test>" });

const to = (address: string) => (m: { envelopeTo: string[] }) => m.envelopeTo.includes(address);

/** SMTP delivery happens inside the worker's transaction: wait for its commit (row marked sent). */
async function sentOutbox(userId: string) {
  for (let i = 0; i < 100; i++) {
    const [row] = await ctx.stack.db.sql`select id, status, data from mail_outbox where user_id = ${userId}`;
    if (row?.status === "sent") return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("outbox row never marked sent");
}
const NEW_PASSWORD = "a long and private passphrase";

describe("welcome e-mail over SMTP", () => {
  it("delivers a temporary password that works until changed, only for changing it, then stops working", async () => {
    const t = await ctx.stack.tenant();
    const api = await syncCaller(ctx.stack, t);
    const e = uniq();
    const { results } = await api.sync([
      { externalEmployeeId: e.id, firstName: "Wel", lastName: "Come", email: e.email, userAccount: { forcePasswordReset: true, sendWelcomeEmail: true } },
    ]);
    const mail = await ctx.smtp.waitFor(to(e.email));
    expect(mail.headers.from).toContain("hr@example.test");
    expect(mail.headers.to).toContain(e.email);
    expect(mail.subject).toBe(`Welcome to ${t.organization.name}`);
    expect(mail.text).toContain("Hello Wel Come,");
    expect(mail.text).toContain(`Username: ${e.email}`);
    expect(mail.text).toContain("Sign in: https://app.example.test/login");
    const temporary = /Temporary password: (\S+)/.exec(mail.text)?.[1];
    expect(temporary).toMatch(/^[A-Za-z0-9_-]{24}$/);

    // Stored as a hash only; never in the outbox row, the job, a response or a log line.
    const outbox = await sentOutbox(results[0].userId);
    const [user] = await ctx.stack.db.sql`select password_hash, must_reset_password from users where id = ${results[0].userId}`;
    expect(user!.must_reset_password).toBe(true);
    expect(user!.password_hash).toMatch(/^sha256\$/);
    expect(user!.password_hash).not.toContain(temporary);
    expect(outbox).toMatchObject({ status: "sent", data: { username: e.email, includeTemporaryPassword: true } });
    expect(JSON.stringify(outbox)).not.toContain(temporary);
    const redis = new Redis(ctx.stack.env.REDIS_URL!);
    try {
      const job = await redis.hgetall(`${ctx.stack.env.QUEUE_PREFIX}:mail:mail_${outbox.id}`);
      expect(JSON.parse(job.data!)).toEqual({ organizationId: t.organization.id, outboxId: outbox.id });
      expect(JSON.stringify(job)).not.toContain(temporary);
    } finally {
      redis.disconnect();
    }
    for (const p of [ctx.stack.api, ...ctx.stack.workers]) expect(p.output()).not.toContain(temporary);

    // It works until changed (the mail says so), but only for changing the password.
    expect(mail.text).toContain("This password works until you change it.");
    expect((await ctx.stack.http.post("/api/auth/login", { email: e.email, password: temporary })).status).toBe(200);
    const login = await ctx.stack.http.post("/api/auth/login", { email: e.email, password: temporary });
    expect(login.status).toBe(200);
    expect(login.body.mustResetPassword).toBe(true);
    const auth = { bearer: login.body.accessToken as string };
    expect((await ctx.stack.http.get("/api/templates", { auth })).status).toBe(403);
    expect((await ctx.stack.http.post("/api/auth/password", { currentPassword: temporary, newPassword: NEW_PASSWORD }, { auth })).status).toBe(204);
    expect((await ctx.stack.http.post("/api/auth/login", { email: e.email, password: temporary })).status).toBe(401);
    const again = await ctx.stack.http.post("/api/auth/login", { email: e.email, password: NEW_PASSWORD });
    expect(again.status).toBe(200);
    expect(again.body.mustResetPassword).toBe(false);
    expect((await ctx.stack.http.get("/api/templates", { auth: { bearer: again.body.accessToken } })).status).toBe(200);
  });

  it("sends one welcome mail per new account: re-sending the batch sends nothing", async () => {
    const t = await ctx.stack.tenant();
    const api = await syncCaller(ctx.stack, t);
    const e = uniq();
    const employee = { externalEmployeeId: e.id, email: e.email, userAccount: { sendWelcomeEmail: true } };
    await api.sync([employee]);
    const mail = await ctx.smtp.waitFor(to(e.email));
    // Without forcePasswordReset the mail carries no password and the account has none.
    expect(mail.text).not.toContain("Temporary password");
    expect(mail.text).toContain("Your administrator will tell you how to sign in.");
    expect((await api.sync([employee])).results[0].status).toBe("UPDATED");
    await new Promise((r) => setTimeout(r, 1500));
    expect(ctx.smtp.messages.filter(to(e.email))).toHaveLength(1);
    expect(await countRows(ctx.stack, "mail_outbox", t.organization.id)).toBe(1);
  });

  it("forcePasswordReset without sendWelcomeEmail: no mail, and no password anyone knows", async () => {
    const t = await ctx.stack.tenant();
    const api = await syncCaller(ctx.stack, t);
    const e = uniq();
    const { results } = await api.sync([{ externalEmployeeId: e.id, email: e.email, userAccount: { forcePasswordReset: true } }]);
    const [user] = await ctx.stack.db.sql`select password_hash, must_reset_password from users where id = ${results[0].userId}`;
    expect(user).toEqual({ password_hash: "!unusable", must_reset_password: true });
    expect(await countRows(ctx.stack, "mail_outbox", t.organization.id)).toBe(0);
  });

  it("the outbox sweep delivers a pending mail whose job was lost", async () => {
    const t = await ctx.stack.tenant();
    const address = uniq().email;
    await ctx.stack.db.sql`insert into mail_outbox (organization_id, user_id, kind, to_address, data, created_at)
      values (${t.organization.id}, ${t.users.inspector.id}, 'welcome', ${address}, ${JSON.stringify({ displayName: "Lost", username: address, includeTemporaryPassword: false })}::jsonb, now() - interval '2 minutes')`;
    const mail = await ctx.smtp.waitFor(to(address), 20_000);
    expect(mail.text).toContain("Hello Lost,");
  });
});

describe("development delivery without SMTP_URL", () => {
  it("writes each mail as an .eml file under MAIL_DIR", async () => {
    const dev = await startStack({ workers: 1 });
    try {
      const t = await dev.tenant();
      const api = await syncCaller(dev, t);
      const e = uniq();
      await api.sync([{ externalEmployeeId: e.id, email: e.email, userAccount: { forcePasswordReset: true, sendWelcomeEmail: true } }]);
      const dir = dev.env.MAIL_DIR!;
      let files: string[] = [];
      for (let i = 0; i < 100 && files.length === 0; i++) {
        files = await readdir(dir).catch(() => []);
        if (!files.length) await new Promise((r) => setTimeout(r, 100));
      }
      expect(files).toHaveLength(1);
      const { headers, body } = parseMail(await readFile(path.join(dir, files[0]!), "utf8"));
      expect(headers.to).toContain(e.email);
      expect(body).toMatch(/Temporary password: [A-Za-z0-9_-]{24}/);
    } finally {
      await dev.stop();
    }
  });
});

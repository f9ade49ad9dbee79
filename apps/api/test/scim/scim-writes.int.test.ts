import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type JsonResponse, type Stack } from "@insp/testing";
import { syncCaller } from "../fixtures/employee-sync.fixtures.ts";
import {
  ENTERPRISE,
  GROUP,
  PATCH_OP,
  USER,
  expectError,
  expectList,
  expectResource,
  expectScim,
  lockAsWorker,
  lockWaiters,
  scimCaller,
} from "../fixtures/scim.fixtures.ts";

/**
 * SCIM writes beside the HR sync: an identity provider and a sync worker changing the same
 * employee at the same time (the test's own transaction plays the worker, holding the locks a
 * worker holds), two identity-provider requests with one If-Match, the statuses a SCIM write
 * keeps, the e-mail every User needs, a User created again after a DELETE, and who can join a
 * group.
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 1 });
});
afterAll(() => stack?.stop());

const row = async (id: string) =>
  (
    await stack.db.sql<
      {
        status: string;
        external_employee_id: string;
        email: string | null;
        department: string | null;
        job_title: string | null;
        metadata: Record<string, unknown> | null;
        manager_id: string | null;
        disabled: boolean | null;
      }[]
    >`
    select e.status, e.external_employee_id, e.email, e.department, e.job_title, e.metadata, e.manager_id, u.disabled
    from employees e left join users u on u.id = e.user_id where e.id = ${id}`
  )[0]!;

async function tenant() {
  const t = await stack.tenant();
  const c = await scimCaller(stack, t);
  const hr = await syncCaller(stack, t);
  const org = t.organization.id;
  const tag = org.slice(0, 8);
  const user = async (n: string, extra: Record<string, unknown> = {}) =>
    expectResource(
      await c.call("POST", "/Users", {
        schemas: [USER],
        userName: `${n}-${tag}@example.test`,
        externalId: `${n}-${tag}`,
        name: { givenName: n, familyName: "Tester" },
        ...extra,
      }),
      201,
      "User",
    );
  return { t, c, hr, org, tag, user };
}

/** `p`, or a failure naming `what` when it has not answered within `ms`. */
const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms))]);

describe("SCIM User writes and the HR sync", () => {
  it("a PATCH waits for a sync worker busy with the employee and applies to the employee as the worker left it", async () => {
    const { c, hr, org, user } = await tenant();
    const u = await user("ada", { [ENTERPRISE]: { department: "Warehouse" } });
    // An HR sync moves her; a later SCIM change keeps what it did.
    await hr.sync([{ externalEmployeeId: u.externalId, department: "Logistics", updateMode: "additive" }]);
    expect(
      expectResource(
        await c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "title", value: "Driver" }] }),
        200,
        "User",
      ),
    ).toMatchObject({ title: "Driver", [ENTERPRISE]: { department: "Logistics" } });

    // The identity provider deactivates her while a worker is applying another department.
    let patch!: Promise<JsonResponse>;
    await stack.db.sql.begin(async (tx) => {
      await lockAsWorker(tx, org, u.externalId);
      patch = c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] });
      await lockWaiters(stack, 1);
      await tx`update employees set department = 'Night shift', updated_at = now() where organization_id = ${org} and external_employee_id = ${u.externalId}`;
    });
    expect(expectResource(await patch, 200, "User")).toMatchObject({ active: false, title: "Driver", [ENTERPRISE]: { department: "Night shift" } });
    expect(await row(u.id)).toMatchObject({ status: "INACTIVE", department: "Night shift", job_title: "Driver", disabled: true });
  });

  it("two PUTs or two PATCHes with the same If-Match: one is applied, the other is a 412", async () => {
    const { c, org, user } = await tenant();
    for (const method of ["PUT", "PATCH"] as const) {
      const u = await user(`race-${method.toLowerCase()}`);
      const body = (title: string) =>
        method === "PUT"
          ? { schemas: [USER], userName: u.userName, externalId: u.externalId, emails: u.emails, title }
          : { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "title", value: title }] };
      let answers!: Promise<JsonResponse[]>;
      // Both arrive while a worker holds the employee, so both have read the same version.
      await stack.db.sql.begin(async (tx) => {
        await lockAsWorker(tx, org, u.externalId);
        answers = Promise.all(["First", "Second"].map((title) => c.call(method, `/Users/${u.id}`, body(title), { "if-match": u.meta.version })));
        await lockWaiters(stack, 2);
      });
      const [a, b] = await answers;
      expect([a!.status, b!.status].sort()).toEqual([200, 412]);
      const [won, lost] = a!.status === 200 ? [a!, b!] : [b!, a!];
      expectError(lost, 412);
      expect((await row(u.id)).job_title).toBe(won.body.title);
      expect(expectResource(await c.call("GET", `/Users/${u.id}`), 200, "User").meta.version).toBe(won.body.meta.version);
    }
  });

  it("an externalId rename waits for a worker busy with the old id and keeps what the worker wrote", async () => {
    const { c, org, user } = await tenant();
    const u = await user("rename");
    let patch!: Promise<JsonResponse>;
    await stack.db.sql.begin(async (tx) => {
      await lockAsWorker(tx, org, u.externalId);
      patch = c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "externalId", value: `${u.externalId}-new` }] });
      await lockWaiters(stack, 1);
      await tx`update employees set department = 'Night shift', updated_at = now() where organization_id = ${org} and external_employee_id = ${u.externalId}`;
    });
    expect(expectResource(await patch, 200, "User")).toMatchObject({ externalId: `${u.externalId}-new`, [ENTERPRISE]: { department: "Night shift" } });
    expect(await row(u.id)).toMatchObject({ external_employee_id: `${u.externalId}-new`, department: "Night shift" });
  });

  it("keeps TERMINATED when a provider deactivates a terminated employee, and keeps the status when a PUT leaves out active", async () => {
    const { c, hr, user } = await tenant();
    const leaver = await user("leaver");
    await hr.sync([{ externalEmployeeId: leaver.externalId, status: "TERMINATED" }]);
    expect(expectResource(await c.call("GET", `/Users/${leaver.id}`), 200, "User").active).toBe(false);
    // Entra's disable (a string boolean), then a profile change: still TERMINATED, not INACTIVE.
    expectResource(
      await c.call("PATCH", `/Users/${leaver.id}`, { schemas: [PATCH_OP], Operations: [{ op: "Replace", path: "active", value: "False" }] }),
      200,
      "User",
    );
    expect((await row(leaver.id)).status).toBe("TERMINATED");
    expectResource(
      await c.call("PATCH", `/Users/${leaver.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "title", value: "Former clerk" }] }),
      200,
      "User",
    );
    expect(await row(leaver.id)).toMatchObject({ status: "TERMINATED", job_title: "Former clerk" });

    // A PUT without active changes the profile, not the status.
    const off = await user("off", { active: false });
    const put = expectResource(
      await c.call("PUT", `/Users/${off.id}`, { schemas: [USER], userName: off.userName, externalId: off.externalId, emails: off.emails, title: "Clerk" }),
      200,
      "User",
    );
    expect(put).toMatchObject({ active: false, title: "Clerk" });
    expect((await row(off.id)).status).toBe("INACTIVE");
    const putLeaver = await c.call("PUT", `/Users/${leaver.id}`, {
      schemas: [USER],
      userName: leaver.userName,
      externalId: leaver.externalId,
      emails: leaver.emails,
    });
    expect(expectResource(putLeaver, 200, "User").active).toBe(false);
    expect((await row(leaver.id)).status).toBe("TERMINATED");
    // active true still brings a user back.
    expect(
      expectResource(
        await c.call("PATCH", `/Users/${off.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "active", value: true }] }),
        200,
        "User",
      ).active,
    ).toBe(true);
    expect((await row(off.id)).status).toBe("ACTIVE");
  });

  it("refuses a User without any e-mail (400 invalidValue), so every User it accepts has an account its userName finds", async () => {
    const { c, hr, tag } = await tenant();
    const q = (f: string) => c.call("GET", `/Users?filter=${encodeURIComponent(f)}`);
    const detail = expectError(
      await c.call("POST", "/Users", { schemas: [USER], userName: `jdoe-${tag}`, externalId: `jdoe-${tag}`, name: { givenName: "John", familyName: "Doe" } }),
      400,
      "invalidValue",
    );
    expect(detail).toMatch(/e-mail/);
    expectList(await q(`externalId eq "jdoe-${tag}"`), 0);

    // With a work e-mail: its userName is the account's, and Okta's lookup by userName finds it.
    const jdoe = expectResource(
      await c.call("POST", "/Users", {
        schemas: [USER],
        userName: `jdoe-${tag}`,
        externalId: `jdoe-${tag}`,
        emails: [{ value: `jdoe-${tag}@example.test`, type: "work" }],
      }),
      201,
      "User",
    );
    expect(jdoe.userName).toBe(`jdoe-${tag}`);
    expect(expectList(await q(`userName eq "jdoe-${tag}"`), 1)[0]!.id).toBe(jdoe.id);
    // A PUT without one, a PATCH that takes it away: 400, and the user keeps it.
    expectError(await c.call("PUT", `/Users/${jdoe.id}`, { schemas: [USER], userName: `jdoe-${tag}` }), 400, "invalidValue");
    expectError(await c.call("PATCH", `/Users/${jdoe.id}`, { schemas: [PATCH_OP], Operations: [{ op: "remove", path: "emails" }] }), 400, "invalidValue");
    expect((await row(jdoe.id)).email).toBe(`jdoe-${tag}@example.test`);

    // An employee the HR system keeps without an e-mail can still be deactivated.
    await hr.sync([{ externalEmployeeId: `nomail-${tag}`, firstName: "No", lastName: "Mail" }]);
    const nomail = expectList(await q(`externalId eq "nomail-${tag}"`), 1)[0]!;
    expect(
      expectResource(
        await c.call("PATCH", `/Users/${nomail.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "active", value: false }] }),
        200,
        "User",
      ).active,
    ).toBe(false);
    expect((await row(nomail.id)).status).toBe("INACTIVE");
  });

  it("a User created again after a DELETE keeps its HR metadata and loses the manager its new body does not name", async () => {
    const { c, hr, user } = await tenant();
    const boss = await user("boss");
    const u = await user("rehire");
    await hr.sync([{ externalEmployeeId: u.externalId, metadata: { costCenter: "CC-7" }, updateMode: "additive" }]);
    expectResource(await c.call("PATCH", `/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: "manager", value: boss.id }] }), 200, "User");
    expect((await row(u.id)).manager_id).toBe(boss.id);
    expectScim(await c.call("DELETE", `/Users/${u.id}`), 204);
    expect((await row(u.id)).status).toBe("TERMINATED");

    const again = expectResource(
      await c.call("POST", "/Users", { schemas: [USER], userName: u.userName, externalId: u.externalId, emails: u.emails }),
      201,
      "User",
    );
    expect(again.id).toBe(u.id);
    expect(again.active).toBe(true);
    expect(again[ENTERPRISE]?.manager).toBeUndefined();
    expect(await row(u.id)).toMatchObject({ status: "ACTIVE", manager_id: null, metadata: { costCenter: "CC-7" } });
  });
});

describe("SCIM Group writes and the HR sync", () => {
  it("only active Users join a group: INACTIVE and TERMINATED members are a 400 and nothing changes", async () => {
    const { c, hr, tag, user } = await tenant();
    const member = await user("member");
    const off = await user("inactive", { active: false });
    const gone = await user("terminated");
    await hr.sync([{ externalEmployeeId: gone.externalId, status: "TERMINATED" }]);
    const g = expectResource(await c.call("POST", "/Groups", { schemas: [GROUP], displayName: `Crew ${tag}`, members: [{ value: member.id }] }), 201, "Group");
    for (const m of [off, gone]) {
      const detail = expectError(
        await c.call("PATCH", `/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: "members", value: [{ value: m.id }] }] }),
        400,
        "invalidValue",
      );
      expect(detail).toContain(m.id);
    }
    expectError(
      await c.call("PUT", `/Groups/${g.id}`, { schemas: [GROUP], displayName: `Crew ${tag}`, members: [{ value: member.id }, { value: off.id }] }),
      400,
      "invalidValue",
    );
    expectError(await c.call("POST", "/Groups", { schemas: [GROUP], displayName: `Others ${tag}`, members: [{ value: gone.id }] }), 400, "invalidValue");
    expect(expectResource(await c.call("GET", `/Groups/${g.id}`), 200, "Group").members.map((m: { value: string }) => m.value)).toEqual([member.id]);
    expectList(await c.call("GET", `/Groups?filter=${encodeURIComponent(`displayName eq "Others ${tag}"`)}`), 0);
  });

  it("an archived group takes no new members (400 naming it), as over /api/groups; removing one, renaming and deleting still work", async () => {
    const { t, c, tag, user } = await tenant();
    const [member, other] = [await user("member"), await user("other")];
    const g = expectResource(await c.call("POST", "/Groups", { schemas: [GROUP], displayName: `Old ${tag}`, members: [{ value: member.id }] }), 201, "Group");
    const archived = await stack.http.patch(`/api/groups/${g.id}`, { archived: true }, { auth: { bearer: t.apiKey }, headers: { "if-match": "*" } });
    expect(archived.status, archived.text).toBe(200);
    const add = { schemas: [PATCH_OP], Operations: [{ op: "add", path: "members", value: [{ value: other.id }] }] };
    const detail = expectError(await c.call("PATCH", `/Groups/${g.id}`, add), 400, "invalidValue");
    expect(detail).toContain(`Group 'Old ${tag}' (${g.id}) is archived`);
    expectError(
      await c.call("PUT", `/Groups/${g.id}`, { schemas: [GROUP], displayName: `Old ${tag}`, members: [{ value: member.id }, { value: other.id }] }),
      400,
      "invalidValue",
    );
    expect(expectResource(await c.call("GET", `/Groups/${g.id}`), 200, "Group").members.map((m: { value: string }) => m.value)).toEqual([member.id]);
    // What takes nothing new in is allowed: a new name, a member out, the group deleted.
    const renamed = { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "displayName", value: `Older ${tag}` }] };
    expectScim(await c.call("PATCH", `/Groups/${g.id}`, renamed), 204);
    const out = { schemas: [PATCH_OP], Operations: [{ op: "remove", path: `members[value eq "${member.id}"]` }] };
    expectScim(await c.call("PATCH", `/Groups/${g.id}`, out), 204);
    expect(expectResource(await c.call("GET", `/Groups/${g.id}`), 200, "Group")).toMatchObject({ displayName: `Older ${tag}` });
    expect(expectResource(await c.call("GET", `/Groups/${g.id}`), 200, "Group").members ?? []).toEqual([]);
    // Restored, it takes members again.
    await stack.http.patch(`/api/groups/${g.id}`, { archived: false }, { auth: { bearer: t.apiKey }, headers: { "if-match": "*" } });
    expectScim(await c.call("PATCH", `/Groups/${g.id}`, add), 204);
    expectScim(await c.call("DELETE", `/Groups/${g.id}`), 204);
  });

  it("a group write neither waits for a worker adding a member to the group nor deadlocks with one", async () => {
    const { c, org, tag, user } = await tenant();
    const [member, joiner, newcomer] = [await user("member"), await user("joiner"), await user("newcomer")];
    const g = expectResource(await c.call("POST", "/Groups", { schemas: [GROUP], displayName: `Shift ${tag}`, members: [{ value: member.id }] }), 201, "Group");
    const add = (id: string) => ({ schemas: [PATCH_OP], Operations: [{ op: "add", path: "members", value: [{ value: id }] }] });
    const membership = (tx: Parameters<typeof lockAsWorker>[0], id: string) =>
      tx`insert into employee_groups (employee_id, group_id, organization_id) values (${id}, ${g.id}, ${org}) on conflict (employee_id, group_id) do update set member_role = excluded.member_role`;

    // A worker has added the joiner to the group (its foreign-key check holds the group's row
    // FOR KEY SHARE) and has not committed yet: the identity provider's membership change goes through meanwhile.
    await stack.db.sql.begin(async (tx) => {
      await lockAsWorker(tx, org, joiner.externalId);
      await membership(tx, joiner.id);
      const removal = { schemas: [PATCH_OP], Operations: [{ op: "remove", path: `members[value eq "${member.id}"]` }] };
      expectScim(await within(c.call("PATCH", `/Groups/${g.id}`, removal), 5_000, "the membership change"), 204);
    });
    expectScim(
      await c.call("PATCH", `/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "displayName", value: `Late shift ${tag}` }] }),
      204,
    );

    // A worker busy with the newcomer (its row updated) adds it to the group while the identity provider adds it too.
    let patch!: Promise<JsonResponse>;
    await stack.db.sql.begin(async (tx) => {
      await lockAsWorker(tx, org, newcomer.externalId);
      await tx`update employees set job_title = 'Fitter', updated_at = now() where organization_id = ${org} and external_employee_id = ${newcomer.externalId}`;
      patch = c.call("PATCH", `/Groups/${g.id}`, add(newcomer.id));
      await lockWaiters(stack, 1);
      await membership(tx, newcomer.id);
    });
    expectScim(await patch, 204);
    const now = expectResource(await c.call("GET", `/Groups/${g.id}`), 200, "Group");
    expect(now.displayName).toBe(`Late shift ${tag}`);
    expect(now.members.map((m: { value: string }) => m.value).sort()).toEqual([joiner.id, newcomer.id].sort());
  });
});

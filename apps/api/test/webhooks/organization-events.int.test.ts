import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS } from "@insp/contracts";
import { startReceiver, startStack, until, type Receiver, type ReceivedWebhook, type Stack } from "@insp/testing";

/**
 * Every change an organization's admin makes over HTTP is an event (issue 32, item 4): for each
 * kind (site, group, role, response type, asset type, user, API key, OAuth client) every event
 * type the contract lists reaches a real webhook receiver, signed, with the row as its GET answers
 * it (its id for a deletion), and the same change is in the audit log and the change log (which
 * the feeds read).
 */

let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([
    startStack({ workers: 1, env: { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "0,1,1,1" } }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.stop()]);
});

const KINDS = ["site", "group", "role", "response_type", "asset_type", "user", "api_key", "oauth_client"];
const EVENTS = WEBHOOK_EVENTS.filter((e) => KINDS.includes(e.split(".")[0]!));

describe("organization administration events", () => {
  it("every site, group, role, response type, asset type, user, API key and OAuth client event: webhook, audit entry, change log", async () => {
    const t = await stack.tenant();
    const auth = { bearer: t.apiKey };
    const any = { auth, headers: { "if-match": "*" } };
    const path = `/org-events-${t.organization.id}`;
    const ep = await stack.http.post("/api/webhooks", { url: `${receiver.baseUrl}${path}`, events: EVENTS }, { auth });
    expect(ep.status, ep.text).toBe(201);
    await receiver.configure(path, { secrets: [ep.body.secret] });

    /** The events each change should send, by the id its webhook body names. */
    const expected: [string, string][] = [];
    const ok = (res: { status: number; text: string }, status = 200) => expect(res.status, res.text).toBe(status);
    // Each directory noun: created, updated, archived, deleted (an archived row without referrers may be deleted).
    const nouns: [string, string, Record<string, unknown>, Record<string, unknown>][] = [
      ["site", "/api/sites", { name: "Event site", code: "EV-1" }, { address: "Quay 1" }],
      ["group", "/api/groups", { name: "Event group" }, { externalGroupId: "EV-G" }],
      ["role", "/api/roles", { name: "event_role" }, { name: "event_role_2" }],
      ["response_type", "/api/response-types", { name: "Event type", inputType: "TEXT" }, { uiLabel: "Event" }],
      ["asset_type", "/api/asset-types", { name: "Event asset type" }, { fields: [{ name: "serial", type: "text" }] }],
    ];
    for (const [kind, base, create, change] of nouns) {
      const made = await stack.http.post(base, create, { auth });
      ok(made, 201);
      ok(await stack.http.patch(`${base}/${made.body.id}`, change, any));
      ok(await stack.http.patch(`${base}/${made.body.id}`, { archived: true }, any));
      ok(await stack.http.request("DELETE", `${base}/${made.body.id}`, { auth }), 204);
      for (const c of ["created", "updated", "archived", "deleted"]) expected.push([`${kind}.${c}`, made.body.id]);
    }
    // A user: invited, renamed, disabled, enabled.
    const user = await stack.http.post("/api/users", { email: `events-${t.organization.id}@example.test`, name: "Eve Vent" }, { auth });
    ok(user, 201);
    ok(await stack.http.patch(`/api/users/${user.body.id}`, { name: "Eve Vents" }, any));
    ok(await stack.http.patch(`/api/users/${user.body.id}`, { disabled: true }, any));
    ok(await stack.http.patch(`/api/users/${user.body.id}`, { disabled: false }, any));
    for (const c of ["created", "updated", "disabled", "enabled"]) expected.push([`user.${c}`, user.body.id]);
    // An API key: created, revoked. An OAuth client: created, rotated, revoked.
    const key = await stack.http.post("/api/api-keys", { name: "events key", scopes: ["audit:read"] }, { auth });
    ok(key, 201);
    ok(await stack.http.post(`/api/api-keys/${key.body.id}/revoke`, undefined, { auth }));
    expected.push(["api_key.created", key.body.id], ["api_key.revoked", key.body.id]);
    const client = await stack.http.post("/api/oauth-clients", { name: "events client", scopes: ["employees:sync"] }, { auth });
    ok(client, 201);
    ok(await stack.http.post(`/api/oauth-clients/${client.body.clientId}/rotate-secret`, {}, { auth }));
    ok(await stack.http.post(`/api/oauth-clients/${client.body.clientId}/revoke`, undefined, { auth }));
    expected.push(["oauth_client.created", client.body.id], ["oauth_client.rotated", client.body.id], ["oauth_client.revoked", client.body.id]);
    // The audit log names a client by its clientId (as it names a client that acts), the events by its id.
    const auditId = (id: string) => (id === client.body.id ? client.body.clientId : id);

    // The contract's list of these kinds' events is covered, each one at least once.
    expect([...new Set(expected.map(([type]) => type))].sort()).toEqual([...EVENTS].sort());

    const has = (rs: ReceivedWebhook[], [type, id]: [string, string]) => rs.some((r) => r.body.type === type && r.body.data.id === id);
    const got = await until(
      `${expected.length} events`,
      () => receiver.received(path),
      (rs) => expected.every((e) => has(rs, e)),
    );
    for (const e of expected) {
      const r = got.find((x) => x.body.type === e[0] && x.body.data.id === e[1])!;
      expect(r.verified, e[0]).toEqual([true]);
      if (e[0].endsWith(".deleted")) expect(r.body.data, e[0]).toEqual({ id: e[1] });
    }
    // Bodies carry what GET answers, never a secret.
    const created = got.find((r) => r.body.type === "api_key.created" && r.body.data.id === key.body.id)!.body.data;
    expect(created).toMatchObject({ id: key.body.id, prefix: key.body.prefix, scopes: ["audit:read"] });
    expect(JSON.stringify(got)).not.toContain(key.body.apiKey);
    expect(JSON.stringify(got)).not.toContain(client.body.clientSecret);
    expect(got.find((r) => r.body.type === "user.created" && r.body.data.id === user.body.id)!.body.data).toMatchObject({
      email: user.body.email,
      managedByHrSync: false,
    });

    // The change log (feeds, the webhook dispatcher) and the audit log have every one.
    const changes = await stack.db.sql<{ type: string; id: string }[]>`
      select resource_type || '.' || change as type, resource_id::text as id from change_events where organization_id = ${t.organization.id}`;
    const audit = await stack.db.sql<{ type: string; id: string; actor: string }[]>`
      select action as type, resource_id::text as id, actor_type as actor from audit_log where organization_id = ${t.organization.id}`;
    for (const [type, id] of expected) {
      expect(
        changes.some((c) => c.type === type && c.id === id),
        `change ${type}`,
      ).toBe(true);
      expect(
        audit.some((a) => a.type === type && a.id === auditId(id) && a.actor === "api_key"),
        `audit ${type}`,
      ).toBe(true);
    }
  });
});

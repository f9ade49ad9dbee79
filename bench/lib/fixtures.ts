import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";
import type { DemoSeed } from "@insp/core";
import type { Client } from "@insp/testing/http";

// ---- employees ----

export interface EmployeeShape {
  /** userAccount flags; undefined: no account. */
  account?: { forcePasswordReset: boolean; sendWelcomeEmail: boolean };
  /** Changes a field so an update really writes. */
  jobTitle?: string;
}

/**
 * `n` employees with ids `<tag>-<i>`, each with 2 roles, 1 group, 1 site and (by default) a
 * userAccount; e-mails are unique across the run.
 */
export function employeeBatch(t: DemoSeed, tag: string, n: number, shape: EmployeeShape = {}) {
  const account = shape.account ?? { forcePasswordReset: false, sendWelcomeEmail: false };
  return Array.from({ length: n }, (_, i) => ({
    externalEmployeeId: `${tag}-${i}`,
    status: "ACTIVE",
    firstName: "Bench",
    lastName: `Employee ${tag} ${i}`,
    email: `${tag}-${i}@bench.example`,
    phone: "+1 555 0100",
    jobTitle: shape.jobTitle ?? "Technician",
    department: "Operations",
    hireDate: "2024-01-15",
    roles: ["inspector", "FIELD_TECH"],
    groups: [{ externalGroupId: t.groups[0]!.externalId!, role: "member" }],
    sites: [{ id: t.sites[0]!.id }],
    userAccount: account,
  }));
}

export type SyncBody = { syncBatchId: string; employees: ReturnType<typeof employeeBatch> };

/** POST /api/v1/sync/employees; throws unless it is a 200 with every employee in results. */
export async function postSync(http: Client, token: string, body: SyncBody): Promise<{ requestId: string; results: { status: string }[]; errors: unknown[] }> {
  const res = await http.post("/api/v1/sync/employees", body, { auth: { bearer: token } });
  if (res.status !== 200) throw new Error(`sync answered ${res.status}: ${res.text.slice(0, 500)}`);
  if (res.body.errors?.length) throw new Error(`sync reported errors: ${JSON.stringify(res.body.errors.slice(0, 3))}`);
  if (res.body.results?.length !== body.employees.length)
    throw new Error(`sync returned ${res.body.results?.length} results for ${body.employees.length} employees`);
  return res.body;
}

// ---- templates ----

const rt = (t: DemoSeed, inputType: string) => t.responseTypes.find((r) => r.inputType === inputType)!.id;
const KINDS = ["TEXT", "NUMBER", "BOOLEAN", "DATE"] as const;

/** A published AUDIT template of `n` unconditional questions cycling TEXT, NUMBER, BOOLEAN, DATE; returns its id and question ids. */
export async function publishedTemplate(http: Client, t: DemoSeed, n: number): Promise<{ id: string; questions: { id: string; inputType: string }[] }> {
  const auth = { bearer: t.apiKey };
  const body = {
    createdBy: t.users.admin.id,
    name: `Bench audit ${n}`,
    type: "AUDIT",
    sections: [
      {
        title: "Checks",
        questions: Array.from({ length: n }, (_, i) => ({ key: `q${i}`, text: `Question ${i + 1}`, responseTypeId: rt(t, KINDS[i % KINDS.length]!) })),
      },
    ],
  };
  const res = await http.post("/api/templates", body, { auth });
  if (res.status !== 200) throw new Error(`template create failed: ${res.status} ${res.text}`);
  const tpl = res.body.template;
  const pub = await http.post(`/api/templates/${tpl.id}/publish`, {}, { auth });
  if (pub.status !== 200) throw new Error(`publish failed: ${pub.status} ${pub.text}`);
  return { id: tpl.id, questions: tpl.sections[0].questions.map((q: any) => ({ id: q.id, inputType: q.responseType.inputType })) };
}

/** A valid answer value for a question of the template above. */
export function answerFor(q: { id: string; inputType: string }, i: number) {
  switch (q.inputType) {
    case "NUMBER":
      return { questionId: q.id, answerNumber: i * 1.5 };
    case "BOOLEAN":
      return { questionId: q.id, answerBoolean: i % 2 === 0 };
    case "DATE":
      return { questionId: q.id, answerDate: "2026-03-01" };
    default:
      return { questionId: q.id, answerText: `Answer ${i}: everything as expected` };
  }
}

// ---- images ----

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(...parts: Buffer[]): number {
  let c = 0xffffffff;
  for (const b of parts) for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const chunk = (type: string, data: Buffer) => {
  const t = Buffer.from(type, "latin1");
  return Buffer.concat([u32(data.length), t, data, u32(crc32(t, data))]);
};

/**
 * A real RGB PNG of about `bytes` bytes with random pixels, so it does not compress: the
 * service decodes, sniffs, measures, hashes and stores the full size (each call is unique,
 * so nothing is deduplicated by content hash).
 */
export function randomPng(bytes: number): Buffer {
  const width = 1024;
  const height = Math.max(1, Math.round(bytes / (width * 3 + 1)));
  const raw = randomBytes(height * (width * 3 + 1));
  for (let y = 0; y < height; y++) raw[y * (width * 3 + 1)] = 0; // filter type "None" on each row
  const ihdr = Buffer.concat([u32(width), u32(height), Buffer.from([8, 2, 0, 0, 0])]);
  // Level 1: random data does not compress at any level; this keeps generation quick.
  const idat = deflateSync(raw, { level: 1 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

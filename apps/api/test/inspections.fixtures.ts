/** Builders shared by the inspections route tests: a published template with a rule chain, bodies, and tiny real images. */
import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";
import type { DemoSeed } from "@insp/core";
import type { Stack } from "@insp/testing";

const rt = (t: DemoSeed, inputType: string) => t.responseTypes.find((r) => r.inputType === inputType)!.id;

/**
 * "Plant audit": a three-level chain brakes (SELECT, required) -no-> brake_issue (MULTI_SELECT,
 * required) -leak-> leak_size (NUMBER, required), plus unconditional NUMBER, DATE, BOOLEAN and TEXT
 * questions. Option "no" of brakes requires a note and a photo (seed response type).
 */
export function auditTemplateBody(t: DemoSeed, extra: Record<string, unknown> = {}) {
  return {
    createdBy: t.users.admin.id,
    name: "Plant audit",
    type: "AUDIT",
    sections: [
      {
        title: "Checks",
        questions: [
          { key: "brakes", text: "Brakes OK?", required: true, responseTypeId: rt(t, "SELECT") },
          { key: "brake_issue", text: "What is wrong with the brakes?", required: true, responseTypeId: rt(t, "MULTI_SELECT") },
          { key: "leak_size", text: "Leak size in cm", required: true, responseTypeId: rt(t, "NUMBER") },
        ],
      },
      {
        title: "General",
        questions: [
          { key: "temperature", text: "Temperature", responseTypeId: rt(t, "NUMBER") },
          { key: "inspected_on", text: "Inspected on", responseTypeId: rt(t, "DATE") },
          { key: "powered", text: "Powered?", responseTypeId: rt(t, "BOOLEAN") },
          { key: "remarks", text: "Remarks", responseTypeId: rt(t, "TEXT") },
        ],
      },
    ],
    logicRules: [
      { sourceKey: "brakes", targetKey: "brake_issue", condition: { type: "equals", value: "no" } },
      { sourceKey: "brake_issue", targetKey: "leak_size", condition: { type: "is_selected", value: "leak" } },
    ],
    ...extra,
  };
}

export interface Tpl {
  id: string;
  version: number;
  /** question by key */
  q: Record<string, { id: string; text: string; options: { id: string; value: string; label: string }[] }>;
  /** option id of question `key` with value `value` */
  opt(key: string, value: string): string;
}

export async function createTemplate(stack: Pick<Stack, "http">, t: DemoSeed, body: unknown, publish = true): Promise<Tpl> {
  const auth = { bearer: t.apiKey };
  const res = await stack.http.post("/api/templates", body, { auth });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
  const tpl = res.body.template;
  if (publish) {
    const pub = await stack.http.post(`/api/templates/${tpl.id}/publish`, {}, { auth });
    if (pub.status !== 200) throw new Error(`publish failed: ${pub.status} ${pub.text}`);
  }
  const all = [...tpl.sections.flatMap((s: any) => s.questions), ...tpl.standaloneQuestions];
  const q = Object.fromEntries(all.filter((x: any) => x.key).map((x: any) => [x.key, x]));
  return { id: tpl.id, version: tpl.version, q, opt: (key, value) => q[key].options.find((o: any) => o.value === value).id };
}

export const publishedAudit = (stack: Pick<Stack, "http">, t: DemoSeed) => createTemplate(stack, t, auditTemplateBody(t));

/** A valid COMPLETED body: brakes "yes", so the chain below it stays hidden. */
export function importBody(t: DemoSeed, tpl: Tpl, extra: Record<string, unknown> = {}) {
  return {
    templateId: tpl.id,
    conductedBy: t.users.inspector.id,
    siteId: t.sites[0]!.id,
    answers: [{ questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes") }],
    ...extra,
  };
}

export async function importOk(stack: Pick<Stack, "http">, t: DemoSeed, body: unknown): Promise<{ id: string; inspectionNumber: string }> {
  const res = await stack.http.post("/api/inspections", body, { auth: { bearer: t.apiKey } });
  if (res.status !== 201) throw new Error(`import failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function createAsset(stack: Stack, t: DemoSeed, name: string, code: string | null = null): Promise<string> {
  const [row] = await stack.db.sql`insert into assets (organization_id, asset_type_id, name, code) values (${t.organization.id}, ${t.assetTypes[0]!.id}, ${name}, ${code}) returning id`;
  return row!.id as string;
}

// --- tiny real images, built by hand ---

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (b: Buffer) => {
  let c = 0xffffffff;
  for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const chunk = (type: string, data: Buffer) => Buffer.concat([u32(data.length), Buffer.from(type, "latin1"), data, u32(crc32(Buffer.concat([Buffer.from(type, "latin1"), data])))]);

/** A valid RGB PNG of w x h pixels (filled with one colour per `seed`). */
export function png(w: number, h: number, seed = 0): Buffer {
  const ihdr = Buffer.concat([u32(w), u32(h), Buffer.from([8, 2, 0, 0, 0])]);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3, seed & 0xff)]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/** A valid PNG of random pixels (incompressible): about w*h*3 bytes. */
export function noisyPng(w: number, h: number): Buffer {
  const raw = Buffer.concat(Array.from({ length: h }, () => Buffer.concat([Buffer.from([0]), randomBytes(w * 3)])));
  const ihdr = Buffer.concat([u32(w), u32(h), Buffer.from([8, 2, 0, 0, 0])]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: 1 })), chunk("IEND", Buffer.alloc(0))]);
}

/** JPEG markers: SOI, APP0 (JFIF), SOF0 with the size, EOI. */
export function jpeg(w: number, h: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, h >> 8, h & 0xff, w >> 8, w & 0xff, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A GIF89a of w x h with a two-colour palette and one LZW-coded pixel block. */
export function gif(w: number, h: number): Buffer {
  const le = (n: number) => Buffer.from([n & 0xff, n >> 8]);
  return Buffer.concat([
    Buffer.from("GIF89a", "latin1"),
    le(w),
    le(h),
    Buffer.from([0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff]),
    Buffer.from([0x2c]),
    le(0),
    le(0),
    le(1),
    le(1),
    Buffer.from([0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b]),
  ]);
}

/** The well-known 1x1 lossless WebP. */
export const webp1x1 = Buffer.from("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==", "base64");

export const dataUrl = (mime: string, b: Buffer) => `data:${mime};base64,${b.toString("base64")}`;

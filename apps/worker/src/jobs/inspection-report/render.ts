import { createWriteStream } from "node:fs";
import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import PDFDocument from "pdfkit";
import sharp from "sharp";
import { answerText, optionLabels, type InspectionDetail, type MediaStore, type ReportContent, type TemplateDetail, type TemplateQuestion } from "@insp/core";

// No cache of decoded images between operations (sharp keeps up to 50 MB by default): each image is used once.
sharp.cache(false);

/** Images are scaled down to at most this many pixels on their longer side before they are embedded (about 200 dpi across an A4 page). */
const REPORT_IMAGE_MAX_PX = 1600;
/** The tallest an image is drawn, in points (a third of an A4 page), so a portrait photo leaves room for its answer. */
const IMAGE_MAX_HEIGHT = 280;
const MARGIN = 50;
const FLAG = "#b00020";
const MUTED = "#555555";

/** A time of the report's header (started, completed) as it prints it: `2026-11-25 14:03 UTC`. */
function when(iso: string | null | undefined): string {
  if (!iso) return "-";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const day = (iso: string | null | undefined) => (iso ? (/^\d{4}-\d{2}-\d{2}/.exec(iso)?.[0] ?? iso) : "-");

type Answer = InspectionDetail["answers"][number];

/**
 * An answer as words, by the rule the exports follow too (answerText in @insp/core: option labels
 * joined with "; ", a number with its unit, a date as its day or its UTC instant), `-` for no
 * value. Its note is printed under it, not here.
 */
export function answerWords(a: Answer, q: TemplateQuestion | undefined): string {
  const text = answerText(a, optionLabels(q?.options ?? []));
  return text === null ? "-" : String(text);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * One image, read from the store and scaled down to REPORT_IMAGE_MAX_PX (never up) as a JPEG
 * (pdfkit embeds JPEG and PNG only; WebP and GIF become JPEG too). Only this image is in memory.
 */
async function loadImage(store: MediaStore, key: string): Promise<{ data: Buffer; width: number; height: number }> {
  const original = await readAll(await store.stream(key));
  const { data, info } = await sharp(original, { limitInputPixels: 100_000_000 })
    .rotate() // as the camera held it (EXIF orientation)
    .resize({ width: REPORT_IMAGE_MAX_PX, height: REPORT_IMAGE_MAX_PX, fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Questions in template order: the sections' in turn, then the standalone ones. */
function questionsInOrder(t: TemplateDetail): { section: string | null; question: TemplateQuestion }[] {
  const bySection = [...t.sections].sort((a, b) => a.position - b.position);
  return [
    ...bySection.flatMap((s) => [...s.questions].sort((a, b) => a.position - b.position).map((question) => ({ section: s.title, question }))),
    ...[...t.standaloneQuestions].sort((a, b) => a.position - b.position).map((question) => ({ section: null, question })),
  ];
}

/** The document being written, its text width, and a page break when `height` more would not fit. */
interface Sheet {
  doc: PDFKit.PDFDocument;
  width: number;
  ensure: (height: number) => void;
}

/** The title, and a two-column table of the inspection's facts, closed by a rule. */
function writeHeader({ doc, width }: Sheet, content: ReportContent): void {
  const { detail, template, reviewState } = content;
  doc.font("Helvetica-Bold").fontSize(18).text(template.title, { width });
  doc.font("Helvetica").fontSize(10).fillColor(MUTED).text(`Template version ${detail.templateVersion}`, { width }).fillColor("black");
  doc.moveDown(0.6);
  const site = "site" in detail && detail.site ? `${detail.site.name}${detail.site.code ? ` (${detail.site.code})` : ""}` : "-";
  const asset = "asset" in detail && detail.asset ? `${detail.asset.name}${detail.asset.code ? ` (${detail.asset.code})` : ""}` : (detail.assetName ?? "-");
  const location = detail.location
    ? `${detail.location.latitude.toFixed(6)}, ${detail.location.longitude.toFixed(6)}${detail.location.accuracyMeters !== undefined ? ` (within ${detail.location.accuracyMeters} m)` : ""}`
    : "-";
  const rows: [string, string][] = [
    ["Inspection", detail.inspectionNumber],
    ["Status", detail.status],
    ["Review state", reviewState],
    ["Site", site],
    ["Asset", asset],
    ["Inspector", detail.inspector.name ? `${detail.inspector.name} <${detail.inspector.email}>` : detail.inspector.email],
    ["Started", when(detail.startedAt)],
    ["Completed", when(detail.completedAt)],
    ["Location", location],
    ["Score", `${detail.score} / ${detail.maxScore}${detail.scorePercentage !== null ? ` (${Math.round(detail.scorePercentage * 10) / 10}%)` : ""}`],
    ["Flagged answers", String(detail.flaggedCount)],
  ];
  doc.fontSize(10);
  for (const [k, v] of rows) {
    const y = doc.y;
    doc.font("Helvetica-Bold").text(k, MARGIN, y, { width: 110 });
    const afterLabel = doc.y;
    doc.font("Helvetica").text(v, MARGIN + 115, y, { width: width - 115 });
    doc.y = Math.max(doc.y, afterLabel);
  }
  doc.x = MARGIN;
  doc.moveDown(0.8);
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + width, doc.y)
    .strokeColor("#cccccc")
    .stroke();
  doc.moveDown(0.8);
}

/** One question: its text (flagged in red), the answer or "Not answered", the note, the images and the actions. */
async function writeAnswer(sheet: Sheet, content: ReportContent, store: MediaStore, question: TemplateQuestion, a: Answer | undefined): Promise<void> {
  const { doc, width, ensure } = sheet;
  ensure(40);
  doc
    .font("Helvetica-Bold")
    .fontSize(11)
    .fillColor(a?.flagged ? FLAG : "black");
  doc.text(`${a?.flagged ? "[FLAGGED] " : ""}${question.text}`, MARGIN, doc.y, { width });
  doc
    .font("Helvetica")
    .fontSize(10)
    .fillColor("black")
    .text(a ? answerWords(a, question) : "Not answered", { width });
  if (a?.note) doc.fillColor(MUTED).text(`Note: ${a.note}`, { width }).fillColor("black");
  for (const image of a?.images ?? []) {
    if (!("mediaId" in image)) continue;
    const key = content.imageKeys.get(image.mediaId);
    if (!key) continue;
    const img = await loadImage(store, key);
    const scale = Math.min(1, width / img.width, IMAGE_MAX_HEIGHT / img.height);
    const [w, h] = [img.width * scale, img.height * scale];
    ensure(h + 6);
    const top = doc.y + 3;
    // At an explicit position pdfkit does not move the cursor: below the image by hand.
    doc.image(img.data, MARGIN, top, { width: w, height: h });
    doc.x = MARGIN;
    doc.y = top + h + 3;
  }
  for (const action of a?.actions ?? []) {
    ensure(28);
    const assignee = action.assignee ? (action.assignee.name ?? action.assignee.email) : "unassigned";
    doc.font("Helvetica-Bold").text(`Corrective action: ${action.title}`, MARGIN + 12, doc.y, { width: width - 12 });
    doc
      .font("Helvetica")
      .text(`${action.status}, ${action.priority} priority, ${assignee}, due ${action.dueAt ? day(action.dueAt) : "-"}`, { width: width - 12 });
    doc.x = MARGIN;
  }
  doc.moveDown(0.6);
}

/** Page i of n at the foot of every page; the number of pages. */
function writeFooters({ doc, width }: Sheet, inspectionNumber: string): number {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0; // writing below the bottom margin must not open a page
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(MUTED)
      .text(`${inspectionNumber}  ·  page ${i + 1 - range.start} of ${range.count}`, MARGIN, doc.page.height - MARGIN + 15, {
        width,
        align: "center",
        lineBreak: false,
      });
  }
  return range.count;
}

/**
 * Renders the report into `file` (streamed as it is written; pages stay buffered only for their
 * footers, images are written once embedded) and answers its page count.
 */
export async function renderReport(content: ReportContent, store: MediaStore, file: string): Promise<{ pages: number }> {
  const { detail, template } = content;
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `${detail.inspectionNumber} ${template.title}`, Author: "Inspection Service" },
  });
  const out = createWriteStream(file, { flags: "wx" });
  doc.pipe(out);
  const sheet: Sheet = {
    doc,
    width: doc.page.width - 2 * MARGIN,
    ensure: (height) => {
      if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
    },
  };
  writeHeader(sheet, content);
  // Answers, in template order
  const answers = new Map(detail.answers.map((a) => [a.questionId, a]));
  let section: string | null | undefined;
  for (const { section: s, question } of questionsInOrder(template)) {
    const a = answers.get(question.id);
    // A conditional question without an answer was not shown to the inspector.
    if (!a && question.triggerRules.length) continue;
    if (s !== section && s !== null) {
      sheet.ensure(60);
      doc.moveDown(0.4).font("Helvetica-Bold").fontSize(13).fillColor("black").text(s, MARGIN, doc.y, { width: sheet.width });
      doc.moveDown(0.3);
    }
    section = s;
    await writeAnswer(sheet, content, store, question, a);
  }
  const pages = writeFooters(sheet, detail.inspectionNumber);
  doc.end();
  await finished(out);
  return { pages };
}

/**
 * The shell examples of README.md and docs/*.md, read the way a reader meets them: the pages in
 * the order docs/README.md lists them, the fenced bash/sh/shell blocks of each page top to bottom.
 * docs-examples.int.test.ts runs them; this part only reads files.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export interface Block {
  page: string;
  line: number;
  code: string;
  /** `norun: <reason>` on the fence line: shown but not run; the reason says why. */
  norun: { reason: string } | null;
  /**
   * HTTP statuses the block shows in its comments (`# -> 201 {…}`, `# 404 {…}`, `…: 201 {…}`),
   * each with its alternatives (`# 200 or 409: …`, for an outcome that depends on timing).
   */
  shownStatuses: number[][];
}

const FENCE = /^```(bash|sh|shell)\b(.*)$/;

/** README.md, docs/README.md, then every page docs/README.md links to, in its order. */
export function pagesInOrder(root: string): string[] {
  const index = readFileSync(path.join(root, "docs/README.md"), "utf8");
  const linked = [...index.matchAll(/\]\(([a-z0-9-]+\.md)\)/g)].map((m) => `docs/${m[1]}`);
  return ["README.md", "docs/README.md", ...new Set(linked)];
}

export function blocksOf(root: string, page: string): Block[] {
  const lines = readFileSync(path.join(root, page), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]!);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith("```"); i++) body.push(lines[i]!);
    const info = fence[2]!.trim();
    const norun = /^norun\b:?\s*(.*)$/.exec(info);
    const code = body.join("\n");
    blocks.push({ page, line: start + 1, code, norun: norun ? { reason: norun[1]!.trim() } : null, shownStatuses: shownStatuses(code) });
  }
  return blocks;
}

/**
 * A status shown in a comment: at the comment's start (`# 201 {…}`, `# -> 200 {…}`) or after a
 * colon (`# the answer: 201 {…}`), followed by a body, `(`, `:`, `,` or the end of the line;
 * `200 or 409` shows two alternatives.
 */
function shownStatuses(code: string): number[][] {
  const found = new Map<string, number[]>();
  for (const line of code.split("\n")) {
    const hash = line.search(/(^|\s)#\s/);
    if (hash < 0) continue;
    const comment = line.slice(hash).replace(/^\s*#\s*/, "");
    for (const m of comment.matchAll(/(?:^|->\s*|:\s+)([1-5]\d\d(?:\s+or\s+[1-5]\d\d)*)(?=\s*(?:\{|\(|$|:|,))/g)) {
      const alternatives = m[1]!.split(/\s+or\s+/).map(Number);
      found.set(alternatives.join("|"), alternatives);
    }
  }
  return [...found.values()];
}

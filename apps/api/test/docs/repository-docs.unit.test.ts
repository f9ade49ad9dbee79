import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The repository explains itself: every relative link of its Markdown files reaches a file of
 * the clone (and a heading, when it names one), every path a comment or document cites exists,
 * and nothing points at files outside the repository.
 */
const root = fileURLToPath(new URL("../../../../", import.meta.url));
/** The clone's files as git lists them; null without git or outside a clone (an unpacked archive). */
function trackedFiles(): string[] | null {
  try {
    return execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
      .split("\n")
      .filter(Boolean);
  } catch {
    return null;
  }
}
const listed = trackedFiles();
// Untracked files (notes, build output) must not count, so without git the file is skipped, not guessed.
if (!listed) console.warn("repository-docs: skipped, `git ls-files` did not run (no git on PATH, or not a git clone)");
const tracked = listed ?? [];
const read = (f: string) => readFileSync(join(root, f), "utf8");
const markdown = tracked.filter((f) => f.endsWith(".md"));
const texts = tracked
  .filter((f) => /\.(ts|mjs|js|md|yml|yaml|json|sh)$/.test(f) || f === ".ci/run" || f === "Dockerfile")
  .filter((f) => !f.includes("/generated/") && !f.startsWith("drizzle/meta/") && !f.startsWith("bench/results/") && f !== "package-lock.json");

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of md.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const text = m[1]!.replace(/`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const base = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

function linksOf(md: string): string[] {
  const withoutCode = md.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

describe.skipIf(!listed)("the repository's documents", () => {
  it("has the documents a newcomer reads first", () => {
    for (const f of ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "bench/README.md"]) expect(tracked, f).toContain(f);
    expect(read("README.md")).toContain("(ARCHITECTURE.md)");
    expect(read("README.md")).toContain("(CONTRIBUTING.md)");
  });

  it("keeps the README a front door, with every page under docs/ one link away", () => {
    const readme = read("README.md");
    expect(readme.split("\n").length, "README.md lines").toBeLessThan(300);
    const pages = markdown.filter((f) => f.startsWith("docs/"));
    expect(pages).toContain("docs/README.md");
    /** The files a document links to, as paths from the repository root. */
    const targets = (f: string) =>
      new Set(
        linksOf(read(f))
          .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l))
          .map((l) => normalize(join(dirname(f), decodeURIComponent(l.split("#")[0]!)))),
      );
    const fromReadme = targets("README.md");
    expect(
      pages.filter((p) => !fromReadme.has(p)),
      "pages README.md does not link",
    ).toEqual([]);
    const fromIndex = targets("docs/README.md");
    expect(
      pages.filter((p) => p !== "docs/README.md" && !fromIndex.has(p)),
      "pages docs/README.md does not link",
    ).toEqual([]);
  });

  it("links only to files and headings that exist in the clone", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const f of markdown) {
      for (const link of linksOf(read(f))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
        checked++;
        const [path, anchor] = link.split("#") as [string, string | undefined];
        const target = path ? normalize(join(dirname(f), decodeURIComponent(path))) : f;
        if (target.startsWith("..") || !existsSync(join(root, target))) {
          broken.push(`${f}: ${link} (no such file)`);
          continue;
        }
        if (anchor && target.endsWith(".md") && !anchorsOf(read(target)).has(anchor)) broken.push(`${f}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it("cites in comments and documents only paths the clone has", () => {
    const first = ["apps", "packages", "bench", "drizzle", "ops", "patches"];
    const shortPackage = ["core", "db", "queue", "contracts", "testing", "client", "logic", "config"];
    const shortApp = ["api", "worker", "admin"];
    const cited = new RegExp(`(?<![\\w/.-])((?:${[...first, ...shortPackage, ...shortApp].join("|")})/[\\w./-]*\\.(?:ts|md|json|sql|ya?ml|mjs|js))`, "g");
    const missing: string[] = [];
    for (const f of texts) {
      for (const [, ref] of read(f).matchAll(cited)) {
        const [head, rest] = [ref!.split("/")[0]!, ref!.split("/").slice(1).join("/")];
        const candidates = [ref!, join(dirname(f), ref!)];
        if (shortPackage.includes(head)) candidates.push(`packages/${ref}`, `packages/${head}/src/${rest}`);
        if (shortApp.includes(head)) candidates.push(`apps/${ref}`, `apps/${head}/src/${rest}`);
        // Build output (`apps/api/dist/main.js`) is not in a clone until `npm run build`: it is
        // there when the source it is compiled from is.
        const sources = candidates.filter((c) => /\/dist\/.*\.js$/.test(c)).map((c) => c.replace("/dist/", "/src/").replace(/\.js$/, ".ts"));
        if (![...candidates, ...sources].some((c) => existsSync(join(root, c)))) missing.push(`${f}: ${ref}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("points at nothing outside the repository", () => {
    // Built from pieces so that this file does not match itself.
    const outside = [
      ["..", "shared"].join("/"),
      ["STYLE", "md"].join("."),
      ["PITFALLS", "md"].join("."),
      ["DESIGN", "md"].join("."),
      ["inspection-service-api", "md"].join("."),
    ];
    const hits = texts.flatMap((f) => outside.filter((o) => read(f).includes(o)).map((o) => `${f}: ${o}`));
    expect(hits).toEqual([]);
  });
});

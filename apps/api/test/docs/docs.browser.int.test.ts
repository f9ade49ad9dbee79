import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TAGS } from "@insp/contracts";
import { hashPassword } from "@insp/core";
import { startStack, type Stack } from "@insp/testing";

/**
 * /docs in a real headless browser (Debian's chromium driven by playwright-core): the page
 * loads with no script error and no Content Security Policy violation, shows every operation of
 * /openapi.json under its group, and "Try it out" with the demo API key answers 200; the queue
 * dashboard renders its queues under its own policy; neither page can be framed. CI installs
 * chromium (.ci/run); elsewhere the test is skipped with a note when no browser is found
 * (CHROMIUM_PATH names another one).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`No browser at ${CHROMIUM}: CI must install chromium (apt-get install -y chromium)`);
if (!available) console.warn(`docs.browser: skipped, no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

let stack: Stack;
let browser: Browser;
const OPERATOR = { username: "ops", password: "docs browser test operator" };

beforeAll(async () => {
  if (!available) return;
  stack = await startStack({
    workers: 0,
    env: { ADMIN_DASHBOARD_USER: OPERATOR.username, ADMIN_DASHBOARD_PASSWORD_HASH: await hashPassword(OPERATOR.password) },
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--no-first-run",
      "--disable-extensions",
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/**
 * Records what the page reports: script errors, console errors and every Content Security Policy
 * violation (the securitypolicyviolation event, which the browser fires for each blocked script,
 * style, image, font or request, and its console message).
 */
async function watch(page: Page, errors: string[], violations: string[]) {
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.exposeFunction("__reportViolation", (v: string) => violations.push(v));
  // As text: the test's TypeScript has no DOM types.
  await page.addInitScript(
    `document.addEventListener("securitypolicyviolation", (e) => window.__reportViolation(e.effectiveDirective + " blocked " + (e.blockedURI || "inline")))`,
  );
}

async function openDocs(page: Page, errors: string[], violations: string[] = []) {
  await watch(page, errors, violations);
  const res = await page.goto(`${stack.api.baseUrl}/docs/`, { waitUntil: "load" });
  expect(res?.status()).toBe(200);
  await page.locator(".opblock").first().waitFor({ timeout: 30_000 });
}

/** A page of another origin (about:blank) framing `url`: the frame must stay empty. */
async function framed(page: Page, url: string): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (m) => /frame-ancestors|X-Frame-Options/i.test(m.text()) && violations.push(m.text()));
  await page.setContent(`<iframe id="f" src="${url}" width="800" height="600"></iframe>`, { waitUntil: "load" });
  await expect.poll(() => violations.length, { timeout: 30_000 }).toBeGreaterThan(0);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  // A refused frame shows the browser's error page, never the content asked for.
  expect(
    await frame
      ?.locator(".opblock, #root .queue, nav")
      .count()
      .catch(() => 0),
  ).toBe(0);
  return violations;
}

/**
 * The groups and operations the page shows, read as a reader scrolls it from top to bottom:
 * from 150 groups and operations on, Swagger UI (5.3x) keeps only those near the visible part of
 * the page in the document, so counting `.opblock` once sees a screenful, not the whole list.
 */
async function readWhileScrolling(page: Page): Promise<{ tags: string[]; operations: string[] }> {
  // As text: the test's TypeScript has no DOM types.
  return page.evaluate(`(async () => {
    const tags = [];
    const operations = new Set();
    const settle = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 30))));
    for (let y = 0; ; y += Math.floor(innerHeight / 2)) {
      scrollTo(0, y);
      await settle();
      for (const el of document.querySelectorAll(".opblock-tag")) {
        const name = el.innerText.split("\\n")[0].trim();
        if (!tags.includes(name)) tags.push(name);
      }
      for (const el of document.querySelectorAll(".opblock")) {
        const method = el.querySelector(".opblock-summary-method")?.textContent?.trim();
        operations.add(method + " " + el.querySelector(".opblock-summary-path")?.getAttribute("data-path"));
      }
      if (y + innerHeight >= document.documentElement.scrollHeight) break;
    }
    return { tags, operations: [...operations] };
  })()`);
}

describe.runIf(available)("/docs in headless Chromium", () => {
  it("loads without script errors and lists every operation of /openapi.json under its group", async () => {
    const doc = (await stack.http.get("/openapi.json", { auth: null })).body as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const page = await browser.newPage();
    const errors: string[] = [];
    const violations: string[] = [];
    await openDocs(page, errors, violations);
    const seen = await readWhileScrolling(page);
    expect(seen.tags).toEqual(TAGS.map((t) => t.name));
    expect(seen.operations.sort()).toEqual(expected);
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });

  it("'Try it out' on GET /api/templates with the demo API key answers 200 with what the API answers that key", async () => {
    const t = await stack.tenant();
    const created = await stack.http.post(
      "/api/templates",
      {
        createdBy: t.users.admin.id,
        name: "Seen in the docs",
        type: "AUDIT",
        sections: [{ title: "S", questions: [{ text: "Q", required: false, options: [{ label: "Yes", value: "yes" }] }] }],
      },
      { auth: { bearer: t.apiKey } },
    );
    expect(created.status, created.text).toBe(200);
    expect((await stack.http.post(`/api/templates/${created.body.template.id}/publish`, undefined, { auth: { bearer: t.apiKey } })).status).toBe(200);
    const page = await browser.newPage();
    const errors: string[] = [];
    const violations: string[] = [];
    await openDocs(page, errors, violations);
    // Authorize: the API key as a Bearer token.
    await page.locator("button.authorize").first().click();
    const scheme = page.locator(".auth-container").filter({ has: page.locator("h4 code", { hasText: /^apiKey$/ }) });
    await scheme.locator("input").first().fill(t.apiKey);
    await scheme.locator("button[type=submit]").click();
    await page.getByRole("button", { name: "Close" }).first().click();

    const op = page.locator("#operations-Templates-get_api_templates");
    await op.locator(".opblock-summary").click();
    await op.getByRole("button", { name: "Try it out" }).click();
    await op.getByRole("button", { name: "Execute" }).click();
    const status = op.locator(".live-responses-table tr.response .response-col_status").first();
    await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 30_000 }).toBe("200");
    const body = await op.locator(".live-responses-table tr.response .response-col_description pre").first().textContent();
    const listed = JSON.parse(body!) as { title: string }[];
    expect(listed.map((x) => x.title)).toEqual(["Seen in the docs"]);
    expect(listed).toEqual((await stack.http.get("/api/templates", { auth: { bearer: t.apiKey } })).body);
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });

  it("the queue dashboard renders its queues for the operator with no Content Security Policy violation", async () => {
    const context = await browser.newContext({ httpCredentials: OPERATOR });
    const page = await context.newPage();
    // The page links Google Fonts' stylesheet, which its policy allows: answered here, so the
    // test needs no network (the browser checks the policy before the request is made).
    await page.route("https://fonts.googleapis.com/**", (route) => route.fulfill({ status: 200, contentType: "text/css", body: "" }));
    const errors: string[] = [];
    const violations: string[] = [];
    await watch(page, errors, violations);
    const res = await page.goto(`${stack.api.baseUrl}/admin/queues`, { waitUntil: "load" });
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    for (const queue of ["employee-sync", "webhook", "mail"]) await page.getByText(queue, { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });

  it("neither /docs nor the queue dashboard can be framed by another page", async () => {
    const context = await browser.newContext({ httpCredentials: OPERATOR });
    for (const path of ["/docs/", "/admin/queues"]) {
      const page = await context.newPage();
      const refused = await framed(page, `${stack.api.baseUrl}${path}`);
      expect(refused.join(" "), path).toContain("frame-ancestors 'none'");
      await page.close();
    }
    await context.close();
  });
});

import { writeFile } from "node:fs/promises";
import type { DemoSeed } from "@insp/core";

/**
 * The content of DEMO_CREDENTIALS_FILE, which the guides' setup (docs/examples/demo-env.mjs) reads:
 * the seed as seed-demo prints it, plus where the API is and the sample template.
 */
export function demoFileContent(baseUrl: string, demo: DemoSeed, samples: { templateId: string } | null): string {
  return `${JSON.stringify({ baseUrl, ...demo, sampleTemplateId: samples?.templateId ?? null }, null, 2)}\n`;
}

/** Readable by its owner only: it holds an API key, a client secret and passwords. */
export async function writeDemoFile(file: string, content: string): Promise<void> {
  await writeFile(file, content, { mode: 0o600 });
}

import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";

/** Where the committed types live; the drift test compares a fresh generation with this file. */
export const GENERATED_TYPES_PATH = fileURLToPath(new URL("../generated/openapi.d.ts", import.meta.url));

const BANNER = "// Generated from the Inspection Service's /openapi.json by `npm run client:generate`. Do not edit by hand.\n\n";

/** Reads an OpenAPI document from an http(s) URL or a file path. */
export async function loadOpenApiDocument(source: string): Promise<OpenAPI3> {
  if (/^https?:\/\//i.test(source)) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`GET ${source} answered ${res.status}`);
    return (await res.json()) as OpenAPI3;
  }
  return JSON.parse(await readFile(source, "utf8")) as OpenAPI3;
}

/**
 * The TypeScript text for a document. Deterministic for a given document, so the drift
 * test can compare it byte for byte. Fields with a default stay optional
 * (`defaultNonNullable: false`): the schemas describe request bodies, where the server
 * fills the default in, so a caller need not send them.
 */
export async function generateOpenApiTypes(doc: OpenAPI3): Promise<string> {
  const ast = await openapiTS(doc, { defaultNonNullable: false, alphabetize: false });
  return BANNER + astToString(ast);
}

async function main(argv: string[]) {
  const source = argv[0] ?? "http://127.0.0.1:3000/openapi.json";
  const out = argv[1] ?? GENERATED_TYPES_PATH;
  const text = await generateOpenApiTypes(await loadOpenApiDocument(source));
  await writeFile(out, text);
  console.error(`wrote ${out} (${text.length} characters) from ${source}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

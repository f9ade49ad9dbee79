// Prints packages/client/examples/mapping.example.json with the site ids of the demo organization
// `npm start` made (its sites MAIN and NORTH; the example's ids are placeholders for yours).
// Use: node docs/examples/demo-mapping.mjs > demo-mapping.json
import { readFileSync } from "node:fs";

const file = process.env.DEMO_CREDENTIALS_FILE || "demo-credentials.json";
const demo = JSON.parse(readFileSync(file, "utf8"));
const mapping = JSON.parse(readFileSync(new URL("../../packages/client/examples/mapping.example.json", import.meta.url), "utf8"));
const site = (code) => demo.sites.find((s) => s.code === code)?.id;
mapping.sites.map = { MAIN: { id: site("MAIN"), role: "site_manager" }, NORTH: site("NORTH") };
console.log(JSON.stringify(mapping, null, 2));

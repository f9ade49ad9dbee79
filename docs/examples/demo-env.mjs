// Prints `export` lines for the variables the guides use, from the credentials of the demo
// organization `npm start` made (the file DEMO_CREDENTIALS_FILE names, by default
// demo-credentials.json in the repository's folder). Use: eval "$(node docs/examples/demo-env.mjs)"
import { readFileSync } from "node:fs";

const file = process.env.DEMO_CREDENTIALS_FILE || "demo-credentials.json";
let d;
try {
  d = JSON.parse(readFileSync(file, "utf8"));
} catch (err) {
  console.error(`${file}: ${err.code === "ENOENT" ? "not found; the first npm start on an empty database writes it" : err.message}`);
  process.exit(1);
}
const v = {
  ORG: d.organization.id,
  KEY: d.apiKey,
  CID: d.oauthClient.clientId,
  CSECRET: d.oauthClient.clientSecret,
  ADMIN: d.users.admin.id,
  ADMIN_EMAIL: d.users.admin.email,
  ADMIN_PASSWORD: d.users.admin.password,
  INSPECTOR: d.users.inspector.id,
  SITE: d.sites[0].id,
  NORTH_SITE: d.sites[1].id,
  YES_NO_TYPE_ID: d.responseTypes[0].id,
  CONDITION_TYPE_ID: d.responseTypes[1].id,
  NUMBER_TYPE_ID: d.responseTypes[3].id,
  ASSET_TYPE_ID: d.assetTypes[0].id,
  SAMPLE_TEMPLATE_ID: d.sampleTemplateId ?? "",
};
// Values are ids and base64url secrets: single quotes keep the shell from reading them.
console.log(
  Object.entries(v)
    .map(([k, x]) => `export ${k}='${x}'`)
    .join("\n"),
);

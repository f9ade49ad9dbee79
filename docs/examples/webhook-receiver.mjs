// A webhook receiver to try webhooks on your own machine: prints each delivery (its headers of the
// Standard Webhooks signature and its body) and answers 204. Use: node docs/examples/webhook-receiver.mjs [port]
// The service sends to 127.0.0.1 only when started with WEBHOOK_ALLOW_PRIVATE=true (docs/integrations.md).
import { createServer } from "node:http";

const port = Number(process.argv[2] ?? 4000);
createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    console.log(`${req.method} ${req.url} webhook-id=${req.headers["webhook-id"]} webhook-signature=${req.headers["webhook-signature"]}`);
    console.log(Buffer.concat(chunks).toString("utf8"));
    res.writeHead(204).end();
  });
}).listen(port, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${port}/`));

import { describe, expect, it } from "vitest";
import { smtpTransportOptions } from "../src/mail/transport.ts";

describe("SMTP time limits", () => {
  it("bounds connecting, the greeting and socket inactivity in seconds, not nodemailer's minutes; SMTP_URL can override", () => {
    const o = smtpTransportOptions("smtps://user%40x:p%3Aw@mail.example:465");
    expect(o).toMatchObject({ host: "mail.example", port: 465, secure: true, auth: { user: "user@x", pass: "p:w" } });
    expect(o.connectionTimeout).toBeLessThanOrEqual(30_000);
    expect(o.greetingTimeout).toBeLessThanOrEqual(30_000);
    expect(o.socketTimeout).toBeLessThanOrEqual(30_000);
    expect(smtpTransportOptions("smtp://mail.example:25?socketTimeout=60000").socketTimeout).toBe(60_000);
  });

  it("pools connections by default; SMTP_URL can turn the pool off or size it", () => {
    expect(smtpTransportOptions("smtp://mail.example:25")).toMatchObject({ pool: true, maxConnections: 5 });
    expect(smtpTransportOptions("smtp://mail.example:25?pool=false").pool).toBe(false);
    expect(smtpTransportOptions("smtp://mail.example:25?maxConnections=2").maxConnections).toBe(2);
  });
});

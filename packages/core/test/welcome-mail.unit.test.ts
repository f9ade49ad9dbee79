import { describe, expect, it } from "vitest";
import { composeWelcome } from "../src/mail/welcome.ts";

const base = { to: "jane@example.test", from: "hr@example.test", organizationName: "Acme", loginUrl: "https://app.example.test/login" };

describe("the welcome and password-reset mails", () => {
  it("a new account: what was made, the credentials, what to do next, where to sign in", () => {
    const m = composeWelcome({ ...base, data: { displayName: "Jane Doe", username: "jane", includeTemporaryPassword: true }, temporaryPassword: "T3mp" });
    expect(m.subject).toBe("Welcome to Acme");
    expect(m.text).toBe(
      [
        "Hello Jane Doe,",
        "",
        "An account has been created for you at Acme.",
        "",
        "Username: jane",
        "Temporary password: T3mp",
        "",
        "Sign in with this username and temporary password. You will then be",
        "asked to choose a password of your own (POST /api/auth/password);",
        "until you do, the account can do nothing else.",
        "This password works until you change it.",
        "",
        "Sign in: https://app.example.test/login",
        "",
      ].join("\n"),
    );
  });

  it("a password reset says what happened, not that an account was created", () => {
    const data = { displayName: null, username: "jane", includeTemporaryPassword: true, purpose: "password_reset" as const };
    const m = composeWelcome({ ...base, data, temporaryPassword: "T3mp" });
    expect(m.subject).toBe("Your password at Acme has been reset");
    expect(m.text).toMatch(/^Hello,\n\nAn administrator of Acme has reset the password of\nyour account\. Your previous password no longer works/);
    expect(m.text).toContain("Temporary password: T3mp");
    expect(m.text).toContain("If you did not ask for this, tell your administrator.");
    expect(m.text).not.toContain("created");
    // The user chose a password before the mail went out: no temporary one, and it says so.
    expect(composeWelcome({ ...base, data }).text).toContain("You have chosen a new password since: sign in with it.");
  });

  it("keeps every line under 76 characters (plain 7bit, no quoted-printable)", () => {
    for (const purpose of [undefined, "password_reset" as const]) {
      const m = composeWelcome({
        ...base,
        data: { displayName: "J", username: "j", includeTemporaryPassword: true, purpose },
        temporaryPassword: "x".repeat(24),
      });
      for (const line of m.text.split("\n")) expect(line.length).toBeLessThan(76);
    }
  });
});

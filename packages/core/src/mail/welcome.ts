import type { WelcomeMailData } from "./outbox.ts";

/** The welcome message (pure). The temporary password, when there is one, exists only here and in the sent mail. */
export function composeWelcome(m: { to: string; from: string; organizationName: string; loginUrl: string; data: WelcomeMailData; temporaryPassword?: string }) {
  const greeting = m.data.displayName ? `Hello ${m.data.displayName},` : "Hello,";
  const lines = [greeting, "", `An account has been created for you at ${m.organizationName}.`, "", `Username: ${m.data.username}`];
  if (m.temporaryPassword) {
    lines.push(
      `Temporary password: ${m.temporaryPassword}`,
      "",
      // Lines under 76 characters keep the mail in plain 7bit (no quoted-printable).
      "This password works until you change it. After signing in you must",
      "choose a new password (POST /api/auth/password) before you can do",
      "anything else.",
    );
  } else {
    lines.push("", "Your administrator will tell you how to sign in.");
  }
  lines.push("", `Sign in: ${m.loginUrl}`, "");
  return { from: m.from, to: m.to, subject: `Welcome to ${m.organizationName}`, text: lines.join("\n") };
}

import type { WelcomeMailData } from "./outbox.ts";

// Lines under 76 characters keep the mail in plain 7bit (no quoted-printable).
const CHOOSE = [
  "Sign in with this username and temporary password. You will then be",
  "asked to choose a password of your own (POST /api/auth/password);",
  "until you do, the account can do nothing else.",
  "This password works until you change it.",
];

/** What the mail says before the credentials, and the subject: a new account, or a password an administrator reset. */
function opening(m: { organizationName: string; data: WelcomeMailData }) {
  if (m.data.purpose === "password_reset")
    return {
      subject: `Your password at ${m.organizationName} has been reset`,
      lines: [
        `An administrator of ${m.organizationName} has reset the password of`,
        "your account. Your previous password no longer works, and you have",
        "been signed out everywhere.",
      ],
    };
  return { subject: `Welcome to ${m.organizationName}`, lines: [`An account has been created for you at ${m.organizationName}.`] };
}

/**
 * The welcome message of a new account (HR sync, invitation), or the message of a password reset
 * (pure). The temporary password, when there is one, exists only here and in the sent mail.
 */
export function composeWelcome(m: { to: string; from: string; organizationName: string; loginUrl: string; data: WelcomeMailData; temporaryPassword?: string }) {
  const greeting = m.data.displayName ? `Hello ${m.data.displayName},` : "Hello,";
  const { subject, lines: intro } = opening(m);
  const lines = [greeting, "", ...intro, "", `Username: ${m.data.username}`];
  if (m.temporaryPassword) lines.push(`Temporary password: ${m.temporaryPassword}`, "", ...CHOOSE);
  else if (m.data.purpose === "password_reset") lines.push("", "You have chosen a new password since: sign in with it.");
  else lines.push("", "Your administrator will tell you how to sign in.");
  if (m.data.purpose === "password_reset") lines.push("", "If you did not ask for this, tell your administrator.");
  lines.push("", `Sign in: ${m.loginUrl}`, "");
  return { from: m.from, to: m.to, subject, text: lines.join("\n") };
}

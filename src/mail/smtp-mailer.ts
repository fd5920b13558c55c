import nodemailer from 'nodemailer';
import type { Mailer } from '../domain/mail/mailer.js';

/**
 * Mail over SMTP through nodemailer: `url` is NOK_SMTP_URL (`smtp://user:pass@host:587`, or
 * `smtps://` for TLS from the first byte; nodemailer upgrades `smtp://` with STARTTLS when the
 * server offers it). `from` is NOK_MAIL_FROM.
 */
export function smtpMailer(url: string, from: string): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}

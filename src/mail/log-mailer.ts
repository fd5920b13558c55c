import type { Logger } from 'pino';
import type { Mailer } from '../domain/mail/mailer.js';

/**
 * The mailer of a Nok with no SMTP configured (NOK_SMTP_URL unset): each mail is written to the
 * log, links and all, so a demo can follow an invitation or a password reset. This is the one
 * place a one-time link reaches a log line; set NOK_SMTP_URL anywhere real people are invited.
 */
export function logMailer(logger: Logger): Mailer {
  return {
    async send(mail) {
      logger.info(
        { mail: { to: mail.to, subject: mail.subject } },
        `mail not sent (no NOK_SMTP_URL); it reads:\n${mail.text}`,
      );
    },
  };
}

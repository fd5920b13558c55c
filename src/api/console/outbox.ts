import type { Logger } from 'pino';
import type { Mailer, Outbox } from '../../domain/mail/mailer.js';

/**
 * Posts mail through `mailer` without making the request wait: a mail is only posted once the
 * change it tells of has committed, and a failure to hand it over is logged (to and subject,
 * never the text, which holds a one-time link) and changes nothing. `idle()` resolves when
 * every posted mail has been handed over or has failed (for shutdown and tests).
 */
export function createOutbox(mailer: Mailer, logger: Logger): Outbox & { idle(): Promise<void> } {
  const pending = new Set<Promise<void>>();
  return {
    post(mail) {
      const sending = mailer
        .send(mail)
        .catch((error: unknown) => {
          logger.warn(
            {
              mail: { to: mail.to, subject: mail.subject },
              err: { message: (error as Error)?.message, code: (error as { code?: string })?.code },
            },
            'a mail could not be sent; the change it tells of stands',
          );
        })
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

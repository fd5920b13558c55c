/**
 * A real SMTP server on 127.0.0.1 for tests (the `smtp-server` package), keeping every mail it
 * receives parsed by `mailparser`. `smtpUrl` is what NOK_SMTP_URL would be; `next()` waits for
 * a mail to an address (an event, not a sleep) and fails at a timeout.
 */
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly from: string;
  readonly to: string[];
  readonly subject: string;
  readonly text: string;
}

export interface SmtpInbox {
  readonly smtpUrl: string;
  readonly mails: readonly ReceivedMail[];
  /** The first mail to `to` not taken yet (waits for it); taking it leaves the others. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The link in a mail's text that contains `path`. */
  close(): Promise<void>;
}

export function linkIn(mail: ReceivedMail, path: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.includes(path));
  if (!link) throw new Error(`no link with ${path} in the mail:\n${mail.text}`);
  return link;
}

/** The token of a mailed link's fragment (`#token=…`). */
export function tokenOf(link: string): string {
  const token = new URL(link).hash.replace(/^#token=/, '');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as { port: number };

  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    mails,
    next(to, timeoutMs = 10_000) {
      const address = to.toLowerCase();
      const find = () => mails.find((m) => !taken.has(m) && m.to.includes(address));
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = find();
          if (!mail) return false;
          taken.add(mail);
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mail);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms; got ${mails.length} others`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One plain-text email. */
export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/**
 * The port mail leaves through: SMTP (`NOK_SMTP_URL`) or, when none is configured, the log of
 * `nok start` so a demo still works. `send` rejects when the mail could not be handed over.
 */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * Mail handed over after the change it tells of has committed: `post` never throws and never
 * waits, a failure is logged (without the mail's text, which may hold a link) and changes
 * nothing already done.
 */
export interface Outbox {
  post(mail: OutgoingMail): void;
}

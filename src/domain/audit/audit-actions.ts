/**
 * Every action the audit log may hold, `<area>.<verb>`: the one list `recordAudit` checks a
 * line against, the console's action filter is made from, and the translations are checked
 * against (test/web/audit-actions.test.ts), so a new action cannot reach the log without a
 * name a person can read. Pure data: the browser imports it through the audit contract.
 */
export const AUDIT_ACTIONS = [
  'session.sign-in',
  'session.sign-in-failed',
  'session.sign-in-throttled',
  'session.sign-out',
  'session.sign-out-everywhere',
  'user.create',
  'user.remove',
  'user.password-changed',
  'user.password-change-failed',
  'user.profile-changed',
  'user.totp-enrolment-started',
  'user.totp-enabled',
  'user.totp-disabled',
  'user.recovery-codes-regenerated',
  'invitation.create',
  'invitation.accept',
  'invitation.resend',
  'invitation.revoke',
  'password-reset.request',
  'password-reset.complete',
  'api-key.create',
  'api-key.revoke',
  'sender-request.submit',
  'sender-request.resubmit',
  'sender-request.approve',
  'sender-request.reject',
  'sender-request.request-changes',
  'sender.suspend',
  'sender.reinstate',
  'sender.share',
  'sender.unshare',
  'credits.grant',
  'credits.deduct',
  'account.create',
  'account.settings',
  'account.suspend',
  'account.reactivate',
  'account.two-factor-requirement-changed',
  'message.send',
  'message.cancel',
  'contact-group.create',
  'contact-group.rename',
  'contact-group.delete',
  'contact-group.import',
  'contact-group.add-members',
  'contact-group.remove-members',
  'template.create',
  'template.update',
  'template.delete',
  'blocklist.add',
  'blocklist.import',
  'blocklist.remove',
  'webhook.create',
  'webhook.update',
  'webhook.enable',
  'webhook.disable',
  'webhook.rotate-secret',
  'webhook.delete',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The areas of the actions, each as `<area>.`, in the list's order: the log's filter. */
export const AUDIT_ACTION_FAMILIES: readonly string[] = [
  ...new Set(AUDIT_ACTIONS.map((action) => `${action.split('.')[0]!}.`)),
];

const KNOWN: ReadonlySet<string> = new Set(AUDIT_ACTIONS);

export function isAuditAction(action: string): action is AuditAction {
  return KNOWN.has(action);
}

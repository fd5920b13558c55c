import type { OutgoingMail } from './mailer.js';

/*
 * The mails Nok sends, in English and Thai (one mail, both languages: the console's language
 * is the reader's choice, and a mail is read before they have made it).
 */

function hours(ms: number): string {
  const h = Math.round(ms / 3_600_000);
  return h % 24 === 0 && h >= 48 ? `${h / 24} days` : `${h} hour${h === 1 ? '' : 's'}`;
}

function hoursTh(ms: number): string {
  const h = Math.round(ms / 3_600_000);
  return h % 24 === 0 && h >= 48 ? `${h / 24} วัน` : `${h} ชั่วโมง`;
}

/** What both invitation mails open with: the subject, and who is invited where, in each language. */
function invitationOpening(
  input: { accountName: string; role: 'owner' | 'member' },
  tense: 'are' | 'were',
) {
  const owner = input.role === 'owner';
  return {
    subject: `Invitation to ${input.accountName} on Nok / คำเชิญเข้าร่วม ${input.accountName}`,
    en: `You ${tense} invited to join the account "${input.accountName}" on Nok as ${owner ? 'an owner' : 'a member'}.`,
    th: `คุณได้รับเชิญให้เข้าร่วมบัญชี "${input.accountName}" บน Nok ในฐานะ${owner ? 'เจ้าของบัญชี' : 'สมาชิก'}`,
  };
}

export function invitationMail(input: {
  to: string;
  accountName: string;
  role: 'owner' | 'member';
  link: string;
  lifetimeMs: number;
}): OutgoingMail {
  const opening = invitationOpening(input, 'are');
  return {
    to: input.to,
    subject: opening.subject,
    text: [
      opening.en,
      '',
      'Open this link to choose your name and password:',
      input.link,
      '',
      `The link works once and expires in ${hours(input.lifetimeMs)}. If you did not expect it, ignore this mail.`,
      '',
      '---',
      '',
      opening.th,
      'เปิดลิงก์ด้านบนเพื่อตั้งชื่อและรหัสผ่านของคุณ',
      `ลิงก์ใช้ได้ครั้งเดียวและหมดอายุใน ${hoursTh(input.lifetimeMs)} หากคุณไม่ได้คาดหวังอีเมลนี้ โปรดเพิกเฉย`,
      '',
    ].join('\n'),
  };
}

/**
 * What an invitation mails to an email that already has a sign-in on Nok, instead of a link:
 * a person signs in to one account, so there is nothing to accept. The one who invited learns
 * nothing from the answer (it is the same whoever the email is); the person invited learns it
 * here, and whom to ask for another way in.
 */
export function invitationToSignedUpMail(input: {
  to: string;
  accountName: string;
  role: 'owner' | 'member';
}): OutgoingMail {
  const opening = invitationOpening(input, 'were');
  return {
    to: input.to,
    subject: opening.subject,
    text: [
      opening.en,
      '',
      'This email already has a sign-in on Nok, and a sign-in belongs to one account, so this',
      'invitation cannot be accepted with it. Sign in as usual; to join that account too, ask',
      'whoever invited you to invite another email of yours. If you did not expect it, ignore this mail.',
      '',
      '---',
      '',
      opening.th,
      'อีเมลนี้มีบัญชีผู้ใช้บน Nok อยู่แล้ว และบัญชีผู้ใช้หนึ่งใช้ได้กับบัญชีเดียว จึงรับคำเชิญนี้ด้วยอีเมลนี้ไม่ได้',
      'เข้าสู่ระบบตามปกติ หากต้องการเข้าร่วมบัญชีนั้นด้วย โปรดขอให้ผู้เชิญส่งคำเชิญไปยังอีเมลอื่นของคุณ หากคุณไม่ได้คาดหวังอีเมลนี้ โปรดเพิกเฉย',
      '',
    ].join('\n'),
  };
}

/**
 * The mail of an invitation to `email`: its link, or, when the email already has a sign-in on
 * Nok, the notice that it cannot be accepted (`invitationToSignedUpMail`), with no link.
 */
export function mailForInvitation(input: {
  to: string;
  hasSignIn: boolean;
  accountName: string;
  role: 'owner' | 'member';
  link: string;
  lifetimeMs: number;
}): OutgoingMail {
  return input.hasSignIn ? invitationToSignedUpMail(input) : invitationMail(input);
}

export function passwordResetMail(input: {
  to: string;
  link: string;
  lifetimeMs: number;
}): OutgoingMail {
  return {
    to: input.to,
    subject: 'Reset your Nok password / ตั้งรหัสผ่าน Nok ใหม่',
    text: [
      'Someone (we hope you) asked to reset the password of this email on Nok.',
      '',
      'Open this link to choose a new password:',
      input.link,
      '',
      `The link works once and expires in ${hours(input.lifetimeMs)}. Setting a new password signs you out everywhere.`,
      'If you did not ask for it, ignore this mail: your password stays as it is.',
      '',
      '---',
      '',
      'มีผู้ขอตั้งรหัสผ่านใหม่สำหรับอีเมลนี้บน Nok',
      'เปิดลิงก์ด้านบนเพื่อตั้งรหัสผ่านใหม่',
      `ลิงก์ใช้ได้ครั้งเดียวและหมดอายุใน ${hoursTh(input.lifetimeMs)} หากคุณไม่ได้ขอ โปรดเพิกเฉย รหัสผ่านของคุณจะไม่เปลี่ยน`,
      '',
    ].join('\n'),
  };
}

export type SenderDecision = 'approve' | 'reject' | 'request_changes';

const DECISION: Record<SenderDecision, { en: string; th: string }> = {
  approve: { en: 'approved', th: 'อนุมัติแล้ว' },
  reject: { en: 'rejected', th: 'ถูกปฏิเสธ' },
  request_changes: { en: 'sent back for changes', th: 'ขอให้แก้ไข' },
};

export function senderDecisionMail(input: {
  to: string;
  senderName: string;
  decision: SenderDecision;
  note: string | null;
  link: string;
}): OutgoingMail {
  const words = DECISION[input.decision];
  return {
    to: input.to,
    subject: `Sender name ${input.senderName}: ${words.en} / ชื่อผู้ส่ง ${input.senderName}: ${words.th}`,
    text: [
      `Your request for the sender name ${input.senderName} was ${words.en}.`,
      ...(input.note ? ['', "The reviewer's note:", input.note] : []),
      '',
      input.link,
      '',
      '---',
      '',
      `คำขอชื่อผู้ส่ง ${input.senderName} ของคุณ${words.th}`,
      ...(input.note ? ['หมายเหตุจากผู้ตรวจสอบอยู่ด้านบน'] : []),
      '',
    ].join('\n'),
  };
}

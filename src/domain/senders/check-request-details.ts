import { invalidParameter } from '../errors.js';
import type { SenderRequestDetails } from './sender-request-store.js';
import {
  MAX_REGISTRATION_NUMBER_CHARS,
  MAX_SAMPLE_MESSAGES,
  MAX_SAMPLE_MESSAGE_CHARS,
  MIN_SAMPLE_MESSAGES,
  REGISTRATION_NUMBER_SHAPE,
  SENDER_PURPOSES,
} from './sender-request-rules.js';
import { countCharacters } from '../limits.js';

/** The details of a request by the rules the console's form shows; trimmed. */
export function checkRequestDetails(details: SenderRequestDetails): SenderRequestDetails {
  if (!(SENDER_PURPOSES as readonly string[]).includes(details.purpose)) {
    throw invalidParameter(`purpose must be one of ${SENDER_PURPOSES.join(', ')}`);
  }
  const sampleMessages = details.sampleMessages.map((text) => text.trim());
  if (sampleMessages.length < MIN_SAMPLE_MESSAGES || sampleMessages.length > MAX_SAMPLE_MESSAGES) {
    throw invalidParameter(
      `give ${MIN_SAMPLE_MESSAGES} to ${MAX_SAMPLE_MESSAGES} sample messages; got ${sampleMessages.length}`,
    );
  }
  for (const [i, text] of sampleMessages.entries()) {
    if (text.length === 0 || countCharacters(text) > MAX_SAMPLE_MESSAGE_CHARS) {
      throw invalidParameter(
        `sample message ${i + 1} must have 1 to ${MAX_SAMPLE_MESSAGE_CHARS} characters`,
      );
    }
  }
  const registrationNumber = details.registrationNumber.trim();
  if (
    registrationNumber.length > MAX_REGISTRATION_NUMBER_CHARS ||
    !REGISTRATION_NUMBER_SHAPE.test(registrationNumber)
  ) {
    throw invalidParameter(
      `the company registration number has up to ${MAX_REGISTRATION_NUMBER_CHARS} letters and digits (spaces, dots, dashes and slashes between them)`,
    );
  }
  return { purpose: details.purpose, sampleMessages, registrationNumber };
}

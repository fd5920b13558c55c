// Path parameters of the sender-name routes, for the console security suite: each factory makes
// a resource of `of`'s account (an admin route gets the owner's). Imported by the suite's test.
import { CONSOLE_RESOURCES, type SuiteActor } from './console-security-suite.js';
import { pdfBytes } from './documents.js';
import type { Harness } from './harness.js';

let counter = 0;

// Straight to the store, not through the use case: the suite counts audit lines around each
// call, and making its resource must not add one.
async function requestOf(h: Harness, of: SuiteActor) {
  const nowMs = h.clock.now();
  const request = await h.store.insertSenderRequest({
    accountId: of.account!.id,
    name: `SUITE${++counter}`,
    details: {
      purpose: 'otp',
      sampleMessages: ['Your code is 123456'],
      registrationNumber: '0105551234567',
    },
    nowMs,
  });
  const event = await h.store.addSenderRequestEvent({
    requestId: request!.id,
    step: 'submitted',
    actorUserId: of.user.id,
    note: null,
    nowMs,
  });
  await h.store.addSenderDocument({
    requestId: request!.id,
    eventId: event.id,
    fileName: 'certificate.pdf',
    contentType: 'application/pdf',
    sha256: 'not checked here',
    content: pdfBytes(),
    nowMs,
  });
  return request!;
}

CONSOLE_RESOURCES.requestId = async (h, of) => String((await requestOf(h, of)).id);
CONSOLE_RESOURCES.documentId = async (h, of) => {
  const request = await requestOf(h, of);
  return String((await h.store.senderDocuments(request.id))[0]!.id);
};
CONSOLE_RESOURCES.senderId = async (h, of) => {
  const sender = await h.store.createSender({
    accountId: of.account!.id,
    name: `SUITES${++counter}`,
    status: 'approved',
    nowMs: h.clock.now(),
  });
  return String(sender.id);
};
CONSOLE_RESOURCES.accountId ??= async (_h, of) => String(of.account!.id);

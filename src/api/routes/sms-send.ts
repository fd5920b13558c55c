import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import { preparePreview } from '../../domain/messages/prepare-send.js';
import { sendMessage, toEstimate } from '../../domain/messages/send-message.js';
import type { Store } from '../../domain/store.js';
import { presentAccepted, presentEstimate } from '../presenters.js';
import {
  costEstimateSchema,
  errorResponses,
  previewBodySchema,
  sendAcceptedSchema,
  sendBodySchema,
  sendHeadersSchema,
} from '../contract/sms.js';
import { readPreviewRequest, readSendRequest } from '../send-body/send-request.js';

export interface SendRouteDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly bodyLimitBytes: number;
  /** Called after a send is stored, to start background work at once. */
  /** Told of each send accepted (not of replays): wakes the background work, counts metrics. */
  readonly onAccepted: (charged: number) => void;
}

// The body schemas below are published as they are; the body itself is read by the byte scanner
// and the rest of it parsed by the same members (`readSendRequest`), because a schema over a
// parsed 2M-element array is the slow path this route exists to avoid.
const documentOnly = () => () => true;

/**
 * send and preview-cost read the raw JSON body: a 30 MB list of two million numbers is
 * validated, normalised and deduplicated by a byte scanner, never `JSON.parse`d.
 */
export async function smsSendRoutes(app: FastifyInstance, deps: SendRouteDeps): Promise<void> {
  // Only JSON: fastify's default text/plain parser would hand the scanner a string.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: deps.bodyLimitBytes },
    (_req, body, done) => done(null, body),
  );

  app.post(
    '/sms/send',
    {
      config: { access: { scope: 'sms:send' } },
      bodyLimit: deps.bodyLimitBytes,
      validatorCompiler: documentOnly,
      schema: {
        summary: 'Send an SMS to one number or a batch',
        description:
          'Requires a key with scope sms:send or *. Numbers are normalised to 66XXXXXXXXX and sent once each; malformed numbers become recipients with status invalid and blocklisted ones status blocked, neither charged. With dryRun the answer is a cost estimate and nothing is stored. An Idempotency-Key header replays the first successful answer for the same body (header Idempotent-Replayed: true) and never charges twice.',
        tags: ['sms'],
        headers: sendHeadersSchema,
        body: sendBodySchema,
        response: {
          200: {
            description: 'Accepted (or, with dryRun, an estimate)',
            content: {
              'application/json': { schema: z.union([sendAcceptedSchema, costEstimateSchema]) },
            },
          },
          ...errorResponses(400, 401, 402, 403, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const idempotencyKey = readIdempotencyKey(request);
      const body = bodyBytes(request);
      const outcome = await sendMessage(
        deps.store,
        {
          accountId: request.caller.accountId,
          apiKeyId: request.caller.apiKeyId,
          request: readSendRequest(body),
          ...(idempotencyKey
            ? {
                idempotency: {
                  key: idempotencyKey,
                  requestHash: createHash('sha256').update(body).digest('hex'),
                },
              }
            : {}),
        },
        deps.clock.now(),
      );
      if (outcome.kind === 'dry-run') return presentEstimate(outcome.estimate, true);
      if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
      else deps.onAccepted(outcome.result.recipients.charged);
      return presentAccepted(outcome.result);
    },
  );

  app.post(
    '/sms/preview-cost',
    {
      // An estimate changes nothing: a read-only key may ask for one.
      config: { access: { scope: 'sms:read' } },
      bodyLimit: deps.bodyLimitBytes,
      validatorCompiler: documentOnly,
      schema: {
        summary: 'Estimate message parts and credits; nothing is charged or sent',
        tags: ['sms'],
        body: previewBodySchema,
        response: { 200: costEstimateSchema, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request) => {
      const prepared = await preparePreview(
        deps.store,
        request.caller.accountId,
        readPreviewRequest(bodyBytes(request)),
      );
      return presentEstimate(toEstimate(prepared));
    },
  );
}

/** The raw body; a POST without one (no content-type, so no parser ran) is an empty body. */
function bodyBytes(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const parsed = sendHeadersSchema.safeParse({
    'idempotency-key': request.headers['idempotency-key'],
  });
  if (!parsed.success) {
    throw new DomainError('INVALID_PARAMETER', parsed.error.issues[0]!.message);
  }
  return parsed.data['idempotency-key'];
}

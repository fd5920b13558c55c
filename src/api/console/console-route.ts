import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ConsoleAccess } from '../access.js';
import { errorResponses } from './contract/common.js';
import type { Endpoint, EndpointRequest } from './contract/endpoint.js';
import { splitKey } from './contract/endpoint.js';
import {
  consoleEndpoints,
  type ConsoleEndpointKey,
  type ConsoleEndpoints,
} from './contract/endpoints.js';

/** What the server says of a route beside its contract entry: its words, and who may call it. */
export interface ConsoleRouteOptions {
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description?: string;
  readonly config: { readonly access: ConsoleAccess };
  /** Answers beyond the success and the common errors (304, 402, 410, 413, 415). */
  readonly responses?: Readonly<Record<number, z.ZodType>>;
}

export type ConsoleRouteRequest<K extends ConsoleEndpointKey> = FastifyRequest<
  EndpointRequest<ConsoleEndpoints[K]>
>;

type Answer<K extends ConsoleEndpointKey> = ConsoleEndpoints[K] extends {
  readonly response: infer S extends z.ZodType;
}
  ? z.output<S>
  : never;

export type ConsoleRouteHandler<K extends ConsoleEndpointKey> = (
  request: ConsoleRouteRequest<K>,
  reply: FastifyReply,
) => Promise<Answer<K> | FastifyReply>;

/**
 * Declares the console route `key` (`'DELETE /keys/:keyId'`) from its contract entry: the method,
 * the path and every schema (params, query, body, answer, its success status) come from
 * `consoleEndpoints`, the map the browser calls the route by, so the two cannot drift. The
 * handler gets the request as those schemas made it; its answer is serialised with the entry's.
 */
export function consoleRoute<K extends ConsoleEndpointKey>(
  app: FastifyInstance,
  key: K,
  options: ConsoleRouteOptions,
  handler: ConsoleRouteHandler<K>,
): void {
  const endpoint: Endpoint = consoleEndpoints[key];
  const { method, path } = splitKey(key);
  const status = endpoint.status ?? 200;
  app.route({
    method,
    url: path,
    schema: {
      tags: [...options.tags],
      summary: options.summary,
      ...(options.description !== undefined && { description: options.description }),
      ...(endpoint.params && { params: endpoint.params }),
      ...(endpoint.query && { querystring: endpoint.query }),
      ...(endpoint.body && { body: endpoint.body }),
      ...(endpoint.download && { produces: [...endpoint.download] }),
      response: { [status]: endpoint.response, ...errorResponses, ...options.responses },
    },
    config: options.config,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      if (status !== 200) reply.status(status);
      return handler(request as ConsoleRouteRequest<K>, reply);
    },
  });
}

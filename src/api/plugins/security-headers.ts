import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The security headers of every response of the API listener: the console's pages, assets and
 * API, the API reference page at /docs and its files, /api/v2 and /openapi.json, whichever
 * route answered, errors and not-found included, so no route has to remember them and a new
 * page cannot be framed or sniffed by being forgotten.
 */

/**
 * The policy of every HTML page (the console's, /docs). Scripts come only from the page's own
 * files (neither the console's index.html nor the API reference has an inline script). For the
 * console's page: Mantine creates <style> elements for its CSS variables:
 * they carry the page's nonce, which `style-src-elem` requires. Its components also set CSS
 * variables in `style` attributes, which a nonce cannot cover: `style-src-attr` allows those
 * and nothing else (a style attribute cannot run script). `style-src` is the fallback of
 * browsers that know neither of the two. `img-src data:` is for the QR code of TOTP enrolment.
 */
export function consolePagePolicy(styleNonce?: string): string {
  const nonce = styleNonce ? ` 'nonce-${styleNonce}'` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `style-src-elem 'self'${nonce}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Everything else (JSON, scripts, styles, documents): loads nothing, is framed nowhere. */
export const CONSOLE_RESOURCE_POLICY =
  "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** One year, without includeSubDomains: Nok does not speak for the domain's other hosts. */
export const HSTS = 'max-age=31536000';

function isHtml(reply: FastifyReply): boolean {
  return String(reply.getHeader('content-type') ?? '').startsWith('text/html');
}

/**
 * Installs the headers on the root app, before any route. A route that sets its own
 * Content-Security-Policy (the console page, with its nonce) keeps it. HSTS is sent when the
 * request came over TLS, which `request.protocol` tells (X-Forwarded-Proto counts only with
 * NOK_TRUST_PROXY=on).
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) {
      reply.header(
        'content-security-policy',
        isHtml(reply) ? consolePagePolicy() : CONSOLE_RESOURCE_POLICY,
      );
    }
    reply.header('x-content-type-options', 'nosniff');
    // `same-origin`, not `no-referrer`: under no-referrer browsers send `Origin: null` on
    // POSTs, and the console API's CSRF check compares Origin with its own.
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    return payload;
  });
}

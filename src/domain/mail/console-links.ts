/**
 * Links into the console for mail, on `NOK_PUBLIC_URL` (never on a request's Host header,
 * which the sender of the request writes). A token rides in the fragment (`#token=…`): a
 * browser never sends the fragment to a server, so it stays out of every access log and proxy.
 */
export interface ConsoleLinks {
  readonly console: string;
  invitation(token: string): string;
  passwordReset(token: string): string;
  senderRequest(requestId: number): string;
}

export function consoleLinks(publicUrl: string): ConsoleLinks {
  const base = `${publicUrl.replace(/\/+$/, '')}/console`;
  return {
    console: `${base}/`,
    invitation: (token) => `${base}/accept-invitation#token=${token}`,
    passwordReset: (token) => `${base}/reset-password#token=${token}`,
    senderRequest: (requestId) => `${base}/sender-names/requests/${requestId}`,
  };
}

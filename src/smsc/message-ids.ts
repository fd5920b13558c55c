/**
 * Message ids for submit_sm_resp, one more than the last each time, as lower-case hexadecimal or
 * decimal. Both stay well under the 65 octets SMPP 3.4 §5.2.23 allows.
 */
export function messageIds(format: 'hex' | 'decimal', first: number): () => string {
  let next = first;
  const radix = format === 'hex' ? 16 : 10;
  return () => (next++).toString(radix);
}

/**
 * The nonce the server wrote into index.html for this page load. Mantine puts it on the
 * <style> elements it creates (CSS variables, responsive classes), which the
 * Content-Security-Policy allows by that nonce and nothing else. Under the Vite dev server
 * the placeholder stays and there is no policy, so there is no nonce.
 */
export function styleNonce(): string | undefined {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="nok-style-nonce"]');
  // `.nonce`, not getAttribute: browsers hide the attribute's value once the page has loaded.
  const nonce = meta?.nonce;
  return nonce && !nonce.startsWith('__') ? nonce : undefined;
}

/** An address on this machine (localhost, 127.0.0.0/8, ::1), which needs no network. */
export function isLoopbackUrl(url: string | null | undefined): boolean {
  if (url === undefined || url === null) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    host === '::1' ||
    /^127(?:\.\d{1,3}){3}$/.test(host)
  );
}

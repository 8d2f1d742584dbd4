/**
 * The size of a response kept in the Cache API: its `content-length` when the
 * stored headers have one (no body read), else the body's size.
 */
export async function cachedResponseBytes(response: Response): Promise<number> {
  const length = Number(response.headers.get('content-length'));
  if (Number.isFinite(length) && length > 0) return length;
  return (await response.blob()).size;
}

/**
 * A value loaded once and shared by every caller; a failed load (a secret not readable yet, a
 * client that could not start) is not kept, so the next call tries again.
 */
export function memo<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= load().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}

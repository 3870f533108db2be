declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: MutationErrorMeta;
  }
}

/**
 * How a failed mutation is reported. By default one toast titled "Error" says the error's own
 * message: the server's reason (ApiError) or the connection's (NetworkError), both in Spanish.
 */
export type MutationErrorMeta = {
  /** The toast's title instead of "Error". */
  errorTitle?: string;
  /** The toast's text instead of the error's message, for a mutation whose reasons would not help. */
  errorMessage?: string | ((error: Error) => string);
  /** The screen reports the failure itself: inline, or in a toast worded per call. */
  errorToast?: false;
};

/** The error toast of a failed mutation, or null when its screen reports the failure itself. */
export function mutationErrorToast(
  error: Error,
  meta: MutationErrorMeta | undefined,
): { title: string; description: string } | null {
  if (meta?.errorToast === false) return null;
  const message = meta?.errorMessage ?? error.message;
  return {
    title: meta?.errorTitle ?? "Error",
    description: typeof message === "function" ? message(error) : message,
  };
}

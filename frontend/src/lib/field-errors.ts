/** A validation issue as zod gives it, or as the API returns it in an error's `details`. */
export interface FieldIssue {
  path: readonly PropertyKey[] | string;
  message: string;
}

/**
 * The first message of each top-level field, as a form shows them beside its inputs (the shared
 * schemas' messages are Spanish already). `messageFor` may put a field's own wording instead.
 */
export function firstErrorByField<Field extends string>(
  issues: readonly FieldIssue[],
  messageFor: (field: Field, message: string) => string = (_field, message) => message,
): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of issues) {
    const field = (typeof issue.path === "string" ? issue.path : issue.path[0]) as Field;
    errors[field] ??= messageFor(field, issue.message);
  }
  return errors;
}

/** Formats zod issues as `path: message` lines (every problem, as compatibility.md asks). */
export function zodMessages(issues: readonly { path: readonly PropertyKey[]; message: string }[], prefix = ''): string[] {
  return issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

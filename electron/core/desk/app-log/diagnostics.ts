// "Copy diagnostics" (Help menu): what a support request needs, as plain text: versions, paths,
// which secret store the machine uses, and the last errors the log recorded (already redacted).
export interface DiagnosticsInput {
  appVersion: string;
  versions: Partial<Record<'electron' | 'chrome' | 'node' | 'v8', string | undefined>>;
  platform: string;
  arch: string;
  osRelease: string;
  paths: Record<string, string>;
  secretStore: string;
  recentErrors: string[];
}

export function diagnosticsText(input: DiagnosticsInput): string {
  const versions = Object.entries(input.versions)
    .filter(([, version]) => version)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  return [
    `Registry Desk ${input.appVersion}`,
    `Runtime: ${versions}`,
    `System: ${input.platform} ${input.arch} ${input.osRelease}`,
    `Secret store: ${input.secretStore}`,
    ...Object.entries(input.paths).map(([name, path]) => `${name}: ${path}`),
    `Last errors:${input.recentErrors.length === 0 ? ' none' : ''}`,
    ...input.recentErrors.map((line) => `  ${line}`),
  ].join('\n');
}

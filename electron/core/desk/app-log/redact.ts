// What never reaches the log file: a log line is free text (error messages quote what failed), so
// anything shaped like a secret is replaced before it is written. Shapes, not known values: a
// private key, token or password the desk never saw as such is still caught.
const PATTERNS: [RegExp, string][] = [
  // PEM blocks (private keys, certificates), whole or cut off mid-line.
  [/-----BEGIN [A-Z ]+-----[\s\S]*?(-----END [A-Z ]+-----|$)/g, '[pem removed]'],
  // Authorization headers and bearer tokens.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [removed]'],
  // JSON Web Tokens (three base64url parts, the first one a JSON header).
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[token removed]'],
  // `password=…`, `"passphrase": "…"`, `apiKey: …`, `secret=…`, `token=…` and the like.
  [
    /\b((?:pass(?:word|phrase)|secret|token|api[_-]?key|private[_-]?key|client[_-]?secret|authorization)["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;&}]+)/gi,
    '$1[removed]',
  ],
  // Long hex strings (raw private keys, 0x-prefixed or not) and long base64 runs (key material).
  [/\b(0x)?[0-9a-fA-F]{40,}\b/g, '[hex removed]'],
  [/[A-Za-z0-9+/]{60,}={0,2}/g, '[base64 removed]'],
  // Credentials inside URLs (https://user:password@host).
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, '$1[credentials removed]@'],
];

export function redactSecrets(line: string): string {
  let out = line;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

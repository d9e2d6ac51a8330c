// Masks secrets in text that hooks get to see (human-input prompts, raw auxiliary-LLM messages).
// Pure. This is the "force" redaction of Hermes: applied whatever the profile's redaction setting,
// because a hook script is not the place a password or API key should ever reach. It keeps the text
// readable ("[sudo] password for alice:" stays as it is) and masks only the secret parts.

export const REDACTED = '[REDACTED]';

const SECRET_KEY =
  String.raw`[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret|secret[_-]?key|api[_-]?key|apikey|` +
  String.raw`access[_-]?key|private[_-]?key|token|credentials?)`;

const RULES: [RegExp, string][] = [
  // PEM private keys, whole block.
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g, `${REDACTED} private key`],
  // Credentials in URLs: scheme://user:secret@host
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi, `$1${REDACTED}@`],
  // Authorization: Bearer|Basic|Token <value>
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
  // KEY=value, key: value, "key": "value" where the key names a secret.
  [new RegExp(String.raw`\b(${SECRET_KEY})(["']?\s*[=:]\s*)(["']?)[^\s"',;&]+\3`, 'gi'), `$1$2$3${REDACTED}$3`],
  // --password value / -p value style flags with a space.
  [/(--(?:password|passwd|passphrase|token|secret|api-key|apikey)\s+)\S+/gi, `$1${REDACTED}`],
  // Well-known token shapes, wherever they appear.
  [
    new RegExp(
      [
        String.raw`\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}`,
        String.raw`|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{30,}`,
        String.raw`|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})`,
      ].join(''),
      'g',
    ),
    REDACTED,
  ],
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const [re, replacement] of RULES) out = out.replace(re, replacement);
  return out;
}

/** redactSecrets applied to every string inside plain data (objects and arrays are copied). */
export function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)]));
  }
  return value;
}

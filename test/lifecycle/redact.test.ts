import { describe, expect, it } from 'vitest';
import { redactDeep, redactSecrets } from '../../src/lifecycle/redact.js';

describe('redactSecrets', () => {
  it.each([
    ['[sudo] password for alice:', '[sudo] password for alice:'],
    ['Password:', 'Password:'],
    ['Run: curl -H "Authorization: Bearer abcdef0123456789xyz" https://x', 'Run: curl -H "Authorization: Bearer [REDACTED]" https://x'],
    ['export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx', 'export OPENAI_API_KEY=[REDACTED]'],
    ['mysql --password hunter2 -u root', 'mysql --password [REDACTED] -u root'],
    ['MYSQL_PASSWORD=hunter2 ./start.sh', 'MYSQL_PASSWORD=[REDACTED] ./start.sh'],
    ['{"api_key": "abc123def"}', '{"api_key": "[REDACTED]"}'],
    ['git clone https://bob:s3cr3t@github.com/x/y', 'git clone https://bob:[REDACTED]@github.com/x/y'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked', 'token [REDACTED] leaked'],
    ['aws AKIAABCDEFGHIJKLMNOP', 'aws [REDACTED]'],
    ['max_tokens: 4096', 'max_tokens: 4096'],
    ['Approve `rm -rf build/`?', 'Approve `rm -rf build/`?'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('masks a PEM private key block', () => {
    const pem = 'key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nend';
    expect(redactSecrets(pem)).toBe('key:\n[REDACTED] private key\nend');
  });

  it('redactDeep masks strings inside plain data and copies it', () => {
    const input = [
      { role: 'user', content: 'my token=abc123456' },
      { role: 'system', content: ['ok', 'secret: x1'] },
    ];
    const out = redactDeep(input);
    expect(out).toEqual([
      { role: 'user', content: 'my token=[REDACTED]' },
      { role: 'system', content: ['ok', 'secret: [REDACTED]'] },
    ]);
    expect(input[0]!.content).toBe('my token=abc123456');
  });
});

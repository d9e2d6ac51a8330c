import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stderrLogger } from '../../src/engine/logger.js';

describe('stderrLogger: warnings reach the terminal inert', () => {
  it('escapes control characters from commands and hook output, keeps line breaks', () => {
    const stream = new PassThrough();
    let out = '';
    stream.on('data', (c: Buffer) => (out += c.toString('utf8')));
    stderrLogger({ stream }).warn('hook /x\u001b[2K\r.sh said:\nline two\u202e');
    expect(out).toBe('hermes-hooks: warning: hook /x\\e[2K\\r.sh said:\nline two\\u202e\n');
  });
});

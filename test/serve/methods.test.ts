// serve's one method table: what both transports route by, the help that documents it, and the
// one mapping from an error's code to the HTTP status and the JSON-RPC code.

import { describe, expect, it } from 'vitest';
import { serveHelp } from '../../src/cli/serve-command.js';
import { RequestError } from '../../src/serve/api.js';
import { Shed } from '../../src/serve/connections.js';
import { errorAnswer, ServeError } from '../../src/serve/error-answer.js';
import { findRoute, httpRouteList, METHODS, rpcMethodNames } from '../../src/serve/methods.js';
import { ShuttingDown } from '../../src/serve/requests.js';

describe('serve method table', () => {
  it('serve --help names every JSON-RPC method with its params and every HTTP route', () => {
    const help = serveHelp().replace(/\n\s+/g, ' ');
    for (const m of METHODS) {
      if (m.rpc !== null) expect(help).toContain(m.params ? `${m.rpc} ${m.params}` : m.rpc);
      if (m.http !== null) expect(help).toContain(`${m.http.verb} /v1/${m.http.path.join('/')}`);
    }
    expect(help).toContain(`Routes: ${httpRouteList()}`);
    expect(help).toContain(
      `Methods: ${METHODS.filter((m) => m.rpc)
        .map((m) => (m.params ? `${m.rpc} ${m.params}` : m.rpc))
        .join(', ')}`,
    );
    expect(rpcMethodNames()).toEqual(['emit', 'finalize_session', 'emit_gateway', 'gateway_collect', 'gateway_command', 'health', 'reload', 'shutdown']);
  });

  it('routes by path, with the params the path names', () => {
    expect(findRoute(['emit', 'pre_tool_call'])?.pathParams).toEqual({ event: 'pre_tool_call' });
    expect(findRoute(['agent', 'x', 'PreToolUse'])?.pathParams).toEqual({ agent: 'x', AgentEvent: 'PreToolUse' });
    expect(findRoute(['health'])?.method.rpc).toBe('health');
    expect(findRoute(['health', 'x'])).toBeNull();
    expect(findRoute(['emit'])).toBeNull();
    expect(findRoute(['shutdown'])).toBeNull(); // JSON-RPC only
  });

  it('maps every error by its code, once, for both transports', () => {
    expect(errorAnswer(new RequestError('bad'))).toEqual({ status: 400, rpc: -32602, message: 'bad' });
    expect(errorAnswer(new RequestError('no such event', 'not_found'))).toEqual({ status: 404, rpc: -32602, message: 'no such event' });
    expect(errorAnswer(new ServeError('method_not_found', 'm'))).toMatchObject({ status: 404, rpc: -32601 });
    expect(errorAnswer(new ShuttingDown())).toMatchObject({ status: 503, rpc: -32000 });
    expect(errorAnswer(new Shed('full'))).toMatchObject({ status: 503, message: 'full' });
    expect(errorAnswer(new ServeError('too_large', 'big'))).toMatchObject({ status: 413 });
    expect(errorAnswer(new Error('boom'))).toEqual({ status: 500, rpc: -32603, message: 'internal error: boom' });
  });
});

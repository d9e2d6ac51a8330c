// The pieces every real-agent script shares (scripts/e2e/*.mjs and bench/benchmarks/agents.mjs):
// fake model APIs on 127.0.0.1 that answer with whatever the script's model decides, and one agent
// run as a child process. The scripts keep only what their model says and how they judge the run.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

/** An HTTP server on 127.0.0.1 (a free port) calling `handle(req, res, body)` once the body is in. */
function listen(handle) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handle(req, res, body));
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ server, port: server.address().port })));
}

/**
 * Anthropic's Messages API (what `claude -p` talks to with ANTHROPIC_BASE_URL): `reply(msg)` gives
 * the assistant turn as `{ content, stop }`; it is sent as JSON, or as the event stream when asked.
 * count_tokens answers 10; any other path 404.
 */
export function messagesApi(reply) {
  let n = 0;
  return listen((req, res, body) => {
    if (req.url.startsWith('/v1/messages/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"input_tokens":10}');
    }
    if (!req.url.startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{}');
    }
    const msg = JSON.parse(body);
    const { content, stop } = reply(msg);
    const message = {
      id: `msg_${++n}`,
      type: 'message',
      role: 'assistant',
      model: msg.model,
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    };
    if (!msg.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(message));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
    content.forEach((block, index) => {
      if (block.type === 'text') {
        send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
      } else {
        send('content_block_start', { index, content_block: { ...block, input: {} } });
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
      }
      send('content_block_stop', { index });
    });
    send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
    send('message_stop', {});
    res.end();
  });
}

/**
 * OpenAI's Responses API (a Codex `model_providers` entry with wire_api "responses"): `answer(body)`
 * gives the one output item of the turn, streamed. Anything but POST …/responses: 404.
 */
export function responsesApi(answer) {
  let n = 0;
  return listen((req, res, body) => {
    if (req.method !== 'POST' || !req.url.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{}');
    }
    const item = answer(JSON.parse(body));
    const id = `resp_${++n}`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (data) => res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
    send({ type: 'response.created', response: { id } });
    send({ type: 'response.output_item.done', item });
    send({
      type: 'response.completed',
      response: { id, usage: { input_tokens: 10, input_tokens_details: null, output_tokens: 5, output_tokens_details: null, total_tokens: 15 } },
    });
    res.end();
  });
}

/**
 * One agent run to its end: `bin` (a .js entry runs under this node), killed after `timeoutMs`, or
 * sent SIGTERM once `doneWhen(stdout)` holds (an agent that lingers after its final output line).
 * Resolves to its exit code, stdout and stderr.
 */
export async function runAgent(bin, args, { cwd, env, timeoutMs, doneWhen }) {
  const [file, argv] = bin.endsWith('.js') ? [process.execPath, [bin, ...args]] : [bin, args];
  const child = spawn(file, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => {
    stdout += c;
    if (doneWhen?.(stdout)) child.kill('SIGTERM');
  });
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise((r) => child.on('close', r));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/**
 * OpenAI's Chat Completions API (Copilot CLI with COPILOT_PROVIDER_TYPE=openai, Qwen Code's
 * OPENAI_BASE_URL, Factory Droid's customModels with `generic-chat-completion-api`): `answer(body)`
 * gives the assistant message of the turn, `{ content }` or `{ tool_calls: [{ id, name, arguments }] }`;
 * sent as JSON, or as the chunk stream when asked.
 * GET …/models lists one model; anything else but POST …/chat/completions: 404.
 */
export function chatCompletionsApi(answer) {
  let n = 0;
  return listen((req, res, body) => {
    if (req.method === 'GET' && req.url.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Both ids: Copilot's scripts ask for e2e-model, Qwen's and Droid's for e2e.
      const models = ['e2e-model', 'e2e'].map((id) => ({ id, object: 'model', created: 0, owned_by: 'e2e' }));
      return res.end(JSON.stringify({ object: 'list', data: models }));
    }
    if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{}');
    }
    const request = JSON.parse(body);
    const said = answer(request);
    const id = `chatcmpl-${++n}`;
    const created = Math.floor(Date.now() / 1000);
    const toolCalls = (said.tool_calls ?? []).map((c, index) => ({ index, id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
    const finish = toolCalls.length ? 'tool_calls' : 'stop';
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const message = { role: 'assistant', content: said.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls.map(({ index, ...c }) => c) } : {}) };
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ id, object: 'chat.completion', created, model: request.model, choices: [{ index: 0, message, finish_reason: finish }], usage }),
      );
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta, finishReason = null, extra = {}) => {
      const choices = [{ index: 0, delta, finish_reason: finishReason }];
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices, ...extra })}\n\n`);
    };
    chunk({ role: 'assistant', content: said.content ?? '' });
    if (toolCalls.length) chunk({ tool_calls: toolCalls });
    chunk({}, finish, { usage });
    res.write('data: [DONE]\n\n');
    res.end();
  });
}

// The floor of any long-lived hook server written in Node, on this machine: the least a server can
// do per call — read the request, spawn the hook with the payload on a pipe, answer with its
// stdout — and nothing else (no config, consent, matching, evaluation, limits or kill).
//
//   node floor-server.mjs HOOK --stdio          one JSON-RPC line in, one line out
//   node floor-server.mjs HOOK --socket PATH    node:http on a Unix socket, POST → 200 JSON
//
// serve's latency minus this one's, measured interleaved, is what hermes-hooks itself adds; this
// one's minus the bare spawn is what the extra process and its transport cost here.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

const [hook, mode, socketPath] = process.argv.slice(2);

function runHook(payload) {
  return new Promise((resolve) => {
    const child = spawn(hook, [], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const out = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.resume();
    child.stdin.on('error', () => {});
    child.once('close', (code) => resolve({ exit_code: code, stdout: Buffer.concat(out).toString() }));
    child.stdin.end(payload);
  });
}

if (mode === '--stdio') {
  let buf = '';
  process.stdin.on('data', (c) => {
    buf += c;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const req = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      runHook(`${JSON.stringify(req.params.kwargs)}\n`).then((result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: req.id, result })}\n`));
    }
  });
  process.stderr.write('floor: serving\n');
} else {
  createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = `${JSON.stringify(await runHook(`${Buffer.concat(chunks).toString()}\n`))}\n`;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  }).listen(socketPath, () => process.stderr.write('floor: serving\n'));
}

"""Runs a profile's Hermes gateway hooks (every hooks/<dir>/handler.py) for hermes-hooks, unchanged,
in this one Python process - closer to Hermes, whose HookRegistry runs them in-process.

Usage: python3 gateway_bootstrap.py <key> <hook name> <path/to/handler.py> [<key> <name> <path> ...]

<key> names a hook in the protocol (the host uses its directory name: unique, unlike hook names).
Each handler.py is imported by path under Hermes' module name ``hermes_hook_<name>`` (its body runs
at import time; module state lives as long as this process), and ``handle(event_type, context)`` is
called for each of its requests; a coroutine (``async def handle``) is awaited on that hook's own
event loop, which lives as long as this process.

Every hook has its own thread: its import and then its calls, one at a time, in the order they
arrive. A slow or hanging handler (``time.sleep(120)``) delays only its own later calls, never
another hook's, and one slow import never holds up the others.

Protocol, line-delimited JSON in UTF-8 on this process's original stdin/stdout:
  first line out:  {"up": true}   (the interpreter is up; imports start now: their deadline too)
  then per hook:   {"hook": key, "ready": true}  or  {"hook": key, "ready": false, "error": "..."}
  each line in:    {"id": n, "hook": key, "event": "agent:start", "context": {...}}
  each line out:   {"id": n, "ok": true[, "result": <handle's return value, when not None>]}
                   or  {"id": n, "ok": false, "error": "Type: message"}
  output:          {"log": key, "line": "..."}  a line a hook printed (see below)
stdin EOF (the host closed us or died) -> each hook finishes its current call, then exit 0.

The handlers' own output never corrupts the protocol: fd 1 is pointed at fd 2 after the protocol
channel is duplicated. Python-level output (print, logging, tracebacks) written on a hook's thread
is sent as that hook's "log" lines; what bypasses Python (os.write, a subprocess) or comes from
a thread of the handler's own reaches stderr unattributed.
"""

import asyncio
import inspect
import io
import json
import os
import queue
import re
import signal
import sys
import threading
import traceback

# The shared worker plumbing sits in spawn/ beside both bootstraps' folders (src/spawn, dist/spawn;
# the bundle's copy in dist/cli finds dist/spawn too). Off sys.path again once imported.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spawn"))
_dont_write = sys.dont_write_bytecode
# No __pycache__ beside our own module (src/, or an installed package that may be read-only).
sys.dont_write_bytecode = True
import hermes_hooks_worker as worker  # noqa: E402
sys.dont_write_bytecode = _dont_write
del sys.path[0]

_proto_out = None
# The key of the hook whose thread this is (unset on the main thread and the handler's own threads).
_current = threading.local()


def _send(message):
    worker.send(_proto_out, message, allow_nan=False)


class _HookOutput(io.TextIOBase):
    """sys.stdout / sys.stderr: a line written on a hook's thread is sent as that hook's output."""

    def __init__(self, fallback):
        self._fallback = fallback
        self._partial = threading.local()

    @property
    def encoding(self):
        return "utf-8"

    @property
    def errors(self):
        return "strict"

    @property
    def buffer(self):
        # Bytes written here bypass the per-hook lines: they reach stderr unattributed.
        return self._fallback.buffer

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        return self._fallback.fileno()

    def write(self, text):
        key = getattr(_current, "key", None)
        if key is None:
            self._fallback.write(text)
            self._fallback.flush()
            return len(text)
        buffered = getattr(self._partial, "text", "") + text
        *lines, rest = buffered.split("\n")
        self._partial.text = rest
        for line in lines:
            _send({"log": key, "line": line.rstrip("\r")})
        return len(text)

    def finish_line(self):
        """Send what the current hook wrote without a newline (at the end of each of its calls)."""
        key = getattr(_current, "key", None)
        rest = getattr(self._partial, "text", "")
        if key is not None and rest:
            self._partial.text = ""
            _send({"log": key, "line": rest})

    def flush(self):
        self._fallback.flush()


def _import_handle(handler_path, hook_name):
    """handle() of handler.py, or the reason it cannot be loaded (as text)."""
    try:
        module = worker.load_by_path("hermes_hook_" + re.sub(r"\W", "_", hook_name), handler_path)
    except BaseException as exc:  # noqa: B902 - a SystemExit at import time is a load failure too
        return None, worker.import_failure("handler.py", "handler.py", exc)
    handle = getattr(module, "handle", None)
    if not callable(handle):
        return None, "no 'handle' function found"
    return handle, None


def _call(handle, loop, request):
    rid = request.get("id")
    context = request.get("context")
    if not isinstance(context, dict):
        context = {}
    try:
        result = handle(request.get("event"), context)
        if inspect.isawaitable(result):
            result = loop.run_until_complete(result)
        reply = {"id": rid, "ok": True}
        # A decision hook's answer (emit_collect); None, like Hermes, means "nothing to say".
        if result is not None:
            reply["result"] = result
        return reply
    except BaseException as exc:  # noqa: B902 - a handler's sys.exit() must not kill the worker
        traceback.print_exc()
        return {"id": rid, "ok": False, "error": worker.describe(exc)}


def _close_loop(loop):
    try:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    finally:
        loop.close()


class _Hook(object):
    """One handler.py on its own thread: imported there, then its requests one at a time, in order."""

    def __init__(self, key, name, path, output):
        self.key, self.name, self.path, self.output = key, name, path, output
        self.requests = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="hook:" + key, daemon=True)

    def _run(self):
        _current.key = self.key
        handle, error = _import_handle(self.path, self.name)
        self.output.finish_line()
        if error is not None:
            _send({"hook": self.key, "ready": False, "error": error})
            return
        _send({"hook": self.key, "ready": True})
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            while True:
                request = self.requests.get()
                if request is None:
                    return
                reply = _call(handle, loop, request)
                self.output.finish_line()
                try:
                    _send(reply)
                except ValueError as exc:  # a result JSON cannot carry (NaN): the call failed
                    _send({"id": reply.get("id"), "ok": False, "error": worker.describe(exc)})
        finally:
            _close_loop(loop)


def _parse_args(argv):
    if not argv or len(argv) % 3 != 0:
        return None
    return [tuple(argv[i:i + 3]) for i in range(0, len(argv), 3)]


def _serve(proto_in, hooks):
    for line in proto_in:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError as exc:
            _send({"id": None, "ok": False, "error": "bad request: " + worker.describe(exc)})
            continue
        if not isinstance(request, dict):
            _send({"id": None, "ok": False, "error": "bad request: not an object"})
            continue
        key = request.get("hook")
        hook = hooks.get(key) if isinstance(key, str) else None
        if hook is None or not hook.thread.is_alive():
            _send({"id": request.get("id"), "ok": False, "error": "no loaded hook %r in this worker" % (key,)})
            continue
        hook.requests.put(request)


def main():
    specs = _parse_args(sys.argv[1:])
    if specs is None:
        sys.stderr.write("usage: gateway_bootstrap.py <key> <hook name> <handler.py> [...]\n")
        return 2
    # The host decides when we stop (stdin EOF / SIGTERM); Ctrl-C in the terminal is for the host.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.dont_write_bytecode = True
    global _proto_out
    proto_in, _proto_out = worker.open_protocol()
    output = _HookOutput(sys.stderr)
    sys.stdout = sys.stderr = output
    worker.watch_parent()

    hooks = {key: _Hook(key, name, path, output) for key, name, path in specs}
    _send({"up": True})
    for hook in hooks.values():
        hook.thread.start()
    _serve(proto_in, hooks)
    # stdin EOF: each hook finishes its current call (the host stops waiting after its own bound).
    for hook in hooks.values():
        hook.requests.put(None)
    for hook in hooks.values():
        hook.thread.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())

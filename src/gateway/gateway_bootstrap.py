"""Runs one Hermes gateway hook's handler.py for hermes-hooks, unchanged.

Usage: python3 gateway_bootstrap.py <path/to/handler.py> <hook name>

The module is imported by path like Hermes' HookRegistry does (its body runs at import time), and
``handle(event_type, context)`` is called for each request; a coroutine (``async def handle``) is
awaited on one event loop that lives as long as this process.

Protocol, line-delimited JSON in UTF-8 on this process's original stdin/stdout:
  first line out:  {"started": true} once the interpreter runs (the host's import bound starts there)
  then:            {"ready": true}  or  {"ready": false, "error": "..."}
  each line in:    {"id": n, "event": "agent:start", "context": {...}}
  each line out:   {"id": n, "ok": true}  or  {"id": n, "ok": false, "error": "Type: message"}
Requests are handled one at a time, in order. stdin EOF (the host closed us or died) -> exit 0.

The handler's own output (print, logging, subprocesses) goes to stderr: fd 1 is pointed at fd 2
after the protocol channel is duplicated, so nothing the handler does can corrupt the protocol.
"""

import asyncio
import importlib.util
import inspect
import json
import os
import re
import signal
import sys
import threading
import time
import traceback


def _open_protocol():
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull, "r")
    return proto_in, proto_out


def _send(proto_out, message):
    proto_out.write(json.dumps(message, ensure_ascii=False, default=str) + "\n")
    proto_out.flush()


def _describe(exc):
    return "%s: %s" % (type(exc).__name__, exc)


def _watch_parent():
    # If the host is killed outright while a handler blocks, stdin EOF is never read: leave anyway.
    parent = os.getppid()
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _load(handler_path, hook_name):
    module_name = "hermes_hook_" + re.sub(r"\W", "_", hook_name)
    spec = importlib.util.spec_from_file_location(module_name, handler_path)
    if spec is None or spec.loader is None:
        raise ImportError("cannot load %s as a Python module" % handler_path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: gateway_bootstrap.py <handler.py> <hook name>\n")
        return 2
    handler_path, hook_name = sys.argv[1], sys.argv[2]
    # The host decides when we stop (stdin EOF / SIGTERM); Ctrl-C in the terminal is for the host.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.dont_write_bytecode = True
    proto_in, proto_out = _open_protocol()
    threading.Thread(target=_watch_parent, daemon=True).start()
    _send(proto_out, {"started": True})

    try:
        module = _load(handler_path, hook_name)
    except ImportError as exc:
        traceback.print_exc()
        missing = getattr(exc, "name", None)
        hint = ""
        if missing:
            hint = " (handler.py needs the Python module '%s', which is not installed for %s; install it, e.g. %s -m pip install %s)" % (
                missing, sys.executable, sys.executable, missing)
        _send(proto_out, {"ready": False, "error": "handler.py failed to import: " + _describe(exc) + hint})
        return 1
    except BaseException as exc:  # noqa: B902 - a SystemExit at import time is a load failure too
        traceback.print_exc()
        _send(proto_out, {"ready": False, "error": "handler.py failed to import: " + _describe(exc)})
        return 1

    handle = getattr(module, "handle", None)
    if not callable(handle):
        _send(proto_out, {"ready": False, "error": "no 'handle' function found"})
        return 1
    _send(proto_out, {"ready": True})

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        for line in proto_in:
            line = line.strip()
            if not line:
                continue
            try:
                request = json.loads(line)
            except ValueError as exc:
                _send(proto_out, {"id": None, "ok": False, "error": "bad request: " + _describe(exc)})
                continue
            rid = request.get("id")
            context = request.get("context")
            if not isinstance(context, dict):
                context = {}
            try:
                result = handle(request.get("event"), context)
                if inspect.isawaitable(result):
                    loop.run_until_complete(result)
                _send(proto_out, {"id": rid, "ok": True})
            except BaseException as exc:  # noqa: B902 - a handler's sys.exit() must not kill the worker
                traceback.print_exc()
                _send(proto_out, {"id": rid, "ok": False, "error": _describe(exc)})
    finally:
        try:
            pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        finally:
            loop.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

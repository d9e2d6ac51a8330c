"""Runs one Hermes Python plugin (plugin.yaml + __init__.py with register(ctx)) for hermes-hooks, unchanged.

Usage: python3 plugin_bootstrap.py <plugin dir> <plugin name>

The package is imported by path (its __init__.py runs, relative imports work), then
``register(ctx)`` is called; ``ctx.register_hook(event, callback)`` records the callbacks. Any
other ctx method (register_tool, register_command, ...) is accepted, does nothing, and is named in
the ready line so the host can say once that it is not supported.

Protocol, line-delimited JSON in UTF-8 on this process's original stdin/stdout:
  first line out:  {"started": true} once the interpreter runs (the host's import bound starts there)
  then:            {"ready": true, "hooks": [{"event", "name"}], "unsupported": [...]}
                   or {"ready": false, "error": "..."}
  each line in:    {"id": n, "hook": i, "kwargs": {...}}
  each line out:   {"id": n, "ok": true, "value": <return value>}  or  {"id": n, "ok": false, "error": "Type: message"}
Each call runs on its own daemon thread, like Hermes' dispatcher: a callback that never returns is
abandoned by the host after plugins.hook_callback_timeout and cannot hold up the others; its late
reply (if any) still arrives, so the host knows when an abandoned call ended. ``async def``
callbacks are run to completion with asyncio.run on that thread. Callbacks get keyword arguments:
all of them when they take **kwargs, otherwise only the names they declare (Hermes).
stdin EOF (the host closed us or died) -> exit 0.

The plugin's own output (print, logging) goes to stderr: fd 1 is pointed at fd 2 after the
protocol channel is duplicated, so nothing the plugin does can corrupt the protocol.
"""

import asyncio
import inspect
import json
import os
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


class _Manifest(object):
    def __init__(self, name):
        self.name = name
        self.key = name


class PluginContext(object):
    """The part of Hermes' PluginContext a hook plugin needs; everything else is a recorded no-op."""

    def __init__(self, name, plugin_dir):
        self.hooks = []
        self.unsupported = []
        self.plugin_id = name
        self.plugin_dir = plugin_dir
        self.manifest = _Manifest(name)
        self.hermes_home = os.environ.get("HERMES_HOME", "")

    def register_hook(self, hook_name, callback):
        self.hooks.append((hook_name, callback))

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)

        def not_supported(*args, **kwargs):
            if attr not in self.unsupported:
                self.unsupported.append(attr)
            return None

        return not_supported


def _load(plugin_dir, name):
    module_name = "hermes_plugins_" + re.sub(r"\W", "_", name)
    return worker.load_by_path(module_name, os.path.join(plugin_dir, "__init__.py"), package_dir=plugin_dir)


def _accepted(callback, kwargs):
    """All kwargs for a callback with **kwargs; otherwise only the names it declares."""
    try:
        params = inspect.signature(callback).parameters.values()
    except (TypeError, ValueError):
        return kwargs
    names = set()
    for p in params:
        if p.kind == p.VAR_KEYWORD:
            return kwargs
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            names.add(p.name)
    return {k: v for k, v in kwargs.items() if k in names}


def _jsonable(value):
    # The reply must be JSON; a value json cannot say becomes its str() (default=str), but a
    # value that cannot even be walked (a cycle) is a failure of the callback, not of the worker.
    json.dumps(value, ensure_ascii=False, default=str)
    return value


def _call(proto_out, callback, rid, kwargs):
    try:
        result = callback(**_accepted(callback, kwargs))
        if inspect.isawaitable(result):
            result = asyncio.run(_await(result))
        worker.send(proto_out, {"id": rid, "ok": True, "value": _jsonable(result)})
    except BaseException as exc:  # noqa: B902 - a callback's sys.exit() must not kill the worker
        traceback.print_exc()
        worker.send(proto_out, {"id": rid, "ok": False, "error": worker.describe(exc)})


async def _await(awaitable):
    return await awaitable


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: plugin_bootstrap.py <plugin dir> <plugin name>\n")
        return 2
    plugin_dir, name = sys.argv[1], sys.argv[2]
    # The host decides when we stop (stdin EOF / SIGTERM); Ctrl-C in the terminal is for the host.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.dont_write_bytecode = True
    proto_in, proto_out = worker.open_protocol()
    sys.stdout = sys.stderr
    worker.watch_parent()
    worker.send(proto_out, {"started": True})

    try:
        module = _load(plugin_dir, name)
    except BaseException as exc:  # noqa: B902 - a SystemExit at import time is a load failure too
        worker.send(proto_out, {"ready": False, "error": worker.import_failure("__init__.py", "the plugin", exc)})
        return 1

    register = getattr(module, "register", None)
    if not callable(register):
        worker.send(proto_out, {"ready": False, "error": "__init__.py has no register(ctx) function"})
        return 1
    ctx = PluginContext(name, plugin_dir)
    try:
        result = register(ctx)
        if inspect.isawaitable(result):
            asyncio.run(_await(result))
    except BaseException as exc:  # noqa: B902
        traceback.print_exc()
        worker.send(proto_out, {"ready": False, "error": "register() failed: " + worker.describe(exc)})
        return 1

    hooks = []
    callbacks = []
    for event, callback in ctx.hooks:
        fn = getattr(callback, "__name__", None) if callable(callback) else None
        hooks.append({"event": event if isinstance(event, str) else str(event),
                      "name": fn if fn and fn != "<lambda>" else None,
                      "callable": callable(callback)})
        callbacks.append(callback)
    worker.send(proto_out, {"ready": True, "hooks": hooks, "unsupported": list(ctx.unsupported)})

    for line in proto_in:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
            rid = request.get("id")
            callback = callbacks[int(request.get("hook"))]
        except (ValueError, TypeError, IndexError, AttributeError) as exc:
            worker.send(proto_out, {"id": None, "ok": False, "error": "bad request: " + worker.describe(exc)})
            continue
        kwargs = request.get("kwargs")
        if not isinstance(kwargs, dict):
            kwargs = {}
        threading.Thread(target=_call, args=(proto_out, callback, rid, kwargs), daemon=True).start()
    return 0


if __name__ == "__main__":
    code = main()
    sys.stderr.flush()
    # Abandoned callback threads are daemons: leave without waiting for them.
    os._exit(code)

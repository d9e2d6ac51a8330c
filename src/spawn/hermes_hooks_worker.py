"""What every hermes-hooks Python worker shares (plugin_bootstrap.py, gateway_bootstrap.py): the
protocol channel on the original stdin/stdout, one writer for it, the parent watch, import of a
user's file by path, and how a failure is worded. The TypeScript side is spawn/python-worker.ts.
"""

import importlib.util
import json
import os
import sys
import threading
import time
import traceback

_send_lock = threading.Lock()


def open_protocol():
    """(proto_in, proto_out) on duplicates of fds 0/1; fd 1 then points at fd 2 and fd 0 at /dev/null,
    so nothing user code prints or reads can corrupt the protocol."""
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    os.dup2(2, 1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdin = open(os.devnull, "r")
    return proto_in, proto_out


def send(proto_out, message, allow_nan=True):
    line = json.dumps(message, ensure_ascii=False, default=str, allow_nan=allow_nan) + "\n"
    with _send_lock:
        proto_out.write(line)
        proto_out.flush()


def describe(exc):
    return "%s: %s" % (type(exc).__name__, exc)


def _watch_parent():
    # If the host is killed outright while user code blocks, stdin EOF is never read: leave anyway.
    parent = os.getppid()
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def watch_parent():
    threading.Thread(target=_watch_parent, daemon=True).start()


def load_by_path(module_name, path, package_dir=None):
    """Import `path` as `module_name` (a package when `package_dir` is given: relative imports work)."""
    kw = {"submodule_search_locations": [package_dir]} if package_dir is not None else {}
    spec = importlib.util.spec_from_file_location(module_name, path, **kw)
    if spec is None or spec.loader is None:
        raise ImportError("cannot load %s as a Python %s" % (path, "package" if package_dir is not None else "module"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


def import_failure(what, needer, exc):
    """Why `what` failed to import, as one line, with the pip hint for a missing module (the traceback goes to stderr)."""
    traceback.print_exc()
    missing = getattr(exc, "name", None) if isinstance(exc, ImportError) else None
    hint = ""
    if missing:
        hint = " (%s needs the Python module '%s', which is not installed for %s; install it, e.g. %s -m pip install %s)" % (
            needer, missing, sys.executable, sys.executable, missing)
    return "%s failed to import: %s%s" % (what, describe(exc), hint)

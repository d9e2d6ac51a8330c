#!/usr/bin/env python3
"""A minimal agent host in Python that drives `hermes-hooks serve --stdio`.

It starts the server as a child, asks it before every tool call (pre_tool_call) and honours the
answer — block, modify (run the tool with the merged arguments), approve (ask the user first) —
reports each call (post_tool_call), finalizes the session, and shuts the server down.

    python3 hermes_host.py [--hermes-hooks CMD] [--home DIR]   # CMD default: "hermes-hooks"

Standard library only. The JSON-RPC wire: one JSON object per line on the child's stdin/stdout;
answers carry the id of their request; lines without an id are notifications (session_finalized).
"""

import argparse
import json
import shlex
import subprocess
import sys
import threading


class HookServer:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.next_id = 0
        self.lock = threading.Lock()
        self.notifications = []

    def call(self, method, params=None):
        with self.lock:
            self.next_id += 1
            request_id = self.next_id
            msg = {"jsonrpc": "2.0", "id": request_id, "method": method}
            if params is not None:
                msg["params"] = params
            self.proc.stdin.write(json.dumps(msg) + "\n")
            self.proc.stdin.flush()
            # One request at a time here, so the next answer with our id is ours.
            for line in self.proc.stdout:
                reply = json.loads(line)
                if reply.get("id") is None and "method" in reply:
                    self.notifications.append(reply)
                    continue
                if reply.get("id") != request_id:
                    continue
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]["message"]))
                return reply["result"]
            raise RuntimeError("hermes-hooks serve exited (code %s)" % self.proc.wait())

    def emit(self, event, **kwargs):
        return self.call("emit", {"event": event, "kwargs": kwargs})

    def close(self):
        """shutdown: the server finalizes open sessions and exits; read what it says on the way."""
        self.call("shutdown")
        for line in self.proc.stdout:
            self.notifications.append(json.loads(line))
        return self.proc.wait()


def run_tool(name, args):
    # A stand-in for real tools: echo what would run.
    return {"output": "%s %s" % (name, json.dumps(args, sort_keys=True))}


def tool_call(server, session_id, name, args, ask_user):
    decision = server.emit("pre_tool_call", tool_name=name, args=args, session_id=session_id)["decision"]
    action = decision["action"]
    if decision.get("args") is not None:
        args = decision["args"]  # modify: the hooks' merged arguments replace the model's
    if action == "block":
        result, status = {"error": decision.get("message") or "blocked"}, "blocked"
    elif action == "approve" and not ask_user(name, args, decision.get("message")):
        result, status = {"error": "denied by the user"}, "blocked"
    else:
        result, status = run_tool(name, args), "ok"
    server.emit("post_tool_call", tool_name=name, args=args, session_id=session_id, result=json.dumps(result), status=status)
    return {"tool": name, "action": action, "status": status, "args": args, "result": result}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hermes-hooks", default="hermes-hooks", help="how to start hermes-hooks (split like a shell)")
    ap.add_argument("--home", default=None, help="the Hermes profile home")
    ap.add_argument("--deny-approvals", action="store_true", help="answer every approval request with no")
    opts = ap.parse_args()
    argv = shlex.split(opts.hermes_hooks) + ["serve", "--stdio"] + (["--home", opts.home] if opts.home else [])
    server = HookServer(argv)
    session = "py-host-session"
    ask_user = lambda name, args, message: not opts.deny_approvals
    calls = [
        ("terminal", {"command": "ls -la"}),
        ("terminal", {"command": "rm -rf /"}),
        ("write_file", {"path": "notes.txt", "content": "hi"}),
        ("terminal", {"command": "git push --force"}),
    ]
    report = {"calls": [tool_call(server, session, name, args, ask_user) for name, args in calls]}
    report["finalize"] = server.call("finalize_session", {"kwargs": {"session_id": session, "reason": "done"}})["notices"]
    report["exit_code"] = server.close()
    report["notifications"] = server.notifications
    json.dump(report, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

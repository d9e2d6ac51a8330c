#!/usr/bin/env python3
"""inject-context.py — Hermes `pre_llm_call` hook.

Adds a short note about the working tree to the turn, via {"context": "…"}:
  - the current git branch (or the detached commit) of the payload's `cwd`, and the files with
    uncommitted changes (at most 20 listed);
  - the project's policy file `.hermes/POLICY.md` (looked up at the git top level, else in `cwd`),
    cut to 4000 characters.
Hermes appends the context to this turn's user message. Nothing to say (not a git repo, no policy
file) → no output at all.

`cwd` falls back to the hook's own working directory (Hermes runs hooks in its cwd) when the payload
has none; empty stdin means there is no turn to talk about. git runs with GIT_OPTIONAL_LOCKS=0 so it never takes the index lock from under the agent,
and with a short timeout. Anything unexpected is a note on stderr and exit 0: a context helper must
never stop a turn.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

SELF = "inject-context"
MAX_DIRTY = 20
MAX_POLICY_CHARS = 4000
POLICY_FILE = os.path.join(".hermes", "POLICY.md")
GIT_TIMEOUT_S = 3


def git(cwd: str, *args: str) -> str | None:
    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    try:
        done = subprocess.run(["git", "-C", cwd, *args], capture_output=True, text=True, errors="replace",
                              timeout=GIT_TIMEOUT_S, env=env, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def repo_summary(cwd: str) -> tuple[str | None, str | None]:
    """(summary text, repo top level) — both None outside a git work tree."""
    top = git(cwd, "rev-parse", "--show-toplevel")
    if top is None:
        return None, None
    top = top.strip()
    branch = (git(cwd, "symbolic-ref", "--quiet", "--short", "HEAD") or "").strip()
    if not branch:
        commit = (git(cwd, "rev-parse", "--short", "HEAD") or "").strip()
        branch = f"(detached at {commit})" if commit else "(no commits yet)"
    status = git(cwd, "status", "--porcelain=v1", "--untracked-files=normal") or ""
    dirty = [line[3:] for line in status.splitlines() if len(line) > 3]
    lines = [f"Git branch: {branch}"]
    if dirty:
        shown = ", ".join(dirty[:MAX_DIRTY])
        more = f" (+{len(dirty) - MAX_DIRTY} more)" if len(dirty) > MAX_DIRTY else ""
        lines.append(f"Uncommitted changes in {len(dirty)} file(s): {shown}{more}")
    else:
        lines.append("Working tree clean.")
    return "\n".join(lines), top


def read_policy(*dirs: str | None) -> str | None:
    for directory in dirs:
        if not directory:
            continue
        path = os.path.join(directory, POLICY_FILE)
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read(MAX_POLICY_CHARS + 1).strip()
        except OSError:
            continue
        if not text:
            return None
        if len(text) > MAX_POLICY_CHARS:
            text = text[:MAX_POLICY_CHARS].rstrip() + "\n[… policy truncated]"
        return f"Project policy ({POLICY_FILE}):\n{text}"
    return None


def main() -> None:
    raw = sys.stdin.buffer.read().decode("utf-8", "replace")
    if not raw.strip():
        return
    try:
        payload = json.loads(raw)
    except ValueError as exc:
        print(f"{SELF}: stdin is not valid JSON ({exc}); adding no context", file=sys.stderr)
        return
    if not isinstance(payload, dict):
        print(f"{SELF}: stdin is not a JSON object; adding no context", file=sys.stderr)
        return
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) and payload.get("cwd") else os.getcwd()
    if not os.path.isdir(cwd):
        return
    summary, top = repo_summary(cwd)
    parts = [p for p in (summary, read_policy(top, cwd)) if p]
    if parts:
        print(json.dumps({"context": "\n\n".join(parts)}))


if __name__ == "__main__":
    try:
        main()
    except Exception as exc:  # never stop a turn over a context helper
        print(f"{SELF}: unexpected error: {exc!r}", file=sys.stderr)
    sys.exit(0)

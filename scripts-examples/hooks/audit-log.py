#!/usr/bin/env python3
"""audit-log.py — Hermes observer hook for `post_tool_call` (and session / subagent events).

Appends one JSON line per event to an audit log:
  - `$HERMES_AUDIT_LOG` when set, else `$HERMES_HOME/logs/tool-audit.jsonl`,
    else `~/.hermes/logs/tool-audit.jsonl`; missing directories are created.
  - post_tool_call: ts, event, session_id, task_id, tool_call_id, tool_name, args_sha256
    (a digest, so secrets in arguments never reach the log), args_keys, status, error_type,
    duration_ms, result_bytes.
  - on_session_start / on_session_end / subagent_stop: ts, event, session_id and the event's own
    outcome fields (model, platform, completed, child_status, duration_ms, …).

It is an observer: it never prints to stdout and never fails the agent — every problem (bad stdin,
unwritable log) is one line on stderr and exit 0.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import sys

SELF = "audit-log"
# Outcome fields copied from `extra` for non-tool events, when present.
EVENT_FIELDS = {
    "on_session_start": ("model", "platform"),
    "on_session_end": ("task_id", "turn_id", "completed", "failed", "interrupted", "turn_exit_reason",
                       "model", "platform"),
    "subagent_stop": ("parent_turn_id", "child_session_id", "child_role", "child_status", "duration_ms"),
}


def log_path() -> str:
    explicit = os.environ.get("HERMES_AUDIT_LOG", "").strip()
    if explicit:
        return os.path.expanduser(explicit)
    home = os.environ.get("HERMES_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".hermes")
    return os.path.join(home, "logs", "tool-audit.jsonl")


def digest(value: object) -> str:
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def size_in_bytes(value: object) -> int | None:
    if value is None:
        return None
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return len(text.encode("utf-8"))


def record_for(payload: dict) -> dict:
    extra = payload.get("extra") if isinstance(payload.get("extra"), dict) else {}
    event = payload.get("hook_event_name")
    record = {
        "ts": dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "event": event,
        "session_id": payload.get("session_id"),
    }
    if payload.get("tool_name") is not None or event in ("pre_tool_call", "post_tool_call"):
        args = payload.get("tool_input")
        record.update({
            "task_id": extra.get("task_id"),
            "tool_call_id": extra.get("tool_call_id"),
            "tool_name": payload.get("tool_name"),
            "args_sha256": digest(args),
            "args_keys": sorted(args) if isinstance(args, dict) else None,
            "status": extra.get("status"),
            "error_type": extra.get("error_type"),
            "duration_ms": extra.get("duration_ms"),
            "result_bytes": size_in_bytes(extra.get("result")),
        })
    for key in EVENT_FIELDS.get(str(event), ()):
        if key in extra:
            record[key] = extra[key]
    return record


def append_line(path: str, line: str) -> None:
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    # One write() on an O_APPEND descriptor: concurrent hooks never interleave inside a line.
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
    finally:
        os.close(fd)


def main() -> None:
    raw = sys.stdin.buffer.read().decode("utf-8", "replace")
    if not raw.strip():
        print(f"{SELF}: empty stdin, nothing to log", file=sys.stderr)
        return
    try:
        payload = json.loads(raw)
    except ValueError as exc:
        print(f"{SELF}: stdin is not valid JSON ({exc}); nothing logged", file=sys.stderr)
        return
    if not isinstance(payload, dict):
        print(f"{SELF}: stdin is not a JSON object; nothing logged", file=sys.stderr)
        return
    path = log_path()
    try:
        append_line(path, json.dumps(record_for(payload), ensure_ascii=False, default=str))
    except OSError as exc:
        print(f"{SELF}: cannot append to {path}: {exc}", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except Exception as exc:  # an observer must never fail the agent
        print(f"{SELF}: unexpected error: {exc!r}", file=sys.stderr)
    sys.exit(0)

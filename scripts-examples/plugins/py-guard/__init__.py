"""py-guard: a Hermes plugin as Hermes loads it (plugin.yaml + __init__.py with register(ctx)).

hermes-hooks runs it unchanged in a long-lived python3 worker. Callbacks get keyword arguments:
all of them with **kwargs, otherwise only the names they declare. Return values are read as
Hermes reads them (pre_tool_call: {"action": "block"|"approve"|"modify", ...}; pre_llm_call: a
string or {"context": ...}; on_session_finalize: a string is shown to the user).
"""
import asyncio
import re
from collections import Counter

DESTRUCTIVE = re.compile(r"\brm\s+-[a-z]*r[a-z]*f|\bmkfs\b|\bdd\s+if=")
_tools = {}


def guard_terminal(tool_name, args, **_):
    if tool_name != "terminal":
        return None
    command = str((args or {}).get("command", ""))
    if DESTRUCTIVE.search(command):
        return {"action": "block", "message": "py-guard: refusing a destructive command: %s" % command}
    if command.startswith("sudo "):
        return {"action": "approve", "message": "py-guard: this command uses sudo", "rule_key": "py-guard:sudo"}
    if "timeout" not in (args or {}):
        return {"action": "modify", "args": {"timeout": 120}}
    return None


async def policy(user_message=None, is_first_turn=False):
    # async def callbacks are awaited; this one only answers on the first turn.
    await asyncio.sleep(0)
    if is_first_turn:
        return {"context": "Never execute commands that delete files without explicit user confirmation."}
    return None


def count_tools(tool_name, session_id=None):
    _tools.setdefault(session_id, Counter())[tool_name] += 1


def summary(session_id=None):
    counts = _tools.pop(session_id, None)
    if not counts:
        return None
    return "py-guard: tools used this session: " + ", ".join("%s\u00d7%d" % kv for kv in counts.most_common())


def register(ctx):
    ctx.register_hook("pre_tool_call", guard_terminal)
    ctx.register_hook("pre_llm_call", policy)
    ctx.register_hook("post_tool_call", count_tools)
    ctx.register_hook("on_session_finalize", summary)

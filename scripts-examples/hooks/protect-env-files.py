#!/usr/bin/env python3
"""protect-env-files.py — Hermes `pre_tool_call` hook (matcher: write_file|patch|terminal).

Keeps the agent from writing to files that hold secrets:
  - `.env` and `.env.*` (but not the templates `.env.example`, `.env.sample`, `.env.template`,
    `.env.dist`, which are meant to be edited and committed),
  - SSH private keys (`id_rsa`, `id_dsa`, `id_ecdsa`, `id_ed25519`),
  - `*.pem`.

Where it looks:
  - write_file / patch: the `path` argument (or `file_path`), and the file headers inside a
    `patch` text (`*** Update File: …`, `+++ b/…`).
  - terminal: the targets of redirects (`>`, `>>`, `&>`, `2>`, `>|`), `tee`, `sed -i`/`--in-place`,
    and the destination of `cp`/`mv`/`install`. Reading a secret file is not its business.

Answers {"action":"block","message":"…"} on a hit, nothing otherwise.
Empty stdin: exit 0. Stdin that is not a JSON object: a complaint on stderr and exit 1 (a warning
when the hook fails open, a block with `fail_closed: true`).
"""

from __future__ import annotations

import json
import os
import re
import sys

SELF = "protect-env-files"
ENV_TEMPLATES = {"example", "sample", "template", "dist"}
SSH_PRIVATE_KEYS = {"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}
WRITE_TOOLS = {"write_file", "patch"}
# Words that run the next word as the command (`sudo tee .env`, `env X=1 sed -i …`).
PREFIX_WORDS = {"sudo", "doas", "env", "command", "exec", "nohup", "time", "nice", "xargs"}
# The header's prefix only: the path is the rest of the line, stripped (a lazy `(.+?)\s*$` would be
# quadratic on a line of blanks).
PATCH_HEADER = re.compile(r"(?:\*\*\* (?:Add|Update|Delete) File:|\*\*\* Move to:|\+\+\+|---)\s")


def why_protected(path: str) -> str | None:
    """Why `path` must not be written (with what to do instead), or None."""
    name = os.path.basename(path.strip().rstrip("/"))
    env_advice = "Edit .env.example instead and ask the user to update their own copy."
    if name == ".env":
        return f".env holds the project's secrets. {env_advice}"
    if name.startswith(".env."):
        if name[len(".env."):].lower() in ENV_TEMPLATES:
            return None
        return f"{name} holds environment secrets. {env_advice}"
    if name in SSH_PRIVATE_KEYS:
        return f"{name} is an SSH private key. Ask the user to manage keys themselves."
    if name.endswith(".pem"):
        return f"{name} is a certificate or private key. Ask the user to install it themselves."
    return None


# One shell token at a time, each alternative decided by its first character: linear in the
# command's length (shlex builds every word a character at a time, quadratic on one long word).
TOKEN = re.compile(r"""
    (?P<op>[();<>|&\n]+)
  | (?P<word>(?:[^ \t\r'"\\();<>|&\n]+|\\.|'[^']*'|"(?:[^"\\]|\\.)*")+)
  | (?P<blank>[ \t\r]+)
""", re.VERBOSE | re.DOTALL)
NEEDS_UNQUOTE = re.compile(r"""['"\\]""")
QUOTED = re.compile(r"""'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)""", re.DOTALL)


def unquote(word: str) -> str:
    """Quotes removed and backslashes resolved, as a POSIX shell (and shlex) reads the word."""
    def one(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return m.group(1)
        if m.group(2) is not None:
            return re.sub(r'\\(["\\])', r"\1", m.group(2))
        return m.group(3)
    return QUOTED.sub(one, word)


def tokenize(command: str) -> list[str]:
    """Shell words and operator runs; newlines are kept as separators."""
    parts = TOKEN.findall(command)
    # The tokens cover the whole command unless an unbalanced quote or a final backslash stopped them.
    if sum(len(op) + len(word) + len(blank) for op, word, blank in parts) == len(command):
        return [op or (unquote(word) if NEEDS_UNQUOTE.search(word) else word) for op, word, _ in parts if op or word]
    # Unbalanced quotes: fall back to a rough split, still worth checking.
    return [w.strip("'\"") for w in re.findall(r"[^\s;&|<>()]+|[;&|<>()\n]+", command)]


OPERATOR = re.compile(r"[();<>|&\n]+")
# Every name why_protected refuses contains one of these; quotes and backslashes can only split them.
PROTECTED_PARTS = (".env", ".pem", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519")
UNQUOTED = str.maketrans("", "", "'\"\\")


def is_operator(token: str) -> bool:
    return OPERATOR.fullmatch(token) is not None


def may_name_protected(text: str) -> bool:
    """False when no word of `text`, however quoted, can be a protected name: nothing to parse."""
    bare = text.translate(UNQUOTED)
    return any(part in bare for part in PROTECTED_PARTS)


def split_commands(tokens: list[str]) -> tuple[list[list[str]], list[str]]:
    """Simple commands (redirects removed) and the redirect targets."""
    commands: list[list[str]] = [[]]
    targets: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if is_operator(tok):
            if ">" in tok:
                nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
                # `2>&1`, `>&-` duplicate a descriptor; anything else names a file.
                if nxt and not is_operator(nxt) and not (tok.endswith("&") and re.fullmatch(r"\d+|-", nxt)):
                    targets.append(nxt)
                    i += 1
            elif "<" not in tok:
                commands.append([])
            i += 1
            continue
        commands[-1].append(tok)
        i += 1
    # `2>file` tokenizes as `2`, `>`, `file`: the stray descriptor number is harmless in argv.
    return [c for c in commands if c], targets


def command_word(words: list[str]) -> tuple[str, list[str]]:
    i = 0
    while i < len(words) and (words[i] in PREFIX_WORDS or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[i])
                              or (i > 0 and words[i - 1] in PREFIX_WORDS and words[i].startswith("-"))):
        i += 1
    if i >= len(words):
        return "", []
    return os.path.basename(words[i]), words[i + 1:]


def sed_in_place_files(args: list[str]) -> list[str]:
    in_place = False
    has_script_option = False
    positional: list[str] = []
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg in ("-e", "--expression", "-f", "--file"):
            has_script_option = True
            skip = True
        elif arg.startswith(("--expression=", "--file=")):
            has_script_option = True
        elif arg == "--in-place" or arg.startswith("--in-place="):
            in_place = True
        elif arg.startswith("--"):
            pass
        elif arg.startswith("-") and arg != "-":
            letters = arg[1:]
            if "i" in letters:
                in_place = True
            if letters.endswith(("e", "f")) and "i" not in letters[:-1]:
                # `-ne 's/…/'`: the script is the next word
                has_script_option = True
                skip = True
        else:
            positional.append(arg)
    if not in_place:
        return []
    return positional if has_script_option else positional[1:]


def terminal_targets(command: str) -> list[str]:
    commands, targets = split_commands(tokenize(command))
    for words in commands:
        name, args = command_word(words)
        operands = [a for a in args if not a.startswith("-")]
        if name == "tee":
            targets += operands
        elif name in ("sed", "gsed"):
            targets += sed_in_place_files(args)
        elif name in ("cp", "mv", "install") and len(operands) >= 2:
            targets.append(operands[-1])
    return targets


def patch_targets(patch: str) -> list[str]:
    found = []
    for line in patch.splitlines():
        m = PATCH_HEADER.match(line)
        path = line[m.end():].strip() if m else ""
        if path and path != "/dev/null":
            found.append(re.sub(r"^[ab]/", "", path) if line.startswith(("+++", "---")) else path)
    return found


def main() -> int:
    raw = sys.stdin.buffer.read().decode("utf-8", "replace")
    if not raw.strip():
        return 0
    try:
        payload = json.loads(raw)
    except ValueError as exc:
        print(f"{SELF}: stdin is not valid JSON ({exc}); cannot check the write", file=sys.stderr)
        return 1
    if not isinstance(payload, dict):
        print(f"{SELF}: stdin is not a JSON object; cannot check the write", file=sys.stderr)
        return 1

    tool = payload.get("tool_name")
    args = payload.get("tool_input") if isinstance(payload.get("tool_input"), dict) else {}
    candidates: list[str] = []
    if tool == "terminal" and isinstance(args.get("command"), str):
        if may_name_protected(args["command"]):
            candidates = terminal_targets(args["command"])
    elif tool in WRITE_TOOLS:
        candidates = [v for k in ("path", "file_path") if isinstance(v := args.get(k), str)]
        if isinstance(args.get("patch"), str):
            candidates += patch_targets(args["patch"])

    for path in candidates:
        reason = why_protected(path)
        if reason:
            print(json.dumps({"action": "block", "message": f"{SELF}: refusing to write {path}: {reason}"}))
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""escalate-prod-deploy.py — Hermes `pre_tool_call` hook (matcher: terminal).

Production deploys need a human: instead of blocking them it answers
    {"action": "approve", "message": "…what and where…", "rule_key": "prod-deploy"}
which sends the call through Hermes' approval prompt (once / session / always / deny). The fixed
rule_key lets one "always" cover every production deploy rather than one command string.

What counts as a production deploy:
  - kubectl <mutating verb> … --context prod* (apply, create, replace, patch, delete, edit, scale,
    rollout, set, label, annotate, drain, cordon, uncordon, taint, exec, cp)
  - helm install|upgrade|rollback|uninstall … -n/--namespace production (or --kube-context prod*)
  - [bash|sh] [path/]deploy.sh prod|production
  - fly|flyctl deploy … -a/--app <name>-prod (or <name>-production)
Reading from production (kubectl get/logs/describe, helm status) goes through silently.

Empty stdin: exit 0. Stdin that is not a JSON object: a complaint on stderr and exit 1.
"""

from __future__ import annotations

import json
import os
import re
import sys

SELF = "escalate-prod-deploy"
RULE_KEY = "prod-deploy"
KUBECTL_MUTATING = {"apply", "create", "replace", "patch", "delete", "edit", "scale", "rollout", "set", "label",
                    "annotate", "drain", "cordon", "uncordon", "taint", "exec", "cp"}
HELM_MUTATING = {"install", "upgrade", "rollback", "uninstall", "delete"}
PREFIX_WORDS = {"sudo", "doas", "env", "command", "exec", "nohup", "time", "nice"}
PROD_CONTEXT = re.compile(r"^prod(uction)?([-_.].*)?$", re.IGNORECASE)
PROD_NAMESPACE = re.compile(r"^prod(uction)?$", re.IGNORECASE)
PROD_APP = re.compile(r"^.+-prod(uction)?$", re.IGNORECASE)


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


def simple_commands(command: str) -> list[list[str]]:
    commands: list[list[str]] = [[]]
    for tok in tokenize(command):
        if all(c in "();<>|&\n" for c in tok):
            commands.append([])
        else:
            commands[-1].append(tok)
    return [c for c in commands if c]


def option_value(args: list[str], *names: str) -> str | None:
    """Value of `--name value`, `--name=value` or `-n value` (last one wins, like most CLIs)."""
    found = None
    for i, arg in enumerate(args):
        for name in names:
            if arg == name and i + 1 < len(args):
                found = args[i + 1]
            elif name.startswith("--") and arg.startswith(name + "="):
                found = arg[len(name) + 1:]
    return found


def positional(args: list[str], options_with_values: set[str]) -> list[str]:
    out, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg in options_with_values:
            skip = True
        elif not arg.startswith("-"):
            out.append(arg)
    return out


def production_deploy(words: list[str]) -> str | None:
    """A one-line description when `words` is a production deploy, else None."""
    # An index, not words = words[1:]: a thousand `sudo`s must not cost a million copies.
    i = 0
    while i < len(words) and (words[i] in PREFIX_WORDS or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[i])
                              or (words[i].startswith("-") and i + 1 < len(words))):
        i += 1
    if i >= len(words):
        return None
    program, args = os.path.basename(words[i]), words[i + 1:]

    if program == "kubectl":
        context = option_value(args, "--context")
        verbs = positional(args, {"--context", "-n", "--namespace", "-f", "--filename", "-l", "--selector",
                                  "-o", "--output", "-c", "--container", "--kubeconfig"})
        if context and PROD_CONTEXT.match(context) and verbs and verbs[0] in KUBECTL_MUTATING:
            return f"kubectl {verbs[0]} against the production context '{context}'"
    elif program == "helm":
        namespace = option_value(args, "-n", "--namespace")
        context = option_value(args, "--kube-context")
        verbs = positional(args, {"-n", "--namespace", "--kube-context", "-f", "--values", "--set", "--version",
                                  "--set-string", "--timeout"})
        if verbs and verbs[0] in HELM_MUTATING:
            release = verbs[1] if len(verbs) > 1 else "?"
            if namespace and PROD_NAMESPACE.match(namespace):
                return f"helm {verbs[0]} of release '{release}' in the '{namespace}' namespace"
            if context and PROD_CONTEXT.match(context):
                return f"helm {verbs[0]} of release '{release}' on the production cluster '{context}'"
    elif program in ("fly", "flyctl"):
        app = option_value(args, "-a", "--app")
        if "deploy" in positional(args, {"-a", "--app", "-c", "--config", "--image", "--strategy"}) \
                and app and PROD_APP.match(app):
            return f"fly deploy of the production app '{app}'"
    else:
        if program in ("bash", "sh", "zsh") and args:
            program, args = os.path.basename(args[0]), args[1:]
        if program == "deploy.sh" and args and PROD_NAMESPACE.match(args[0]):
            return f"deploy.sh to '{args[0]}'"
    return None


# Every deploy production_deploy recognises names one of these programs; quotes and backslashes can
# only split the name, so a command without them (most commands) is not parsed at all.
PROGRAM_PARTS = ("kubectl", "helm", "fly", "deploy.sh")
UNQUOTED = str.maketrans("", "", "'\"\\")


def main() -> int:
    raw = sys.stdin.buffer.read().decode("utf-8", "replace")
    if not raw.strip():
        return 0
    try:
        payload = json.loads(raw)
    except ValueError as exc:
        print(f"{SELF}: stdin is not valid JSON ({exc}); cannot check for a production deploy", file=sys.stderr)
        return 1
    if not isinstance(payload, dict):
        print(f"{SELF}: stdin is not a JSON object; cannot check for a production deploy", file=sys.stderr)
        return 1
    args = payload.get("tool_input")
    command = args.get("command") if isinstance(args, dict) else None
    if not isinstance(command, str):
        return 0
    bare = command.translate(UNQUOTED)
    if not any(part in bare for part in PROGRAM_PARTS):
        return 0
    for words in simple_commands(command):
        what = production_deploy(words)
        if what:
            print(json.dumps({
                "action": "approve",
                "message": f"Production deploy: {what}. A human must confirm before it runs.",
                "rule_key": RULE_KEY,
            }))
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

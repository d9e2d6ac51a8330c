#!/usr/bin/env bash
# claude-style-guard.sh — a hook written the Claude Code way, which Hermes runs unchanged on
# `pre_tool_call` (matcher: terminal): read `.tool_input.command`, and to block print the reason on
# stderr and `exit 2`. (Hermes: exit 2 on pre_tool_call blocks, and the first 400 characters of
# stderr become the message.) Exit 0 with empty stdout lets the call through.
#
# It blocks "download and run" pipes, which execute whatever the server sends today:
#   curl … | sh, wget -qO- … | sudo bash, curl … | python3, bash <(curl …), sh -c "$(curl …)"
# Downloading to a file, reading it, then running it stays allowed.
#
# Reads JSON with jq when it is installed and with python3 otherwise. A payload it cannot read
# is a note on stderr and exit 1 (a warning: Claude Code and Hermes both treat 1 as non-blocking).
set -uo pipefail

readonly SELF=claude-style-guard

payload=$(cat)
[[ $payload =~ ^[[:space:]]*$ ]] && exit 0 # nothing to judge

# tool_input.command, with a trailing '.' so $(…) keeps trailing newlines; fails on bad JSON.
if command -v jq >/dev/null 2>&1; then
  command=$(jq -sj 'if length == 1 and (.[0] | type) == "object" then .[0] else error("not one object") end
                    | (.tool_input.command? // "" | strings), "."' <<<"$payload" 2>/dev/null)
else
  command=$(python3 -c '
import json, sys
p = json.loads(sys.stdin.read())
if not isinstance(p, dict):
    sys.exit(1)
c = (p.get("tool_input") or {}).get("command") if isinstance(p.get("tool_input"), dict) else None
sys.stdout.write((c if isinstance(c, str) else "") + ".")
' <<<"$payload" 2>/dev/null)
fi
# shellcheck disable=SC2181 # the assignment above is the command being checked
if [[ $? -ne 0 ]]; then
  echo "$SELF: stdin is not a JSON object; cannot check the command" >&2
  exit 1
fi
command=${command%.}
[[ -z $command ]] && exit 0
[[ $command == *curl* || $command == *wget* || $command == *fetch* || $command == *http* ]] || exit 0
export LC_ALL=C # the patterns are ASCII; byte-wise matching stays fast on long commands
fetch='(curl|wget|fetch|http)([[:space:]]|$)'
interpreter='(sudo([[:space:]]+-[^[:space:]]+)*[[:space:]]+)?(env[[:space:]]+)?([^[:space:]|;&]*/)?(ba|z|da|k|fi|c|tc)?sh|python[0-9.]*|perl|ruby|node'
pipe_to_shell="${fetch}[^;&]*\\|[[:space:]]*(${interpreter})([[:space:]]|$)"
process_substitution="(${interpreter})[[:space:]]+<\\([[:space:]]*${fetch}"
command_substitution="(${interpreter})[[:space:]]+-c[[:space:]]+[\"']?\\\$\\([[:space:]]*${fetch}"

# bash's =~ (glibc) is not linear: on a long command it can outlast the timeout. Over MAX_BYTES,
# GNU grep (a DFA, linear; -z: the whole command is one record) says whether any pattern matches.
readonly MAX_BYTES=4096
if ((${#command} > MAX_BYTES)); then
  for re in "$pipe_to_shell" "$process_substitution" "$command_substitution"; do
    if printf '%s' "$command" | grep -qzE -- "$re"; then
      echo "$SELF: download-and-run (a fetch piped or substituted into an interpreter, in this ${#command}-byte" \
        "command) executes whatever the server sends, unread. Download it to a file, inspect it, then run the file." >&2
      exit 2
    fi
  done
  exit 0
fi
for re in "$pipe_to_shell" "$process_substitution" "$command_substitution"; do
  if [[ $command =~ $re ]]; then
    matched=${BASH_REMATCH[0]}
    matched=${matched%"${matched##*[![:space:]]}"} # trim trailing blanks
    echo "$SELF: download-and-run ($matched …) executes whatever the server sends, unread." \
      "Download it to a file, inspect it, then run the file." >&2
    exit 2
  fi
done
exit 0

#!/usr/bin/env bash
# safe-flags.sh — Hermes `pre_tool_call` hook (matcher: terminal) that rewrites risky commands
# into their safe form instead of blocking them:
#   git push --force / -f          → git push --force-with-lease   (never clobbers someone else's push)
#   npm|pnpm|cargo publish         → … publish --dry-run            (publishing is irreversible)
#   terraform apply [-auto-approve] → terraform plan                 (humans apply)
#   terraform destroy              → terraform plan -destroy
# It answers {"action":"modify","args":{"command":"…"}}; Hermes merges `args` over the original
# arguments, so other keys (timeout, workdir …) are kept. Nothing to change → exit 0, no output.
#
# Needs no jq: a python3 one-liner reads the command out of the payload, the rewriting is pure bash,
# and the answer is JSON-encoded in bash. It never gets in the agent's way: unreadable stdin is a
# note on stderr and exit 0. One exception: a command over 64 KiB that it would rewrite is blocked,
# since bash cannot rewrite it in time.
set -uo pipefail
shopt -u patsub_replacement 2>/dev/null || true # bash 5.2: keep '&' and '\' literal in ${x//a/b}

readonly SELF=safe-flags

# Prints tool_input.command followed by a '.', so $(…) cannot eat trailing newlines; exit 3 = bad JSON.
command=$(python3 -c '
import json, sys
raw = sys.stdin.buffer.read().decode("utf-8", "replace")
if not raw.strip():
    sys.exit(0)
try:
    payload = json.loads(raw)
except ValueError:
    sys.exit(3)
args = payload.get("tool_input") if isinstance(payload, dict) else None
cmd = args.get("command") if isinstance(args, dict) else None
if not isinstance(payload, dict):
    sys.exit(3)
if isinstance(cmd, str):
    sys.stdout.write(cmd + ".")
')
case $? in
  0) ;;
  3) echo "$SELF: stdin is not a JSON object; leaving the command alone" >&2; exit 0 ;;
  *) echo "$SELF: could not read the payload (is python3 installed?); leaving the command alone" >&2; exit 0 ;;
esac
[[ -z $command ]] && exit 0
command=${command%.}

json_string() { # $1 → a JSON string literal, in REPLY
  local s=$1 i hex char
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\r'/\\r}
  s=${s//$'\t'/\\t}
  for ((i = 1; i < 32; i++)); do
    printf -v hex '%02x' "$i"
    # shellcheck disable=SC2059 # the format is the escape itself
    printf -v char "\\x$hex"
    [[ $s == *"$char"* ]] && s=${s//"$char"/\\u00$hex}
  done
  REPLY="\"$s\""
}

# Index of the word that is the program, after sudo/env/VAR=value prefixes; -1 if none.
program_index() {
  local i w
  for ((i = 0; i < ${#words[@]}; i++)); do
    w=${words[i]}
    case $w in
      sudo | doas | env | command | exec | nohup | time | nice) continue ;;
      -*) ((i > 0)) && continue ;;
    esac
    [[ $w =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] && continue
    REPLY=$i
    return
  done
  REPLY=-1
}

# Index of the first word after $1 that is not an option; -1 if none.
subcommand_index() {
  local i
  for ((i = $1 + 1; i < ${#words[@]}; i++)); do
    [[ ${words[i]} == -* ]] || { REPLY=$i; return; }
  done
  REPLY=-1
}

has_word() { # has_word PATTERN… → 0 if any word (after the program) matches one of the globs
  local w p
  for w in "${words[@]}"; do
    for p in "$@"; do
      # shellcheck disable=SC2053 # the pattern is a glob on purpose
      [[ $w == $p ]] && return 0
    done
  done
  return 1
}

rewrite_git_push() { # $1 = index of `push`; only the words after it are options of push
  local -a out=("${words[@]:0:$1+1}")
  local w lease=0 changed=0
  has_word --force-with-lease '--force-with-lease=*' && lease=1
  for w in "${words[@]:$1+1}"; do
    if [[ $w == --force ]]; then
      changed=1
      ((lease)) || out+=(--force-with-lease)
      lease=1
    elif [[ $w =~ ^-[A-Za-z]*f[A-Za-z]*$ ]]; then
      changed=1
      [[ ${w//f/} != - ]] && out+=("${w//f/}")
      ((lease)) || out+=(--force-with-lease)
      lease=1
    else
      out+=("$w")
    fi
  done
  ((changed)) && words=("${out[@]}")
}

rewrite_publish() { # $1 = index of `publish`
  has_word --dry-run '--dry-run=*' && return
  words=("${words[@]:0:$1+1}" --dry-run "${words[@]:$1+1}")
}

rewrite_terraform() { # $1 = index of the subcommand (apply or destroy)
  local sub=$1 i w skip=0
  local -a rest=() positional=()
  for ((i = sub + 1; i < ${#words[@]}; i++)); do
    w=${words[i]}
    if ((skip)); then skip=0; rest+=("$w"); continue; fi
    case $w in
      -auto-approve | --auto-approve | -auto-approve=* | --auto-approve=*) continue ;;
      -var | -var-file | -target | -replace | -parallelism | -lock-timeout | -state | -state-out | -backup)
        skip=1 ;;
      -*) ;;
      *) positional+=("$w") ;;
    esac
    rest+=("$w")
  done
  # `terraform apply saved.tfplan` applies a plan a human already reviewed: leave it.
  ((${#positional[@]} == 0)) || return
  if [[ ${words[sub]} == destroy ]]; then
    words=("${words[@]:0:sub}" plan -destroy "${rest[@]}")
  else
    words=("${words[@]:0:sub}" plan "${rest[@]}")
  fi
}

# Rewrites one simple command ($1); the result is in REPLY, byte-identical when nothing applies.
rewrite_segment() {
  local seg=$1 lead trail
  REPLY=$seg
  local -a words
  read -r -a words <<<"$seg"
  ((${#words[@]})) || return
  local before=("${words[@]}")
  program_index
  local prog=$REPLY
  ((prog >= 0)) || { REPLY=$seg; return; }
  subcommand_index "$prog"
  local sub=$REPLY
  case ${words[prog]##*/} in
    git)
      local i
      for ((i = prog + 1; i < ${#words[@]}; i++)); do
        [[ ${words[i]} == push ]] && { rewrite_git_push "$i"; break; }
      done
      ;;
    npm | pnpm | cargo)
      ((sub >= 0)) && [[ ${words[sub]} == publish ]] && rewrite_publish "$sub"
      ;;
    terraform)
      ((sub >= 0)) && [[ ${words[sub]} == apply || ${words[sub]} == destroy ]] && rewrite_terraform "$sub"
      ;;
  esac
  if [[ ${words[*]} == "${before[*]}" ]]; then
    REPLY=$seg
    return
  fi
  lead=${seg%%[![:space:]]*}
  trail=${seg##*[![:space:]]}
  REPLY="$lead${words[*]}$trail"
}

# Fast path: most commands mention none of the words this hook rewrites.
[[ $command == *push* || $command == *publish* || $command == *apply* || $command == *destroy* ]] || exit 0

# The rewriting loops over words in bash, far too slow for a long command. Over MAX_BYTES, GNU grep
# (linear) says whether a rewrite could apply; if so the call is blocked, since it cannot be made
# safe in time; if not, it goes through unchanged.
export LC_ALL=C
readonly MAX_BYTES=65536
rewritable='push[^;&|]*[[:space:]](--force|-[A-Za-z]*f)|publish|terraform[^;&|]*[[:space:]](apply|destroy)'
if ((${#command} > MAX_BYTES)); then
  printf '%s' "$command" | grep -qzE -- "$rewritable" || exit 0
  message="$SELF: the command is ${#command} bytes, more than the $MAX_BYTES this hook rewrites,"
  message+=" and it may force-push, publish or apply: it is blocked, not rewritten. Split it."
  printf '{"action":"block","message":"%s"}\n' "$message"
  exit 0
fi

# Split on ; && || | |& & and newlines, keeping the separators verbatim; the `&` of `2>&1`, `>&2`,
# `&>` and `<&` belongs to a redirect, not a separator. Byte-wise (C locale, set above).
nl=$'\n'
result="" piece="" remaining=$command
while [[ -n $remaining ]]; do
  chunk=${remaining%%[;&|"$nl"]*}
  piece+=$chunk
  remaining=${remaining:${#chunk}}
  [[ -z $remaining ]] && break
  c=${remaining:0:1} next=${remaining:1:1}
  case $c in
    '&')
      if [[ $next == '&' ]]; then
        separator='&&'
      elif [[ $piece == *[\<\>] || $next == '>' ]]; then
        piece+='&' remaining=${remaining:1}
        continue
      else
        separator='&'
      fi
      ;;
    '|') if [[ $next == '|' || $next == '&' ]]; then separator=$c$next; else separator='|'; fi ;;
    *) separator=$c ;;
  esac
  rewrite_segment "$piece"
  result+=$REPLY$separator
  piece="" remaining=${remaining:${#separator}}
done
rewrite_segment "$piece"
result+=$REPLY

[[ $result == "$command" ]] && exit 0
echo "$SELF: rewrote '${command:0:200}' → '${result:0:200}'" >&2
json_string "$result"
printf '{"action":"modify","args":{"command":%s}}\n' "$REPLY"

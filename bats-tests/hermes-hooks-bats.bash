# hermes-hooks-bats.bash — bats helpers for testing Hermes hook scripts in your own CI.
#
# Load it from a .bats file, after bats-support and bats-assert (it loads them itself when they
# are not loaded yet and BATS_LIB_PATH can find them):
#
#   setup() {
#     load '/path/to/hermes-hooks-bats'      # or: bats_load_library hermes-hooks-bats.bash
#   }
#   @test "rm -rf / is blocked" {
#     run_hook ./hooks/guard.sh "$(hook_payload pre_tool_call terminal '{"command": "rm -rf /"}')"
#     assert_blocked 'root filesystem'
#   }
#
# Needs bats >= 1.5 (run --separate-stderr), bash 4+, and python3 for JSON. No jq.
#
# A hook's answer is read the way Hermes reads it (reference: hermes-hooks-behaviour §3.3–3.4):
# the trimmed stdout must be ONE JSON object; on pre_tool_call exit 2 blocks (message from a stdout
# block, else the first 400 characters of stderr, else "Blocked by shell hook."); any other
# non-zero exit is only a warning and stdout is still read. Keys are exact and case-sensitive:
#   pre_tool_call  {"action":"block","message"} | {"decision":"block","reason"}
#                  {"action":"modify","args":{…}} | {"decision":"modify","tool_input":{…}}
#                  {"action":"approve","message"?,"rule_key"?}   ("decision":"approve" is ignored)
#   pre_verify     {"action"|"decision": "continue"|"block", "message"|"reason": "…"} → continue
#   other events   {"context": "…"}
# Claude Code's hookSpecificOutput dialect is deliberately NOT counted: Hermes ignores it, and a
# hook tested with this library must work under Hermes as well as hermes-hooks.
#
# ── Running a hook ────────────────────────────────────────────────────────────────────────────
# run_hook [--event EVENT] <script> <payload> [script-args…]
# run_hook [--event EVENT] '<interpreter> <script> [args…]' <payload> [script-args…]
# run_hook [--event EVENT] <interpreter> <script> <payload> [script-args…]
#     Runs the hook with <payload> on stdin through `run --separate-stderr`, so $status, $output
#     (stdout) and $stderr are set as usual. The hook is given the way config.yaml gives it:
#     <script> is an existing file (run as is, even with spaces in its path); anything else with a
#     space is a command line, split like hermes-hooks splits a configured `command:` (quotes and
#     backslashes honoured, no shell, `~/` expanded at the start of a word): 'python3 hook.py'.
#     Unquoted, a known interpreter (python3, bash, node … see _HHB_INTERPRETERS) followed by an
#     existing script file takes both as the command. Then it parses the directive into:
#       HOOK_EVENT        the event (from --event, else the payload's hook_event_name, else
#                         pre_tool_call)
#       HOOK_ACTION       block | modify | approve | continue | context | "" (no directive)
#       HOOK_MESSAGE      block / approve / continue message
#       HOOK_ARGS         modify arguments as compact JSON ("" otherwise)
#       HOOK_RULE_KEY     approve rule_key
#       HOOK_CONTEXT      context text
#       HOOK_STDOUT_KIND  empty | object | non-object | invalid (what the trimmed stdout was)
#     <payload> is a file path if such a file exists, else the literal payload text ("" = empty
#     stdin). stdin is a real file, as under Hermes. The script also gets HERMES_HOOK_EVENT.
#
# hook_payload <event> [tool] [args-json] [extra-json]
#     Prints a wire payload: {"hook_event_name", "tool_name", "tool_input", "session_id":
#     "bats-session", "cwd": $PWD, "profile": "default", "extra"}. An empty tool or args is null.
#
# ── Assertions on the last run_hook ──────────────────────────────────────────────────────────
# assert_blocked [message-substring]     exit 2 on pre_tool_call, or a block directive on stdout
# assert_allowed                         exit 0 and no block, modify or approve
# assert_modified [key [value]]          a modify; with key: args has it; with value: it equals
#                                        value (strings compare raw, other values as JSON)
# assert_approved [message-substring]    an approve; HOOK_RULE_KEY holds its rule_key
# assert_rule_key <key>                  the approve carried exactly this rule_key
# assert_continue [message-substring]    a pre_verify continue
# assert_context [substring]             a non-blank context
# assert_no_stdout                       stdout is empty (observer hooks, silent allows)
# assert_stdout_json                     stdout is one JSON object (what Hermes can parse)
#
# ── The hermes-hooks CLI ─────────────────────────────────────────────────────────────────────
# hermes_hooks_test <event> [cli-args…] [< payload]
#     Runs `$HERMES_HOOKS_CLI test <event> --json [cli-args…]` through run --separate-stderr
#     (stdin passes through: redirect a payload into the call) and parses the report into
#     HH_DECISION_ACTION, HH_DECISION_MESSAGE, HH_DECIDED_BY (index or ""), HH_DECISION (JSON).
#     HERMES_HOOKS_CLI is a command line split on spaces (e.g. "node /app/dist/cli/bin.js");
#     unset, `hermes-hooks` from PATH is used, else the CLI of the package this library came
#     with (node_modules/hermes-hooks/dist/cli/bin.js after `npm install --save-dev hermes-hooks`).
# assert_decision <action> [message-substring]
#     The last hermes_hooks_test decided <action> (block | approve | allow | continue); a block
#     must also have exited 2, anything else 0.
# hermes_hooks_replay <journal> [cli-args…]
#     Runs `$HERMES_HOOKS_CLI replay <journal> --json [cli-args…]` (the journal written by
#     `--journal` or `hooks_journal:`, re-run through the current hooks: docs/journal.md) and sets
#     HH_REPLAY_EVENTS (events replayed), HH_REPLAY_CHANGED (verdicts that changed), HH_REPLAY (JSON).
#     $status is replay's: 0 nothing changed, 1 something did, 2 error.
# assert_replay_unchanged                no verdict changed (exit 0)
# assert_replay_changed [count]          some verdict changed (exit 1); with count: exactly that many
#
# ── JSON ─────────────────────────────────────────────────────────────────────────────────────
# json_get <dotted.path> [json]
#     Prints the value at a path of JSON (default: $output): `decision.action`, `hooks.0.status`.
#     Strings print raw, other values as compact JSON; a missing path fails.

# shellcheck disable=SC2034,SC2154,SC2120 # HOOK_*/HH_* are for callers; $status, $output come from bats run
bats_require_minimum_version 1.5.0

if ! declare -F assert_success >/dev/null; then
  bats_load_library bats-support
  bats_load_library bats-assert
fi

shopt -u patsub_replacement 2>/dev/null || true # bash 5.2: keep '&' and '\' literal in ${x//a/b}

: "${HERMES_HOOKS_BATS_PYTHON:=python3}"
# The CLI shipped beside this file (<package>/bats-tests/ → <package>/dist/cli/bin.js): a project
# that installed hermes-hooks as a dev dependency has no `hermes-hooks` on PATH in a bare shell.
_HHB_BUNDLED_CLI="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." 2>/dev/null && pwd)/dist/cli/bin.js"

# ── internals ────────────────────────────────────────────────────────────────────────────────

_hhb_tmpfile() {
  mktemp "${BATS_TEST_TMPDIR:-${TMPDIR:-/tmp}}/hermes-hooks-bats.$1.XXXXXX"
}

# Reads what Hermes would make of a run: argv = event status stdout-file stderr-file.
# Prints six NUL-terminated fields: action, message, args, rule_key, context, stdout kind.
_HHB_PARSE_DIRECTIVE_PY='
import json, sys
event, status = sys.argv[1], int(sys.argv[2])
def read(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read().strip()
out, err = read(sys.argv[3]), read(sys.argv[4])
DEFAULT = "Blocked by shell hook."

kind, obj = "empty", None
if out:
    try:
        value = json.loads(out)
    except ValueError:
        kind = "invalid"
    else:
        kind, obj = ("object", value) if isinstance(value, dict) else ("non-object", None)

def message(first, second):
    value = first if first else second
    return value if isinstance(value, str) and value != "" else DEFAULT

def parse(o):
    if o is None:
        return None
    if event == "pre_tool_call":
        if o.get("action") == "block":
            return {"action": "block", "message": message(o.get("message"), o.get("reason"))}
        if o.get("decision") == "block":
            return {"action": "block", "message": message(o.get("reason"), o.get("message"))}
        if o.get("action") == "modify" and isinstance(o.get("args"), dict):
            return {"action": "modify", "args": o["args"]}
        if o.get("decision") == "modify" and isinstance(o.get("tool_input"), dict):
            return {"action": "modify", "args": o["tool_input"]}
        if o.get("action") == "approve":
            d = {"action": "approve"}
            for key in ("message", "rule_key"):
                if isinstance(o.get(key), str) and o[key].strip():
                    d[key] = o[key].strip()
            return d
        return None
    if event == "pre_verify":
        a = str(o.get("action") or o.get("decision") or "").strip().lower()
        m = o.get("message") or o.get("reason")
        if a in ("continue", "block") and isinstance(m, str) and m.strip():
            return {"action": "continue", "message": m.strip()}
        return None
    c = o.get("context")
    if isinstance(c, str) and c.strip():
        return {"action": "context", "context": c}
    return None

directive = parse(obj)
if event == "pre_tool_call" and status == 2 and (directive is None or directive["action"] != "block"):
    directive = {"action": "block", "message": err[:400] or DEFAULT}
d = directive or {}
fields = [d.get("action", ""), d.get("message", ""),
          json.dumps(d["args"], separators=(",", ":"), ensure_ascii=False) if "args" in d else "",
          d.get("rule_key", ""), d.get("context", ""), kind]
sys.stdout.write("".join(f.replace("\0", "") + "\0" for f in fields))
'

_hhb_parse_directive() {
  local out_file err_file field
  local -a fields=()
  out_file=$(_hhb_tmpfile stdout) err_file=$(_hhb_tmpfile stderr)
  printf '%s' "$output" >"$out_file"
  printf '%s' "${stderr-}" >"$err_file"
  while IFS= read -r -d '' field; do
    fields+=("$field")
  done < <("$HERMES_HOOKS_BATS_PYTHON" -c "$_HHB_PARSE_DIRECTIVE_PY" "$HOOK_EVENT" "$status" "$out_file" "$err_file")
  rm -f "$out_file" "$err_file"
  if ((${#fields[@]} != 6)); then
    echo "hermes-hooks-bats: could not parse the hook's output (is $HERMES_HOOKS_BATS_PYTHON installed?)" >&2
    return 1
  fi
  HOOK_ACTION=${fields[0]} HOOK_MESSAGE=${fields[1]} HOOK_ARGS=${fields[2]}
  HOOK_RULE_KEY=${fields[3]} HOOK_CONTEXT=${fields[4]} HOOK_STDOUT_KIND=${fields[5]}
}

_hhb_event_of() { # payload file → its hook_event_name, or nothing
  "$HERMES_HOOKS_BATS_PYTHON" -c '
import json, sys
try:
    with open(sys.argv[1], encoding="utf-8", errors="replace") as fh:
        p = json.load(fh)
    e = p.get("hook_event_name") if isinstance(p, dict) else None
    print(e if isinstance(e, str) else "")
except Exception:
    print("")
' "$1"
}

# Interpreters that `run_hook python3 hook.py PAYLOAD` recognises unquoted.
_HHB_INTERPRETERS=' python python2 python3 bash sh zsh dash ksh fish node nodejs deno bun ruby perl php lua pwsh uv '

_hhb_is_interpreter() {
  [[ $_HHB_INTERPRETERS == *" $1 "* || $1 =~ ^python3\.[0-9]+$ ]]
}

# Splits a command line like hermes-hooks' src/shell-words.ts: POSIX quoting and backslashes, no
# shell, and an unquoted `~` or `~/…` at the start of any word is the home directory. Prints the
# words NUL-terminated; an unsplittable line (unterminated quote, trailing backslash) fails.
_HHB_SPLIT_PY='
import os, sys
line = sys.argv[1]
argv, token, in_token, tilde, i, n = [], "", False, None, 0, len(line)
def fail(reason):
    sys.exit("hermes-hooks-bats: command %r cannot be parsed: %s" % (line, reason))
def settle(slash):
    global tilde
    if tilde == "pending":
        tilde = "expand" if slash else None
def end():
    global token, in_token, tilde
    if in_token:
        argv.append(os.path.expanduser("~") + token[1:] if tilde else token)
    token, in_token, tilde = "", False, None
while i < n:
    c = line[i]
    if c in " \t\n\r":
        end(); i += 1
    elif c == "\\":
        if i + 1 >= n:
            fail("No escaped character")
        nxt = line[i + 1]; i += 2
        if nxt != "\n":
            settle(False); token += nxt; in_token = True
    elif c == "\x27":
        close = line.find("\x27", i + 1)
        if close < 0:
            fail("No closing quotation")
        settle(False); token += line[i + 1:close]; in_token = True; i = close + 1
    elif c == "\x22":
        settle(False); in_token = True; i += 1; closed = False
        while i < n:
            d = line[i]
            if d == "\x22":
                closed = True; i += 1; break
            if d == "\\" and i + 1 < n and line[i + 1] in "\\\x22$`\n":
                if line[i + 1] != "\n":
                    token += line[i + 1]
                i += 2; continue
            token += d; i += 1
        if not closed:
            fail("No closing quotation")
    else:
        if not in_token and c == "~":
            tilde = "pending"
        else:
            settle(c == "/")
        token += c; in_token = True; i += 1
end()
if not argv:
    fail("empty command")
sys.stdout.write("".join(a + "\0" for a in argv))
'

_hhb_split_command() { # command-line → fills the array _HHB_ARGV, or fails saying why
  local word
  _HHB_ARGV=()
  while IFS= read -r -d '' word; do
    _HHB_ARGV+=("$word")
  done < <("$HERMES_HOOKS_BATS_PYTHON" -c "$_HHB_SPLIT_PY" "$1" || printf 'hermes-hooks-bats-split-failed\0')
  if ((${#_HHB_ARGV[@]} == 0)) || [[ ${_HHB_ARGV[-1]} == hermes-hooks-bats-split-failed ]]; then
    _HHB_ARGV=()
    return 1
  fi
}

_hhb_exec() { # event script args… — the script sees HERMES_HOOK_EVENT like under Hermes
  local event=$1
  shift
  HERMES_HOOK_EVENT=$event "$@"
}

# Prints the key/value block every failing assertion shows.
_hhb_describe_run() {
  batslib_print_kv_single_or_multi 10 \
    'event' "$HOOK_EVENT" \
    'status' "$status" \
    'directive' "${HOOK_ACTION:-(none)}" \
    'stdout' "$output" \
    'stderr' "${stderr-}"
}

_hhb_fail() { # _hhb_fail TITLE [extra key value …]
  local title=$1
  shift
  {
    (($#)) && batslib_print_kv_single_or_multi 10 "$@"
    _hhb_describe_run
  } | batslib_decorate "$title" | fail
}

_hhb_require_run() {
  if [[ -z ${HOOK_EVENT+set} ]]; then
    echo "hermes-hooks-bats: call run_hook before asserting on its result" | batslib_decorate 'no hook run' | fail
    return 1
  fi
}

# ── running hooks ───────────────────────────────────────────────────────────────────────────

run_hook() {
  local event=""
  while (($#)); do
    case $1 in
      --event) event=$2; shift 2 ;;
      --event=*) event=${1#--event=}; shift ;;
      --) shift; break ;;
      *) break ;;
    esac
  done
  if (($# < 2)); then
    echo "usage: run_hook [--event EVENT] <script|'interpreter script'> <payload-file|payload-json|''> [script-args…]" >&2
    return 2
  fi
  local -a command
  if (($# >= 3)) && [[ ! -e $1 && $1 != */* && -f $2 ]] && _hhb_is_interpreter "$1"; then
    command=("$1" "$2") # run_hook python3 hook.py PAYLOAD …
    shift 2
  elif [[ -e $1 || $1 != *[[:space:]]* ]]; then
    command=("$1") # a script path, as before (spaces in an existing path are part of it)
    shift
  else
    if ! _hhb_split_command "$1"; then # run_hook 'python3 hook.py' PAYLOAD …
      echo "hermes-hooks-bats: run_hook: cannot split the command '$1' (an unterminated quote or a trailing backslash?)" >&2
      return 2
    fi
    command=("${_HHB_ARGV[@]}")
    shift
  fi
  local payload=$1 stdin_file
  shift
  if [[ -n $payload && -f $payload ]]; then
    stdin_file=$payload
  else
    stdin_file=$(_hhb_tmpfile payload)
    printf '%s' "$payload" >"$stdin_file"
  fi
  [[ -n $event ]] || event=$(_hhb_event_of "$stdin_file")
  HOOK_EVENT=${event:-pre_tool_call}
  run --separate-stderr _hhb_exec "$HOOK_EVENT" "${command[@]}" "$@" <"$stdin_file"
  _hhb_parse_directive
}

hook_payload() {
  if (($# < 1)); then
    echo "usage: hook_payload <event> [tool] [args-json] [extra-json]" >&2
    return 2
  fi
  "$HERMES_HOOKS_BATS_PYTHON" -c '
import json, os, sys
event = sys.argv[1]
tool = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
args = json.loads(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else None
extra = json.loads(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else {}
if args is not None and not isinstance(args, dict):
    sys.exit("hook_payload: args must be a JSON object")
if not isinstance(extra, dict):
    sys.exit("hook_payload: extra must be a JSON object")
print(json.dumps({"hook_event_name": event, "tool_name": tool, "tool_input": args,
                  "session_id": "bats-session", "cwd": os.getcwd(), "profile": "default",
                  "extra": extra}, ensure_ascii=False))
' "$@"
}

# ── assertions ──────────────────────────────────────────────────────────────────────────────

assert_blocked() {
  _hhb_require_run || return 1
  if [[ $HOOK_ACTION != block ]]; then
    _hhb_fail 'hook did not block'
    return 1
  fi
  if [[ -n ${1-} && $HOOK_MESSAGE != *"$1"* ]]; then
    _hhb_fail 'block message does not contain the expected text' 'expected' "$1" 'message' "$HOOK_MESSAGE"
    return 1
  fi
}

assert_allowed() {
  _hhb_require_run || return 1
  if [[ $status -ne 0 ]]; then
    _hhb_fail 'hook did not exit 0'
    return 1
  fi
  case $HOOK_ACTION in
    block | modify | approve)
      _hhb_fail "hook answered $HOOK_ACTION instead of allowing"
      return 1
      ;;
  esac
}

assert_modified() {
  _hhb_require_run || return 1
  if [[ $HOOK_ACTION != modify ]]; then
    _hhb_fail 'hook did not modify the arguments'
    return 1
  fi
  (($#)) || return 0
  local got
  if ! got=$("$HERMES_HOOKS_BATS_PYTHON" -c '
import json, sys
args = json.loads(sys.argv[1])
if sys.argv[2] not in args:
    sys.exit(1)
v = args[sys.argv[2]]
print(v if isinstance(v, str) else json.dumps(v, separators=(",", ":"), ensure_ascii=False), end="")
' "$HOOK_ARGS" "$1"); then
    _hhb_fail 'modified args do not set the key' 'key' "$1" 'args' "$HOOK_ARGS"
    return 1
  fi
  if (($# >= 2)) && [[ $got != "$2" ]]; then
    _hhb_fail 'modified value differs' 'key' "$1" 'expected' "$2" 'actual' "$got"
    return 1
  fi
}

assert_approved() {
  _hhb_require_run || return 1
  if [[ $HOOK_ACTION != approve ]]; then
    _hhb_fail 'hook did not ask for approval'
    return 1
  fi
  if [[ -n ${1-} && $HOOK_MESSAGE != *"$1"* ]]; then
    _hhb_fail 'approval message does not contain the expected text' 'expected' "$1" 'message' "$HOOK_MESSAGE"
    return 1
  fi
}

assert_rule_key() {
  # shellcheck disable=SC2119 # any approve will do here
  assert_approved || return 1
  if [[ $HOOK_RULE_KEY != "${1-}" ]]; then
    _hhb_fail 'approval rule_key differs' 'expected' "${1-}" 'rule_key' "${HOOK_RULE_KEY:-(none)}"
    return 1
  fi
}

assert_continue() {
  _hhb_require_run || return 1
  if [[ $HOOK_ACTION != continue ]]; then
    _hhb_fail 'hook did not ask to continue the turn'
    return 1
  fi
  if [[ -n ${1-} && $HOOK_MESSAGE != *"$1"* ]]; then
    _hhb_fail 'continue message does not contain the expected text' 'expected' "$1" 'message' "$HOOK_MESSAGE"
    return 1
  fi
}

assert_context() {
  _hhb_require_run || return 1
  if [[ $HOOK_ACTION != context ]]; then
    _hhb_fail 'hook added no context'
    return 1
  fi
  if [[ -n ${1-} && $HOOK_CONTEXT != *"$1"* ]]; then
    _hhb_fail 'context does not contain the expected text' 'expected' "$1" 'context' "$HOOK_CONTEXT"
    return 1
  fi
}

assert_no_stdout() {
  _hhb_require_run || return 1
  if [[ -n $output ]]; then
    _hhb_fail 'hook printed to stdout'
    return 1
  fi
}

assert_stdout_json() {
  _hhb_require_run || return 1
  if [[ $HOOK_STDOUT_KIND != object ]]; then
    _hhb_fail "stdout is not one JSON object ($HOOK_STDOUT_KIND)"
    return 1
  fi
}

# ── the CLI ─────────────────────────────────────────────────────────────────────────────────

_HHB_PARSE_REPORT_PY='
import json, sys
try:
    report = json.loads(sys.stdin.read())
    decision = report["decision"]
    fields = [decision.get("action") or "", decision.get("message") or "",
              "" if decision.get("decided_by") is None else str(decision["decided_by"]),
              json.dumps(decision, separators=(",", ":"), ensure_ascii=False)]
except Exception:
    fields = ["", "", "", ""]
sys.stdout.write("".join(str(f).replace("\0", "") + "\0" for f in fields))
'

# The CLI's argv into the caller's `cli` array: HERMES_HOOKS_CLI, else PATH, else the bundled one.
_hhb_cli() {
  if [[ -n ${HERMES_HOOKS_CLI-} ]]; then
    read -r -a cli <<<"$HERMES_HOOKS_CLI"
  elif command -v hermes-hooks >/dev/null 2>&1; then
    cli=(hermes-hooks)
  elif [[ -f $_HHB_BUNDLED_CLI ]] && command -v node >/dev/null 2>&1; then
    cli=(node "$_HHB_BUNDLED_CLI")
  else
    echo "hermes-hooks-bats: set HERMES_HOOKS_CLI or put hermes-hooks on PATH" >&2
    return 1
  fi
}

hermes_hooks_test() {
  if (($# < 1)); then
    echo "usage: hermes_hooks_test <event> [cli-args…]" >&2
    return 2
  fi
  local event=$1
  shift
  local -a cli
  _hhb_cli || return 1
  run --separate-stderr "${cli[@]}" test "$event" --json "$@"
  local field
  local -a fields=()
  while IFS= read -r -d '' field; do
    fields+=("$field")
  done < <("$HERMES_HOOKS_BATS_PYTHON" -c "$_HHB_PARSE_REPORT_PY" <<<"$output")
  HH_DECISION_ACTION=${fields[0]-} HH_DECISION_MESSAGE=${fields[1]-}
  HH_DECIDED_BY=${fields[2]-} HH_DECISION=${fields[3]-}
}

assert_decision() {
  local want=${1-} expected_status=0
  [[ $want == block ]] && expected_status=2
  if [[ -z ${HH_DECISION+set} ]]; then
    echo "hermes-hooks-bats: call hermes_hooks_test first" | batslib_decorate 'no CLI run' | fail
    return 1
  fi
  local -a details=('status' "$status" 'decision' "${HH_DECISION:-(no JSON report)}" 'stderr' "${stderr-}")
  if [[ $HH_DECISION_ACTION != "$want" ]]; then
    batslib_print_kv_single_or_multi 10 'expected' "$want" 'actual' "${HH_DECISION_ACTION:-(none)}" "${details[@]}" |
      batslib_decorate 'hermes-hooks decided otherwise' | fail
    return 1
  fi
  if [[ $status -ne $expected_status ]]; then
    batslib_print_kv_single_or_multi 10 'expected exit' "$expected_status" "${details[@]}" |
      batslib_decorate "hermes-hooks decided $want but exited $status" | fail
    return 1
  fi
  if [[ -n ${2-} && $HH_DECISION_MESSAGE != *"$2"* ]]; then
    batslib_print_kv_single_or_multi 10 'expected' "$2" 'message' "$HH_DECISION_MESSAGE" |
      batslib_decorate 'decision message does not contain the expected text' | fail
    return 1
  fi
}

hermes_hooks_replay() {
  if (($# < 1)); then
    echo "usage: hermes_hooks_replay <journal> [cli-args…]" >&2
    return 2
  fi
  local -a cli
  _hhb_cli || return 1
  run --separate-stderr "${cli[@]}" replay "$1" --json "${@:2}"
  HH_REPLAY=$output HH_REPLAY_EVENTS='' HH_REPLAY_CHANGED=''
  if ((status == 0 || status == 1)); then
    HH_REPLAY_EVENTS=$(json_get events "$output") && HH_REPLAY_CHANGED=$("$HERMES_HOOKS_BATS_PYTHON" -c \
      'import json, sys; print(len(json.loads(sys.stdin.read())["changed"]))' <<<"$output")
  fi
}

_hhb_replay_expect() {
  local want=$1 count=${2-}
  if [[ -z ${HH_REPLAY+set} ]]; then
    echo "hermes-hooks-bats: call hermes_hooks_replay first" | batslib_decorate 'no replay run' | fail
    return 1
  fi
  if [[ $status -ne $want || (-n $count && $HH_REPLAY_CHANGED != "$count") ]]; then
    batslib_print_kv_single_or_multi 10 'expected exit' "$want" 'status' "$status" 'changed' "${HH_REPLAY_CHANGED:-?}${count:+ (expected $count)}" \
      'report' "${HH_REPLAY:-(no JSON report)}" 'stderr' "${stderr-}" | batslib_decorate 'replay did not end as expected' | fail
    return 1
  fi
}

assert_replay_unchanged() { _hhb_replay_expect 0 0; }
assert_replay_changed() { _hhb_replay_expect 1 "${1-}"; }

# ── JSON ────────────────────────────────────────────────────────────────────────────────────

json_get() {
  if (($# < 1)); then
    echo "usage: json_get <dotted.path> [json]" >&2
    return 2
  fi
  "$HERMES_HOOKS_BATS_PYTHON" -c '
import json, sys
value = json.loads(sys.stdin.read())
for part in sys.argv[1].split(".") if sys.argv[1] else []:
    if isinstance(value, list) and part.lstrip("-").isdigit() and -len(value) <= int(part) < len(value):
        value = value[int(part)]
    elif isinstance(value, dict) and part in value:
        value = value[part]
    else:
        sys.exit("json_get: no " + repr(part) + " in " + json.dumps(value)[:200])
print(value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False))
' "$1" <<<"${2-$output}"
}

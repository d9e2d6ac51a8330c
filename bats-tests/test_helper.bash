# Shared setup for the bats suites. Each .bats file does:
#   setup() { load test_helper; _common_setup; }
# Run from the repo root:
#   BATS_LIB_PATH=$PWD/node_modules node_modules/bats/bin/bats -r bats-tests

# shellcheck disable=SC2034 # the variables set here are used by the suites
_common_setup() {
  bats_require_minimum_version 1.5.0 # run --separate-stderr, run -N
  bats_load_library bats-support
  bats_load_library bats-assert

  PROJECT_ROOT="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
  EXAMPLES="$PROJECT_ROOT/scripts-examples"
  HOOKS="$EXAMPLES/hooks"
  PAYLOADS="$EXAMPLES/payloads"
  EXAMPLE_CONFIG="$EXAMPLES/config.yaml"
  FIXTURES="$BATS_TEST_DIRNAME/fixtures"
  HERMES_HOOKS_CLI="node $PROJECT_ROOT/dist/cli/bin.js"
  export PROJECT_ROOT HOOKS PAYLOADS HERMES_HOOKS_CLI

  # Nothing may touch the real ~/.hermes: a fresh profile home per test, and the audit log inside it.
  export HERMES_HOME="$BATS_TEST_TMPDIR/hermes-home"
  mkdir -p "$HERMES_HOME"
  export HERMES_AUDIT_LOG="$HERMES_HOME/logs/tool-audit.jsonl"
  unset HERMES_SAFE_MODE HERMES_ACCEPT_HOOKS HERMES_HOOK_EVENT

  # Put the real python3 first on PATH: a version-manager shim (pyenv) costs ~0.3 s per start,
  # and these suites start python3 hundreds of times. Same interpreter, no shim.
  if [[ -z ${_HERMES_BATS_PYTHON_DIR-} ]]; then
    _HERMES_BATS_PYTHON_DIR=$(dirname "$(python3 -c 'import sys; print(sys.executable)')")
    export _HERMES_BATS_PYTHON_DIR
  fi
  PATH="$_HERMES_BATS_PYTHON_DIR:$PATH"
}

# json_value PATH [JSON] — prints the value at a dotted PATH (`extra.status`, `hooks.0.status`) of
# JSON (default: $output). Strings print raw, everything else as compact JSON; a missing path fails.
json_value() {
  python3 -c '
import json, sys
value = json.loads(sys.stdin.read())
for part in sys.argv[1].split(".") if sys.argv[1] else []:
    if isinstance(value, list) and part.lstrip("-").isdigit() and -len(value) <= int(part) < len(value):
        value = value[int(part)]
    elif isinstance(value, dict) and part in value:
        value = value[part]
    else:
        sys.exit("json_value: no " + repr(part) + " in " + json.dumps(value)[:200])
print(value if isinstance(value, str) else json.dumps(value, separators=(",", ":")))
' "$1" <<<"${2-$output}"
}

# wire_payload EVENT TOOL ARGS_JSON [EXTRA_JSON] — a stdin payload like the engine sends.
wire_payload() {
  python3 -c '
import json, sys
event, tool, args = sys.argv[1], sys.argv[2] or None, json.loads(sys.argv[3]) if sys.argv[3] else None
extra = json.loads(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else {}
print(json.dumps({"hook_event_name": event, "tool_name": tool, "tool_input": args,
                  "session_id": "bats-session", "cwd": sys.argv[5] if len(sys.argv) > 5 else "/tmp",
                  "profile": "default", "extra": extra}))
' "$@"
}

# terminal_payload COMMAND [CWD] — a pre_tool_call payload for the terminal tool.
terminal_payload() {
  python3 -c '
import json, sys
print(json.dumps({"hook_event_name": "pre_tool_call", "tool_name": "terminal",
                  "tool_input": {"command": sys.argv[1]}, "session_id": "bats-session",
                  "cwd": sys.argv[2], "profile": "default",
                  "extra": {"task_id": "t1", "tool_call_id": "call_1"}}))
' "$1" "${2:-/tmp}"
}

# run_with_stdin TEXT CMD… — `run --separate-stderr CMD` with TEXT as a real-file stdin.
run_with_stdin() {
  local text=$1
  shift
  local file
  file=$(mktemp "$BATS_TEST_TMPDIR/stdin.XXXXXX")
  printf '%s' "$text" >"$file"
  run --separate-stderr "$@" <"$file"
}

# A PATH directory holding only the named programs (symlinked to their real location), so a test
# can prove a hook works, or complains, without some tool (jq).
path_with_only() {
  local dir="$BATS_TEST_TMPDIR/restricted-bin" tool real
  mkdir -p "$dir"
  for tool in "$@"; do
    if [[ $tool == python3 ]]; then
      real=$(python3 -c 'import sys; print(sys.executable)') # not the pyenv shim
    else
      real=$(command -v "$tool")
    fi
    ln -sf "$real" "$dir/$tool"
  done
  echo "$dir"
}

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
  # and these suites start python3 hundreds of times. Same interpreter, no shim. Each test is its
  # own process, so the answer is kept in a file for the whole bats run: one lookup per run, not
  # one per test.
  if [[ -z ${_HERMES_BATS_PYTHON_DIR-} ]]; then
    local cache="${BATS_RUN_TMPDIR:?}/hermes-bats-python3-dir"
    if [[ -s $cache ]]; then
      IFS= read -r _HERMES_BATS_PYTHON_DIR <"$cache"
    else
      _HERMES_BATS_PYTHON_DIR=$(python3 -c 'import os, sys; print(os.path.dirname(sys.executable))')
      printf '%s\n' "$_HERMES_BATS_PYTHON_DIR" >"$cache.$$" && mv -f "$cache.$$" "$cache"
    fi
    export _HERMES_BATS_PYTHON_DIR
  fi
  PATH="$_HERMES_BATS_PYTHON_DIR:$PATH"
}

# json_value PATH [JSON] — prints the value at a dotted PATH (`extra.status`, `hooks.0.status`) of
# JSON (default: $output). Strings print raw, everything else as compact JSON; a missing path fails.
# One jq per read (a python3 start per field made the suites slow).
json_value() {
  jq -rc --arg p "$1" '
    reduce ($p | if . == "" then [] else split(".") end)[] as $k (.;
      if type == "array" and ($k | test("^-?[0-9]+$")) and ($k | tonumber) < length and ($k | tonumber) >= -length
      then .[$k | tonumber]
      elif type == "object" and has($k) then .[$k]
      else error("json_value: no \($k | tojson) in \(tojson | .[0:200])") end)
    | if type == "string" then . else tojson end' <<<"${2-$output}"
}

# wire_payload EVENT TOOL ARGS_JSON [EXTRA_JSON] [CWD] — a stdin payload like the engine sends.
wire_payload() {
  jq -nc --arg event "$1" --arg tool "${2-}" --arg args "${3-}" --arg extra "${4-}" --arg cwd "${5-/tmp}" '
    {hook_event_name: $event, tool_name: (if $tool == "" then null else $tool end),
     tool_input: (if $args == "" then null else ($args | fromjson) end),
     session_id: "bats-session", cwd: $cwd, profile: "default",
     extra: (if $extra == "" then {} else ($extra | fromjson) end)}'
}

# terminal_payload COMMAND [CWD] — a pre_tool_call payload for the terminal tool.
terminal_payload() {
  jq -nc --arg command "$1" --arg cwd "${2:-/tmp}" '
    {hook_event_name: "pre_tool_call", tool_name: "terminal", tool_input: {command: $command},
     session_id: "bats-session", cwd: $cwd, profile: "default",
     extra: {task_id: "t1", tool_call_id: "call_1"}}'
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

# hh ARGS… — the built CLI, as a user types `hermes-hooks ARGS…`.
hh() { node "$PROJECT_ROOT/dist/cli/bin.js" "$@"; }

# hook NAME BODY [MODE] — an executable bash hook in the profile home (mode 755 unless MODE);
# prints its path.
hook() {
  local file="$HERMES_HOME/$1"
  printf '#!/usr/bin/env bash\n%s\n' "$2" >"$file"
  chmod "${3:-755}" "$file"
  echo "$file"
}

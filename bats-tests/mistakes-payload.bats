#!/usr/bin/env bats
# Issue 20 item 2, as a newcomer follows the README from `run` to `serve` in a fresh HOME: the same
# line piped to `run pre_tool_call` and sent to serve's /v1/emit/pre_tool_call (curl on the socket)
# and stdio `emit` decides the same way, in the stdin form and in kwargs; a key that lands
# elsewhere than meant is said, never dropped.

setup() {
  load test_helper
  _common_setup
  export HOME="$BATS_TEST_TMPDIR/home"
  unset HERMES_HOME
  mkdir -p "$HOME/.hermes"
  GUARD="$HOME/guard.sh"
  cat >"$GUARD" <<'EOF'
#!/usr/bin/env bash
command=$(jq -r '.tool_input.command // empty')
if [[ $command == *"rm -rf"* ]]; then echo '{"action":"block","message":"no rm -rf"}'; fi
EOF
  chmod +x "$GUARD"
  printf 'hooks:\n  pre_tool_call:\n    - command: %s\n      fail_closed: true\n' "$GUARD" >"$HOME/.hermes/config.yaml"
  hh approve --all >/dev/null
  WIRE='{"tool_name":"terminal","tool_input":{"command":"rm -rf /"}}'
  KWARGS='{"tool_name":"terminal","args":{"command":"rm -rf /"}}'
}

teardown() {
  if [[ -n ${SERVE_PID-} ]]; then kill "$SERVE_PID" 2>/dev/null || true; wait "$SERVE_PID" 2>/dev/null || true; fi
}

# serve_socket — start `hermes-hooks serve` on ~/.hermes/hermes-hooks.sock and wait for the socket.
serve_socket() {
  SOCK="$HOME/.hermes/hermes-hooks.sock"
  # node itself in the background (not the hh function, whose subshell would be what $! names):
  # teardown must stop the server, or it outlives the test holding bats' output open.
  node "$PROJECT_ROOT/dist/cli/bin.js" serve 2>"$BATS_TEST_TMPDIR/serve.err" &
  SERVE_PID=$!
  for _ in $(seq 600); do [[ -S $SOCK ]] && return 0; sleep 0.1; done
  cat "$BATS_TEST_TMPDIR/serve.err" >&2
  return 1
}

emit_socket() { curl -s --unix-socket "$SOCK" -d "$1" http://x/v1/emit/pre_tool_call; }
emit_stdio() {
  printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"emit\",\"params\":{\"event\":\"pre_tool_call\",\"kwargs\":$1}}" | hh serve --stdio 2>/dev/null | jq -c .result
}

@test "the issue's line blocks through run, serve's socket and serve's stdio alike, in both forms" {
  serve_socket
  for payload in "$WIRE" "$KWARGS"; do
    run_with_stdin "$payload" hh run pre_tool_call
    assert_failure 2
    assert_equal "$(jq -r .message <<<"$output")" 'no rm -rf'
    assert_equal "$stderr" ''

    run emit_socket "$payload"
    assert_equal "$(jq -r .decision.action <<<"$output")" block
    assert_equal "$(jq -c .payload.tool_input <<<"$output")" '{"command":"rm -rf /"}'
    assert_equal "$(jq -c .diagnostics <<<"$output")" '[]'

    run emit_stdio "$payload"
    assert_equal "$(jq -r .decision.message <<<"$output")" 'no rm -rf'
  done
}

@test "a tool argument sent outside args is said on every face, not dropped" {
  serve_socket
  local flat='{"tool_name":"terminal","command":"rm -rf /"}'
  run_with_stdin "$flat" hh run pre_tool_call
  assert_success
  assert_equal "$stderr" "hermes-hooks: <stdin>: warning: command: 'command' is not a pre_tool_call kwarg (it takes tool_name, args, tool_call_id …): hooks get it under extra.command — a tool argument goes inside args: {\"command\": …}"
  run emit_socket "$flat"
  assert_equal "$(jq -r '.diagnostics[0].path' <<<"$output")" command
  assert_equal "$(jq -r '.diagnostics[0].level' <<<"$output")" warning
  run emit_stdio "$flat"
  assert_equal "$(jq -r '.diagnostics[0].path' <<<"$output")" command
}

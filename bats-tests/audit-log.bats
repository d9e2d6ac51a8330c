#!/usr/bin/env bats
# scripts-examples/hooks/audit-log.py, run directly.

setup() {
  load test_helper
  _common_setup
  HOOK="$HOOKS/audit-log.py"
  LOG="$HERMES_AUDIT_LOG"
}

line_count() { # line_count FILE
  if [[ -f $1 ]]; then wc -l <"$1" | tr -d ' '; else echo 0; fi
}

@test "post_tool_call appends one JSON line with the audit fields and prints nothing" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/post_tool_call-terminal.json"
  assert_success
  assert_output ''
  assert_equal "$stderr" ''
  assert_equal "$(line_count "$LOG")" 1

  local entry
  entry=$(cat "$LOG")
  assert_regex "$(json_value ts "$entry")" '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$'
  assert_equal "$(json_value event "$entry")" post_tool_call
  assert_equal "$(json_value session_id "$entry")" 20261130_101502_4f9c2a
  assert_equal "$(json_value task_id "$entry")" 6f1d2c3b-9a7e-4b51-8f0d-2e4c6a8b1d3f
  assert_equal "$(json_value tool_call_id "$entry")" call_Qm9vZ2xlV2hhdGV2ZXI
  assert_equal "$(json_value tool_name "$entry")" terminal
  assert_equal "$(json_value status "$entry")" ok
  assert_equal "$(json_value duration_ms "$entry")" 5234
  assert_equal "$(json_value args_keys "$entry")" '["command"]'
  # result_bytes is the UTF-8 size of the result string
  local expected
  expected=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["extra"]["result"].encode()))' \
    "$PAYLOADS/post_tool_call-terminal.json")
  assert_equal "$(json_value result_bytes "$entry")" "$expected"
}

@test "arguments are digested, never logged" {
  local payload
  payload=$(wire_payload post_tool_call terminal '{"command": "curl -H \"Authorization: Bearer sk-TOPSECRET\" api"}' \
    '{"status": "ok", "duration_ms": 12, "result": "{}"}')
  run_with_stdin "$payload" "$HOOK"
  assert_success
  run ! grep -q TOPSECRET "$LOG"
  local digest
  digest=$(json_value args_sha256 "$(cat "$LOG")")
  assert_regex "$digest" '^sha256:[0-9a-f]{64}$'

  # same arguments, same digest (key order does not matter)
  payload=$(wire_payload post_tool_call terminal '{"timeout": 5, "command": "ls"}' '{"status": "ok"}')
  run_with_stdin "$payload" "$HOOK"
  payload=$(wire_payload post_tool_call terminal '{"command": "ls", "timeout": 5}' '{"status": "ok"}')
  run_with_stdin "$payload" "$HOOK"
  assert_equal "$(line_count "$LOG")" 3
  local second third
  second=$(json_value args_sha256 "$(sed -n 2p "$LOG")")
  third=$(json_value args_sha256 "$(sed -n 3p "$LOG")")
  assert_regex "$second" '^sha256:[0-9a-f]{64}$'
  assert_equal "$third" "$second"
  # … and different arguments, a different digest
  refute [ "$second" = "$digest" ]
}

@test "each call appends: earlier lines are kept" {
  local i
  for i in 1 2 3; do
    run "$HOOK" <"$PAYLOADS/post_tool_call-terminal.json"
    assert_success
  done
  assert_equal "$(line_count "$LOG")" 3
}

@test "blocked and failed calls are logged with their status" {
  run_with_stdin "$(wire_payload post_tool_call terminal '{"command": "rm -rf /"}' \
    '{"status": "blocked", "error_type": "hook_block", "result": "{\"error\": \"blocked\"}"}')" "$HOOK"
  assert_success
  assert_equal "$(json_value status "$(cat "$LOG")")" blocked
  assert_equal "$(json_value error_type "$(cat "$LOG")")" hook_block
}

@test "without HERMES_AUDIT_LOG it writes to \$HERMES_HOME/logs/tool-audit.jsonl, creating the directory" {
  unset HERMES_AUDIT_LOG
  export HERMES_HOME="$BATS_TEST_TMPDIR/fresh-home"
  run "$HOOK" <"$PAYLOADS/post_tool_call-terminal.json"
  assert_success
  assert_output ''
  assert_equal "$(line_count "$HERMES_HOME/logs/tool-audit.jsonl")" 1
}

@test "HERMES_AUDIT_LOG in nested missing directories is created" {
  export HERMES_AUDIT_LOG="$BATS_TEST_TMPDIR/a/b/c/audit.jsonl"
  run "$HOOK" <"$PAYLOADS/post_tool_call-terminal.json"
  assert_success
  assert_equal "$(line_count "$HERMES_AUDIT_LOG")" 1
}

@test "session and subagent events are logged with their outcome fields" {
  run "$HOOK" <"$PAYLOADS/on_session_start.json"
  run "$HOOK" <"$PAYLOADS/on_session_end.json"
  run "$HOOK" <"$PAYLOADS/subagent_stop.json"
  assert_success
  assert_equal "$(line_count "$LOG")" 3
  assert_equal "$(json_value platform "$(sed -n 1p "$LOG")")" cli
  assert_equal "$(json_value turn_exit_reason "$(sed -n 2p "$LOG")")" 'text_response(stop)'
  assert_equal "$(json_value completed "$(sed -n 2p "$LOG")")" true
  assert_equal "$(json_value child_status "$(sed -n 3p "$LOG")")" completed
  assert_equal "$(json_value duration_ms "$(sed -n 3p "$LOG")")" 18342
  # no tool fields on non-tool events
  run ! grep -q args_sha256 <(sed -n 1,3p "$LOG")
}

@test "an unwritable log never fails the agent: exit 0, one line on stderr, nothing on stdout" {
  # a directory where the log file should be: the append fails even as root
  export HERMES_AUDIT_LOG="$BATS_TEST_TMPDIR/log-is-a-dir"
  mkdir -p "$HERMES_AUDIT_LOG"
  run --separate-stderr "$HOOK" <"$PAYLOADS/post_tool_call-terminal.json"
  assert_success
  assert_output ''
  assert_regex "$stderr" '^audit-log: cannot append to .*log-is-a-dir'
}

@test "empty stdin, malformed JSON and non-objects: exit 0, nothing logged, nothing on stdout" {
  local bad
  for bad in '' '{"hook_event_name": "post_tool_call"' 'not json' '[1, 2, 3]'; do
    run_with_stdin "$bad" "$HOOK"
    assert_success
    assert_output ''
    assert_regex "$stderr" '^audit-log: '
  done
  assert [ ! -e "$LOG" ]
}

@test "concurrent hooks never interleave inside a line" {
  local i
  for i in $(seq 1 20); do
    "$HOOK" <"$PAYLOADS/post_tool_call-terminal.json" &
  done
  wait
  assert_equal "$(line_count "$LOG")" 20
  run python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$LOG"
  assert_success
}

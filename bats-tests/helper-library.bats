#!/usr/bin/env bats
# bats-tests/hermes-hooks-bats.bash, the helper library for hook authors: against the example hooks,
# and against tiny deliberately-wrong hooks to prove each assertion fails when it should.

setup() {
  load test_helper
  _common_setup
  load hermes-hooks-bats
  WRONG="$FIXTURES/hooks"
}

# expect_assertion_failure TITLE ASSERTION… — the assertion must fail, and say TITLE.
expect_assertion_failure() {
  local title=$1
  shift
  run -1 "$@"
  assert_output --partial "-- $title --"
}

# ── hook_payload ─────────────────────────────────────────────────────────────────────────────

@test "hook_payload builds a wire payload with the keys in wire order" {
  run hook_payload pre_tool_call terminal '{"command": "ls"}' '{"task_id": "t-1"}'
  assert_success
  run python3 -c 'import json, sys; p = json.loads(sys.argv[1]); print(" ".join(p)); print(json.dumps(p, sort_keys=True))' "$output"
  assert_line --index 0 'hook_event_name tool_name tool_input session_id cwd profile extra'
  assert_line --index 1 "{\"cwd\": \"$PWD\", \"extra\": {\"task_id\": \"t-1\"}, \"hook_event_name\": \"pre_tool_call\", \"profile\": \"default\", \"session_id\": \"bats-session\", \"tool_input\": {\"command\": \"ls\"}, \"tool_name\": \"terminal\"}"
}

@test "hook_payload without tool or args gives nulls and an empty extra" {
  run hook_payload on_session_start
  assert_success
  assert_equal "$(json_get tool_name)" null
  assert_equal "$(json_get tool_input)" null
  assert_equal "$(json_get extra)" '{}'
}

@test "hook_payload refuses args that are not an object, and needs an event" {
  run hook_payload pre_tool_call terminal '["ls"]'
  assert_failure
  assert_output --partial 'args must be a JSON object'
  run hook_payload
  assert_failure 2
}

# ── run_hook on the example hooks ───────────────────────────────────────────────────────────

@test "run_hook + assert_blocked on the example guard and the rm -rf payload file" {
  run_hook "$HOOKS/block-destructive.sh" "$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_blocked
  assert_blocked 'root filesystem'
  assert_stdout_json
  assert_equal "$HOOK_EVENT" pre_tool_call
  assert_equal "$status" 0
  assert_equal "$stderr" ''
}

@test "run_hook + assert_allowed + assert_no_stdout on a safe command" {
  run_hook "$HOOKS/block-destructive.sh" "$PAYLOADS/pre_tool_call-safe-ls.json"
  assert_allowed
  assert_no_stdout
  assert_equal "$HOOK_STDOUT_KIND" empty
}

@test "run_hook takes inline JSON built with hook_payload" {
  run_hook "$HOOKS/protect-env-files.py" "$(hook_payload pre_tool_call write_file '{"path": ".env.local", "content": "A=1"}')"
  assert_blocked '.env.local'
}

@test "assert_blocked accepts exit-2 hooks, with stderr as the message" {
  run_hook "$HOOKS/claude-style-guard.sh" "$PAYLOADS/pre_tool_call-curl-pipe-sh.json"
  assert_equal "$status" 2
  assert_blocked 'download-and-run'
  assert_no_stdout
}

@test "assert_modified with key and value on safe-flags" {
  run_hook "$HOOKS/safe-flags.sh" "$(hook_payload pre_tool_call terminal '{"command": "git push -f origin topic"}')"
  assert_modified
  assert_modified command
  assert_modified command 'git push --force-with-lease origin topic'
  expect_assertion_failure 'hook answered modify instead of allowing' assert_allowed
}

@test "assert_approved and assert_rule_key on the prod-deploy escalation" {
  run_hook "$HOOKS/escalate-prod-deploy.py" "$PAYLOADS/pre_tool_call-prod-deploy.json"
  assert_approved
  assert_approved "namespace"
  assert_rule_key prod-deploy
}

@test "assert_context on inject-context" {
  mkdir -p "$BATS_TEST_TMPDIR/proj/.hermes"
  echo 'Use pnpm, never npm.' >"$BATS_TEST_TMPDIR/proj/.hermes/POLICY.md"
  cd "$BATS_TEST_TMPDIR/proj"
  run_hook "$HOOKS/inject-context.py" "$(hook_payload pre_llm_call)"
  assert_equal "$HOOK_EVENT" pre_llm_call
  assert_context
  assert_context 'Use pnpm, never npm.'
}

@test "assert_continue on verify-tests-ran" {
  run_hook "$HOOKS/verify-tests-ran.py" "$PAYLOADS/pre_verify.json"
  assert_continue
  assert_continue 'Run the project'"'"'s tests'
}

@test "assert_no_stdout on the audit-log observer" {
  run_hook "$HOOKS/audit-log.py" "$PAYLOADS/post_tool_call-terminal.json"
  assert_allowed
  assert_no_stdout
  assert [ -s "$HERMES_AUDIT_LOG" ]
}

@test "run_hook --event overrides the payload and is exported as HERMES_HOOK_EVENT" {
  run_hook "$WRONG/echo-event.sh" "$(hook_payload pre_llm_call)"
  assert_context 'event=pre_llm_call'
  run_hook --event on_session_start "$WRONG/echo-event.sh" "$(hook_payload pre_llm_call)"
  assert_equal "$HOOK_EVENT" on_session_start
  assert_context 'event=on_session_start'
}

@test "run_hook: a payload file is passed byte for byte, a literal as is, and '' is empty stdin" {
  run_hook --event pre_llm_call "$WRONG/stdin-as-context.py" "$PAYLOADS/on_session_start.json"
  assert_equal "$HOOK_CONTEXT" "stdin=$(cat "$PAYLOADS/on_session_start.json")"$'\n'
  run_hook --event pre_llm_call "$WRONG/stdin-as-context.py" '{"x": 1}'
  assert_equal "$HOOK_CONTEXT" 'stdin={"x": 1}'
  run_hook --event pre_llm_call "$WRONG/stdin-as-context.py" ''
  assert_equal "$HOOK_CONTEXT" 'stdin='
}

@test "run_hook: no event in the payload means pre_tool_call; arguments reach the script" {
  run_hook "$WRONG/echo-event.sh" 'not json'
  assert_equal "$HOOK_EVENT" pre_tool_call
  local script="$BATS_TEST_TMPDIR/args.sh"
  printf '#!/usr/bin/env bash\nprintf "{\\"context\\": \\"%%s|%%s\\"}" "$1" "$2"\n' >"$script"
  chmod +x "$script"
  run_hook --event pre_llm_call "$script" '' 'a b' c
  assert_context 'a b|c'
}

@test "run_hook without enough arguments is a usage error" {
  run run_hook "$WRONG/allow-silently.sh"
  assert_failure 2
  assert_output --partial 'usage: run_hook'
}

# ── run_hook with an interpreter-prefixed command (as config.yaml writes it) ──────────────────

# A hook that is NOT executable (so only an interpreter can run it): its context is its argv and stdin.
write_argv_hook() {
  mkdir -p "$(dirname "$1")"
  cat >"$1" <<'PY'
import json, sys
print(json.dumps({"context": json.dumps({"argv": sys.argv[1:], "stdin": sys.stdin.read()})}))
PY
  chmod 0644 "$1"
}

@test "run_hook 'python3 hook.py' PAYLOAD runs a non-executable script through its interpreter" {
  write_argv_hook "$BATS_TEST_TMPDIR/hook.py"
  cd "$BATS_TEST_TMPDIR"
  run_hook --event pre_llm_call 'python3 hook.py' '{"x": 1}'
  assert_success
  assert_equal "$HOOK_CONTEXT" '{"argv": [], "stdin": "{\"x\": 1}"}'
}

@test "run_hook python3 hook.py PAYLOAD ARGS… (unquoted) takes the interpreter and the script as the command" {
  write_argv_hook "$BATS_TEST_TMPDIR/hook.py"
  run_hook --event pre_llm_call python3 "$BATS_TEST_TMPDIR/hook.py" '{"x": 2}' --strict 'two words'
  assert_success
  assert_equal "$HOOK_CONTEXT" '{"argv": ["--strict", "two words"], "stdin": "{\"x\": 2}"}'
}

@test "run_hook splits the command like hermes-hooks: quotes, ~/ at the start of a word, then extra args" {
  export HOME="$BATS_TEST_TMPDIR/home"
  write_argv_hook "$HOME/my hooks/hook.py"
  run_hook --event pre_llm_call "python3 ~/'my hooks/hook.py' --mode \"a b\" '~/literal'" '' extra
  assert_success
  assert_equal "$HOOK_CONTEXT" '{"argv": ["--mode", "a b", "~/literal", "extra"], "stdin": ""}'
}

@test "run_hook still runs an existing script whose path has a space, as before" {
  mkdir -p "$BATS_TEST_TMPDIR/my hooks"
  cp "$WRONG/stdin-as-context.py" "$BATS_TEST_TMPDIR/my hooks/ctx.py"
  run_hook --event pre_llm_call "$BATS_TEST_TMPDIR/my hooks/ctx.py" '{"y": 3}'
  assert_success
  assert_equal "$HOOK_CONTEXT" 'stdin={"y": 3}'
}

@test "run_hook refuses a command it cannot split, saying so (exit 2)" {
  run -2 --separate-stderr run_hook "python3 'hook.py" '{}'
  assert_equal "$stderr" "hermes-hooks-bats: command \"python3 'hook.py\" cannot be parsed: No closing quotation
hermes-hooks-bats: run_hook: cannot split the command 'python3 'hook.py' (an unterminated quote or a trailing backslash?)"
}

# ── the directive parser follows Hermes ─────────────────────────────────────────────────────

@test "decision/reason blocks; exit 1 with a block on stdout still blocks" {
  run_hook "$WRONG/block-decision-reason.sh" "$(hook_payload pre_tool_call terminal '{}')"
  assert_blocked 'denied by rule 3'
  run_hook "$WRONG/exit1-block-json.sh" "$(hook_payload pre_tool_call terminal '{}')"
  assert_equal "$status" 1
  assert_blocked 'late block'
}

@test "exit 2 blocks whatever stdout says, with stderr as the message" {
  run_hook "$WRONG/exit2-stderr.sh" "$(hook_payload pre_tool_call terminal '{}')"
  assert_blocked 'denied: not on a Friday'
  run_hook "$WRONG/exit2-approve-json.sh" "$(hook_payload pre_tool_call terminal '{}')"
  assert_blocked 'exit two'
  expect_assertion_failure 'hook did not ask for approval' assert_approved
}

@test "exit 2 on other events is an ordinary failure, not a block" {
  run_hook "$WRONG/exit2-stderr.sh" "$(hook_payload post_tool_call terminal '{}')"
  assert_equal "$HOOK_ACTION" ''
  expect_assertion_failure 'hook did not block' assert_blocked
}

@test "block messages: empty falls back to the default, blanks are kept" {
  local script="$BATS_TEST_TMPDIR/msg.sh"
  printf '#!/bin/sh\necho '"'"'{"action": "block", "message": ""}'"'"'\n' >"$script"
  chmod +x "$script"
  run_hook "$script" "$(hook_payload pre_tool_call)"
  assert_equal "$HOOK_MESSAGE" 'Blocked by shell hook.'
  printf '#!/bin/sh\necho '"'"'{"action": "block", "message": "   "}'"'"'\n' >"$script"
  run_hook "$script" "$(hook_payload pre_tool_call)"
  assert_equal "$HOOK_MESSAGE" '   '
}

@test "decision/tool_input modifies; approve message and rule_key are trimmed" {
  run_hook "$WRONG/modify-decision-tool-input.sh" "$(hook_payload pre_tool_call terminal '{}')"
  assert_modified command pwd
  run_hook "$WRONG/modify-command.sh" "$(hook_payload pre_tool_call terminal '{}')"
  assert_modified timeout 30
  assert_equal "$HOOK_ARGS" '{"command":"ls -la","timeout":30}'
  run_hook "$WRONG/approve.sh" "$(hook_payload pre_tool_call terminal '{}')"
  assert_equal "$HOOK_MESSAGE" 'needs a human'
  assert_rule_key deploy
}

@test "pre_verify: decision BLOCK with a reason is a continue" {
  run_hook "$WRONG/verify-continue.sh" "$(hook_payload pre_verify)"
  assert_continue 'run the tests first'
  assert_equal "$HOOK_MESSAGE" 'run the tests first'
}

# ── assertions fail on deliberately wrong hooks ─────────────────────────────────────────────

@test "assert_blocked fails on a hook that allows everything" {
  run_hook "$WRONG/allow-silently.sh" "$PAYLOADS/pre_tool_call-rm-rf.json"
  expect_assertion_failure 'hook did not block' assert_blocked
  assert_output --regexp 'directive +: \(none\)'
}

@test "assert_blocked fails on Claude-Code-only, capitalised, noisy and non-object answers" {
  local hook
  for hook in claude-deny-exit0.sh capitalized-block.sh noisy-stdout.sh non-object.sh decision-approve.sh; do
    run_hook "$WRONG/$hook" "$PAYLOADS/pre_tool_call-rm-rf.json"
    expect_assertion_failure 'hook did not block' assert_blocked
  done
  run_hook "$WRONG/noisy-stdout.sh" "$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_equal "$HOOK_STDOUT_KIND" invalid
  expect_assertion_failure 'stdout is not one JSON object (invalid)' assert_stdout_json
  run_hook "$WRONG/non-object.sh" "$PAYLOADS/pre_tool_call-rm-rf.json"
  expect_assertion_failure 'stdout is not one JSON object (non-object)' assert_stdout_json
}

@test "assert_blocked with a message fails when the message differs" {
  run_hook "$WRONG/block-json.sh" "$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_blocked 'policy 7'
  expect_assertion_failure 'block message does not contain the expected text' assert_blocked 'policy 8'
}

@test "assert_allowed fails on block, approve, and a non-zero exit" {
  run_hook "$WRONG/block-json.sh" "$PAYLOADS/pre_tool_call-safe-ls.json"
  expect_assertion_failure 'hook answered block instead of allowing' assert_allowed
  run_hook "$WRONG/approve.sh" "$PAYLOADS/pre_tool_call-safe-ls.json"
  expect_assertion_failure 'hook answered approve instead of allowing' assert_allowed
  run_hook "$HOOKS/protect-env-files.py" 'not json'
  expect_assertion_failure 'hook did not exit 0' assert_allowed
}

@test "assert_modified fails on a non-modify, a missing key and a wrong value" {
  run_hook "$WRONG/allow-silently.sh" "$PAYLOADS/pre_tool_call-safe-ls.json"
  expect_assertion_failure 'hook did not modify the arguments' assert_modified
  run_hook "$WRONG/modify-command.sh" "$PAYLOADS/pre_tool_call-safe-ls.json"
  expect_assertion_failure 'modified args do not set the key' assert_modified workdir
  expect_assertion_failure 'modified value differs' assert_modified command 'ls'
  expect_assertion_failure 'modified value differs' assert_modified timeout '"30"'
}

@test "assert_approved and assert_rule_key fail when they should" {
  run_hook "$WRONG/decision-approve.sh" "$PAYLOADS/pre_tool_call-prod-deploy.json"
  expect_assertion_failure 'hook did not ask for approval' assert_approved
  run_hook "$WRONG/approve.sh" "$PAYLOADS/pre_tool_call-prod-deploy.json"
  expect_assertion_failure 'approval rule_key differs' assert_rule_key prod-deploy
  expect_assertion_failure 'approval message does not contain the expected text' assert_approved 'production'
}

@test "assert_context and assert_continue fail when they should" {
  run_hook "$WRONG/allow-silently.sh" "$(hook_payload pre_llm_call)"
  expect_assertion_failure 'hook added no context' assert_context
  run_hook "$WRONG/context.sh" "$(hook_payload pre_llm_call)"
  assert_context 'branch: main'
  expect_assertion_failure 'context does not contain the expected text' assert_context 'branch: dev'
  # a context on pre_tool_call is not a directive there
  run_hook "$WRONG/context.sh" "$(hook_payload pre_tool_call)"
  expect_assertion_failure 'hook added no context' assert_context
  run_hook "$WRONG/context.sh" "$(hook_payload pre_verify)"
  expect_assertion_failure 'hook did not ask to continue the turn' assert_continue
}

@test "assert_no_stdout fails on a hook that prints" {
  run_hook "$WRONG/noisy-stdout.sh" "$(hook_payload post_tool_call)"
  expect_assertion_failure 'hook printed to stdout' assert_no_stdout
}

@test "asserting before any run_hook is an error, not a pass" {
  expect_assertion_failure 'no hook run' assert_allowed
}

@test "standalone: the library loads bats-assert itself, and a failing assertion fails the test" {
  local suite="$BATS_TEST_TMPDIR/wrong.bats"
  cat >"$suite" <<EOF
setup() {
  load '$BATS_TEST_DIRNAME/hermes-hooks-bats' # loads bats-support and bats-assert itself
}
@test "an allowing hook is not blocked" {
  run_hook '$WRONG/allow-silently.sh' '$PAYLOADS/pre_tool_call-rm-rf.json'
  assert_blocked
}
EOF
  run "$PROJECT_ROOT/node_modules/bats/bin/bats" --tap "$suite"
  assert_failure 1
  assert_line 'not ok 1 an allowing hook is not blocked'
  assert_output --partial 'hook did not block'
}

# ── hermes_hooks_test / assert_decision (with a stand-in CLI) ────────────────────────────────

@test "hermes_hooks_test runs 'test <event> --json', passes arguments and stdin, parses the decision" {
  HERMES_HOOKS_CLI="$FIXTURES/fake-hermes-hooks.py"
  FAKE_ACTION=block FAKE_MESSAGE='blocked by guard' FAKE_DECIDED_BY=1 FAKE_EXIT=2 \
    hermes_hooks_test pre_tool_call --config x.yaml <"$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_equal "$status" 2
  assert_equal "$HH_DECISION_ACTION" block
  assert_equal "$HH_DECISION_MESSAGE" 'blocked by guard'
  assert_equal "$HH_DECIDED_BY" 1
  assert_equal "$(json_get payload.argv)" '["test","pre_tool_call","--json","--config","x.yaml"]'
  assert_equal "$(json_get payload.stdin)" "$(cat "$PAYLOADS/pre_tool_call-rm-rf.json")"
  assert_decision block
  assert_decision block 'by guard'
}

@test "HERMES_HOOKS_CLI may hold an interpreter and a script" {
  HERMES_HOOKS_CLI="python3 $FIXTURES/fake-hermes-hooks.py"
  FAKE_ACTION=allow hermes_hooks_test pre_tool_call </dev/null
  assert_decision allow
  assert_equal "$HH_DECIDED_BY" ''
}

@test "assert_decision fails on another action, a wrong exit code, a wrong message and no report" {
  HERMES_HOOKS_CLI="$FIXTURES/fake-hermes-hooks.py"
  FAKE_ACTION=allow hermes_hooks_test pre_tool_call </dev/null
  expect_assertion_failure 'hermes-hooks decided otherwise' assert_decision block

  FAKE_ACTION=block FAKE_EXIT=0 hermes_hooks_test pre_tool_call </dev/null
  expect_assertion_failure 'hermes-hooks decided block but exited 0' assert_decision block

  FAKE_ACTION=approve FAKE_MESSAGE='needs a human' hermes_hooks_test pre_tool_call </dev/null
  expect_assertion_failure 'decision message does not contain the expected text' assert_decision approve 'robot'

  FAKE_OUTPUT='Unknown event' FAKE_EXIT=1 hermes_hooks_test nope </dev/null
  assert_equal "$HH_DECISION_ACTION" ''
  expect_assertion_failure 'hermes-hooks decided otherwise' assert_decision allow
}

@test "without HERMES_HOOKS_CLI, hermes-hooks is looked up on PATH" {
  unset HERMES_HOOKS_CLI
  hermes-hooks() { "$FIXTURES/fake-hermes-hooks.py" "$@"; } # found by `command -v`, like a program
  FAKE_ACTION=continue hermes_hooks_test pre_verify </dev/null
  assert_decision continue
}

@test "without HERMES_HOOKS_CLI or hermes-hooks on PATH, the CLI shipped with the library is used" {
  unset HERMES_HOOKS_CLI
  # A bare shell in a project with hermes-hooks as a dev dependency: node, but no hermes-hooks.
  local bin=$BATS_TEST_TMPDIR/bin saved_path=$PATH
  mkdir -p "$bin"
  ln -s "$(command -v node)" "$bin/node"
  PATH="$bin:/usr/bin:/bin"
  if command -v hermes-hooks; then PATH=$saved_path; fail 'hermes-hooks is installed in /usr/bin or /bin'; fi
  hermes_hooks_test pre_tool_call --config "$EXAMPLES/config.yaml" <"$PAYLOADS/pre_tool_call-rm-rf.json"
  PATH=$saved_path
  assert_decision block 'root filesystem'
}

@test "without HERMES_HOOKS_CLI and nothing on PATH it says how to set one" {
  unset HERMES_HOOKS_CLI
  local saved_path=$PATH rc=0
  PATH="$BATS_TEST_TMPDIR/no-such-dir"
  hermes_hooks_test pre_tool_call 2>"$BATS_TEST_TMPDIR/err" || rc=$?
  PATH=$saved_path
  assert_equal "$rc" 1
  assert_equal "$(cat "$BATS_TEST_TMPDIR/err")" 'hermes-hooks-bats: set HERMES_HOOKS_CLI or put hermes-hooks on PATH'
}

# ── json_get ────────────────────────────────────────────────────────────────────────────────

@test "json_get reads dotted paths with list indexes, defaulting to \$output" {
  local json='{"decision": {"action": "block", "decided_by": 0}, "hooks": [{"status": "ok"}, {"status": "timeout"}], "n": null}'
  assert_equal "$(json_get decision.action "$json")" block
  assert_equal "$(json_get decision.decided_by "$json")" 0
  assert_equal "$(json_get hooks.1.status "$json")" timeout
  assert_equal "$(json_get hooks.-1.status "$json")" timeout
  assert_equal "$(json_get n "$json")" null
  assert_equal "$(json_get decision "$json")" '{"action":"block","decided_by":0}'
  output=$json
  assert_equal "$(json_get hooks.0.status)" ok
  run json_get hooks.2.status "$json"
  assert_failure
  assert_output --partial "json_get: no '2'"
}

#!/usr/bin/env bats
# Issue 24 item 4 and issue 20 items 3 and 7, as a newcomer writes them in a fresh HOME: a guard
# that answers a word Hermes does not know (`deny`, `Block`, `allow` …) is said by run, test, serve
# and doctor with the Hermes word; a fail_closed guard blocks instead of allowing in silence; doctor
# reads every answer with its own event's rules. And the smaller ones: a quiet guard is not an
# "observer", a second approve says there is nothing to do, doctor --agent run from $HOME lists each
# file once.

setup() {
  load test_helper
  _common_setup
  export HOME="$BATS_TEST_TMPDIR/home"
  unset HERMES_HOME
  mkdir -p "$HOME/.hermes"
  CONFIG="$HOME/.hermes/config.yaml"
  RM='{"tool_name":"terminal","tool_input":{"command":"rm -rf /"}}'
}

# answers JSON [FAIL_CLOSED] — an approved pre_tool_call guard that prints JSON.
answers() {
  ANSWER="$HOME/answer.sh"
  printf '#!/usr/bin/env bash\ncat >/dev/null\necho %q\n' "$1" >"$ANSWER"
  chmod +x "$ANSWER"
  printf 'hooks:\n  pre_tool_call:\n    - command: %s\n      fail_closed: %s\n' "$ANSWER" "${2:-false}" >"$CONFIG"
  hh approve --all >/dev/null
}

@test "a fail_closed guard answering Claude's 'deny': run blocks, saying 'did you mean block'; test and doctor say the same" {
  answers '{"action":"deny"}' true
  local said="answered 'deny', which is not a Hermes action — did you mean 'block'?"
  run_with_stdin "$RM" hh run pre_tool_call
  assert_failure 2
  assert_equal "$(jq -r .message <<<"$output")" "hook $ANSWER failed closed: $said"
  assert_equal "$stderr" "hermes-hooks: warning: shell hook (event=pre_tool_call command=$ANSWER): $said (so the hook failed closed)"

  run_with_stdin "$RM" hh test pre_tool_call
  assert_failure 2
  assert_line "      warning: $said (so the hook failed closed)"

  run --separate-stderr hh doctor
  assert_failure 1
  assert_line --regexp "^      ✗ fails closed on the synthetic payload: every call it matches will be blocked: answered 'deny', which is not a Hermes action — did you mean 'block'\? \(exit=0, [0-9.]+s\)$"
}

@test "a guard answering {\"action\":\"Block\"}: not fail_closed it is allowed as in Hermes, but said everywhere; doctor reads it as pre_tool_call does" {
  answers '{"action":"Block","message":"no"}'
  local said="answered 'Block', which is not a Hermes action (actions are exact and lower-case) — did you mean 'block'?"
  run_with_stdin "$RM" hh run pre_tool_call
  assert_success
  assert_equal "$(jq -r .action <<<"$output")" allow
  assert_equal "$stderr" "hermes-hooks: warning: shell hook (event=pre_tool_call command=$ANSWER): $said (ignored, as Hermes ignores it)"

  run_with_stdin "$RM" hh test pre_tool_call --json
  assert_success
  assert_equal "$(jq -r '.hooks[0].warning' <<<"$output")" "$said (ignored, as Hermes ignores it)"

  run --separate-stderr hh doctor
  assert_failure 1
  assert_line --partial "      ✗ $said (exit=0, "
  refute_output --partial "answered 'continue'"

  # serve says it in the emission, as run does.
  run bash -c "printf '%s\n' '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"emit\",\"params\":{\"event\":\"pre_tool_call\",\"kwargs\":$RM}}' | node '$PROJECT_ROOT/dist/cli/bin.js' serve --stdio 2>/dev/null"
  assert_equal "$(jq -r '.result.decision.action' <<<"$output")" allow
  assert_equal "$(jq -r '.result.hooks[0].warning' <<<"$output")" "$said (ignored, as Hermes ignores it)"
}

@test "answers meaning 'go ahead' ({\"action\":\"allow\"}, {\"decision\":\"approve\"}) are said but never block, even fail_closed" {
  answers '{"action":"allow"}' true
  run_with_stdin "$RM" hh run pre_tool_call
  assert_success
  [[ $stderr == *"answered 'allow', which is not a Hermes action — to allow, print nothing or {} (the call goes ahead, as meant)"* ]]
  run --separate-stderr hh doctor
  assert_success
  assert_line --regexp "^      ℹ answered 'allow', which is not a Hermes action"

  answers '{"decision":"approve"}' true
  run_with_stdin "$RM" hh run pre_tool_call
  assert_success
  [[ $stderr == *"answered decision 'approve', which Hermes ignores on purpose (in Claude Code it means allow)"* ]]
}

@test "legitimate answers are never warned about: {}, empty stdout, a block, context on pre_llm_call, Claude's hookSpecificOutput" {
  for answer in '{}' '{"action":"block","message":"no"}' '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}' '{"hookSpecificOutput":{"permissionDecision":"allow"}}'; do
    answers "$answer" true
    run_with_stdin "$RM" hh run pre_tool_call
    assert_equal "$stderr" ''
  done
  printf '#!/usr/bin/env bash\ncat >/dev/null\n' >"$ANSWER"
  hh approve --all >/dev/null
  run_with_stdin "$RM" hh run pre_tool_call
  assert_success
  assert_equal "$stderr" ''
  printf '#!/usr/bin/env bash\ncat >/dev/null\necho %q\n' '{"context":"Policy: be careful."}' >"$ANSWER"
  printf 'hooks:\n  pre_llm_call:\n    - command: %s\n' "$ANSWER" >"$CONFIG"
  hh approve --all >/dev/null
  run_with_stdin '{"extra":{"user_message":"hi"}}' hh run pre_llm_call
  assert_success
  assert_equal "$(jq -r .context <<<"$output")" 'Policy: be careful.'
  assert_equal "$stderr" ''
}

@test "a guard that printed nothing on the harmless call: doctor says it allowed it, as a guard should — not 'observer only'" {
  answers ''
  printf '#!/usr/bin/env bash\ncat >/dev/null\n' >"$ANSWER"
  hh approve --all >/dev/null
  run --separate-stderr hh doctor
  assert_success
  assert_line --regexp '^      ✓ allowed the synthetic call \(terminal \{"command":"echo hello"\}\) with empty stdout \(exit=0, [0-9.]+s\) — as a guard should allow a harmless call$'
  refute_output --partial 'observer only'
}

@test "a second approve --all says everything is already approved, instead of 'Approved' again" {
  answers '{}'
  run --separate-stderr hh approve --all
  assert_success
  assert_line --regexp "^Already approved \[pre_tool_call\] $ANSWER  \(.*, sha256 [0-9a-f]{12}… unchanged\)$"
  assert_line 'Nothing to do: it is already approved and unchanged.'
  refute_line --partial 'Approved ['
  # An edited script is approved again, not "already".
  echo '# edited' >>"$ANSWER"
  run --separate-stderr hh approve --all
  assert_success
  assert_line --regexp "^Approved \[pre_tool_call\] $ANSWER "
}

@test "doctor --agent claude run from \$HOME lists ~/.claude/settings.json once" {
  mkdir -p "$HOME/.claude"
  echo '{"hooks":{}}' >"$HOME/.claude/settings.json"
  cd "$HOME"
  run --separate-stderr hh doctor --agent claude
  assert_failure 1
  assert_equal "$(grep -c "^  $HOME/.claude/settings.json: " <<<"$output")" 1
  assert_line "  ✗ no hermes-hooks entry in $HOME/.claude/settings.json or $HOME/.claude/settings.local.json: Claude Code runs none of the profile's hooks. Wire it with 'hermes-hooks print-config claude'."
}

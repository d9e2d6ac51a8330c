#!/usr/bin/env bats
# The journal, replayed from bats (hermes_hooks_replay, docs/journal.md): record a day with one
# guard through the real CLI, change the guard, and let CI see what flips.

setup() {
  load test_helper
  _common_setup
  load hermes-hooks-bats
  cat >"$HERMES_HOME/no-rm.sh" <<'SH'
#!/bin/sh
if grep -q 'rm -rf'; then echo '{"action":"block","message":"no rm -rf"}'; else echo '{}'; fi
SH
  chmod +x "$HERMES_HOME/no-rm.sh"
  printf 'hooks_journal: journal.jsonl\nhooks:\n  pre_tool_call:\n    - command: %s\n' "$HERMES_HOME/no-rm.sh" >"$HERMES_HOME/config.yaml"
  JOURNAL="$HERMES_HOME/journal.jsonl"
  # shellcheck disable=SC2086 # HERMES_HOOKS_CLI is a command line
  $HERMES_HOOKS_CLI approve --all >/dev/null
  for command in 'rm -rf build' 'ls'; do
    # shellcheck disable=SC2086
    $HERMES_HOOKS_CLI run pre_tool_call --journal "$JOURNAL" <<<"{\"tool_name\":\"terminal\",\"tool_input\":{\"command\":\"$command\"}}" >/dev/null || true
  done
}

@test "the same guard replays unchanged" {
  hermes_hooks_replay "$JOURNAL"
  assert_replay_unchanged
  assert_equal "$HH_REPLAY_EVENTS" 2
}

@test "a loosened guard flips the recorded block: exit 1, one change, the deciding hook named" {
  printf '#!/bin/sh\ncat >/dev/null\necho "{}"\n' >"$HERMES_HOME/no-rm.sh"
  # shellcheck disable=SC2086
  $HERMES_HOOKS_CLI approve --all >/dev/null
  hermes_hooks_replay "$JOURNAL"
  assert_replay_changed 1
  assert_equal "$(json_get changed.0.before.decided_by "$HH_REPLAY")" "$HERMES_HOME/no-rm.sh"
  assert_equal "$(json_get changed.0.after.action "$HH_REPLAY")" allow
  run -1 assert_replay_unchanged
  assert_output --partial '-- replay did not end as expected --'
}

@test "a bad journal is exit 2, naming the file and line" {
  echo '{"v":1}' >"$BATS_TEST_TMPDIR/bad.jsonl"
  hermes_hooks_replay "$BATS_TEST_TMPDIR/bad.jsonl"
  assert_equal "$status" 2
  assert_equal "$HH_REPLAY_CHANGED" ''
  [[ $stderr == *"bad.jsonl:1: time: must be a string"* ]]
}

#!/usr/bin/env bats
# approve / revoke as people really type them (issue 16): an unquoted `~/x.sh` the shell expands,
# two commands in one call, an unquoted interpreter command, a command that matches nothing, a
# script that does not exist. Each either approves what the user meant or approves nothing and
# says why — never an approval of nothing.

setup() {
  load test_helper
  _common_setup
  CONFIG="$HERMES_HOME/config.yaml"
  ALLOWLIST="$HERMES_HOME/shell-hooks-allowlist.json"
  # The user's home: where `~` points for both the shell and hermes-hooks.
  export HOME="$BATS_TEST_TMPDIR/user"
  mkdir -p "$HOME/hooks"
}

# script PATH — an executable bash hook at PATH.
script() {
  printf '#!/usr/bin/env bash\necho "{}"\n' >"$1"
  chmod 755 "$1"
}

# approvals — "event command" per allowlist entry, one per line (empty when there is no file).
approvals() {
  [[ -f $ALLOWLIST ]] || return 0
  jq -r '.approvals[] | "\(.event) \(.command)"' "$ALLOWLIST"
}

@test "approve ~/hooks/x.sh unquoted: the shell expands it, and it still approves the configured '~/hooks/x.sh'" {
  script "$HOME/hooks/x.sh"
  printf 'hooks:\n  pre_tool_call:\n    - command: "~/hooks/x.sh"\n' >"$CONFIG"
  run --separate-stderr hh approve ~/hooks/x.sh
  assert_success
  assert_output --regexp "^Approved \[pre_tool_call\] ~/hooks/x\.sh  \(pins $HOME/hooks/x\.sh, sha256 [0-9a-f]{12}…\)$"
  assert_equal "$(approvals)" 'pre_tool_call ~/hooks/x.sh'
  assert_equal "$(jq -r '.approvals[0].script_path' "$ALLOWLIST")" "$HOME/hooks/x.sh"

  # And it runs: the approval is for the configured string, as Hermes keys it.
  run --separate-stderr hh list --json
  assert_equal "$(jq -r '.hooks[0].consent.state' <<<"$output")" approved

  # revoke matches the same way.
  run --separate-stderr hh revoke ~/hooks/x.sh
  assert_success
  assert_line --index 0 'Removed 1 allowlist entry for: ~/hooks/x.sh'
  assert_equal "$(approvals)" ''
}

@test "approve A B: each argument is one command; both approved, or neither when one matches nothing" {
  script "$HERMES_HOME/a.sh"
  script "$HERMES_HOME/b.sh"
  printf 'hooks:\n  pre_tool_call:\n    - command: "%s"\n    - command: "%s"\n' "$HERMES_HOME/a.sh" "$HERMES_HOME/b.sh" >"$CONFIG"

  run --separate-stderr hh approve "$HERMES_HOME/a.sh" "$HERMES_HOME/nothing.sh"
  assert_failure 1
  assert_output ''
  assert_equal "${stderr_lines[0]}" "hermes-hooks: approve: no configured hook matches '$HERMES_HOME/nothing.sh' in $CONFIG"
  assert_equal "${stderr_lines[-1]}" 'Nothing was approved.'
  assert_equal "$(approvals)" ''

  run --separate-stderr hh approve "$HERMES_HOME/a.sh" "$HERMES_HOME/b.sh"
  assert_success
  assert_equal "${#lines[@]}" 2
  assert_equal "$(approvals)" "pre_tool_call $HERMES_HOME/a.sh
pre_tool_call $HERMES_HOME/b.sh"
}

@test "approve python3 hook.py unquoted: did you mean 'python3 hook.py'? (quote the command)" {
  script "$HERMES_HOME/hook.py"
  printf 'hooks:\n  pre_llm_call:\n    - command: "python3 hook.py"\n' >"$CONFIG"
  cd "$HERMES_HOME"
  run --separate-stderr hh approve python3 hook.py
  assert_failure 1
  assert_equal "${stderr_lines[0]}" "hermes-hooks: approve: no configured hook matches 'python3', 'hook.py' in $CONFIG"
  # The relative script is resolved against the config file's directory: the command to approve names it.
  assert_equal "${stderr_lines[1]}" "did you mean 'python3 $HERMES_HOME/hook.py'? (quote the command: each argument is one command)"
  assert_equal "$(approvals)" ''

  run --separate-stderr hh approve "python3 $HERMES_HOME/hook.py"
  assert_success
  assert_output --regexp "^Approved \[pre_llm_call\] python3 $HERMES_HOME/hook\.py  \(pins $HERMES_HOME/hook\.py, sha256 [0-9a-f]{12}…\)$"
}

@test "approve nothing.sh: an error listing the closest configured commands, and no approval" {
  script "$HERMES_HOME/guard.sh"
  printf 'hooks:\n  pre_tool_call:\n    - command: "%s"\n' "$HERMES_HOME/guard.sh" >"$CONFIG"
  run --separate-stderr hh approve nothing.sh
  assert_failure 1
  assert_output ''
  assert_equal "${stderr_lines[0]}" "hermes-hooks: approve: no configured hook matches 'nothing.sh' in $CONFIG"
  assert_equal "${stderr_lines[1]}" "closest configured commands: '$HERMES_HOME/guard.sh'"
  assert_equal "${stderr_lines[2]}" 'Nothing was approved.'
  [[ ! -e $ALLOWLIST ]]
}

@test "approve --all with one script missing approves nothing and names the missing path" {
  script "$HERMES_HOME/a.sh"
  printf 'hooks:\n  pre_tool_call:\n    - command: "%s"\n    - command: "%s"\n' "$HERMES_HOME/a.sh" "$HERMES_HOME/later.sh" >"$CONFIG"
  run --separate-stderr hh approve --all
  assert_failure 1
  assert_output ''
  assert_equal "$stderr" "hermes-hooks: approve: cannot approve [pre_tool_call] $HERMES_HOME/later.sh: $HERMES_HOME/later.sh does not exist — an approval pins the file's sha256, and there is no file to pin. Create the script (or fix the command), then approve again. Nothing was approved."
  [[ ! -e $ALLOWLIST ]]
}

@test "revoke a command no longer configured, as written in the allowlist; revoke of an unknown command is an error" {
  script "$HERMES_HOME/a.sh"
  printf 'hooks:\n  pre_tool_call:\n    - command: "%s"\n' "$HERMES_HOME/a.sh" >"$CONFIG"
  printf '{"approvals": [{"event": "pre_tool_call", "command": "python3 /gone/old.py"}]}\n' >"$ALLOWLIST"
  chmod 600 "$ALLOWLIST"
  run --separate-stderr hh revoke 'python3 /gone/old.py'
  assert_success
  assert_line --index 0 'Removed 1 allowlist entry for: python3 /gone/old.py'

  run --separate-stderr hh revoke /never/seen.sh
  assert_failure 1
  assert_equal "${stderr_lines[0]}" "hermes-hooks: revoke: no configured hook or allowlist entry matches '/never/seen.sh' in $ALLOWLIST or $CONFIG"
  assert_equal "${stderr_lines[-1]}" 'Nothing was revoked.'
}

#!/usr/bin/env bats
# Everyday location mistakes typed into the built CLI (dist/cli/bin.js) as a user would: a config,
# profile or home that does not exist, an empty option, a broken config.yaml, a directory given as
# the config, options before the command, --json errors, a repository bringing its own allowlist.
# Each must end in a clear error and a non-zero exit — never a guard that quietly allows.

setup_file() {
  if [[ ! -f "$BATS_TEST_DIRNAME/../dist/cli/bin.js" ]]; then
    echo "dist/cli/bin.js is missing: run 'npm run build' first" >&2
    return 1
  fi
}

setup() {
  load test_helper
  _common_setup
  CONFIG="$HERMES_HOME/config.yaml"
  PAYLOAD="$BATS_TEST_TMPDIR/payload.json"
  terminal_payload 'rm -rf /important' >"$PAYLOAD"
  GUARD="$HERMES_HOME/guard.sh"
  printf '#!/usr/bin/env bash\necho run >>"$HERMES_HOME/ran.log"\necho %s\n' \
    "'{\"action\":\"block\",\"message\":\"guard says no\"}'" >"$GUARD"
  chmod +x "$GUARD"
  printf 'hooks:\n  pre_tool_call:\n    - command: "%s"\n' "$GUARD" >"$CONFIG"
}

# every_command_fails MESSAGE [OPTIONS…] — each command that reads a profile exits 1 with MESSAGE
# on stderr and nothing on stdout.
every_command_fails() {
  local message=$1
  shift
  local -a cmd
  local line
  while IFS= read -r line; do
    read -ra cmd <<<"$line"
    run --separate-stderr hh "${cmd[@]}" "$@" <"$PAYLOAD"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "hermes-hooks: $message"
  done <<'EOF'
test pre_tool_call
run pre_tool_call
list
doctor
validate
approve --all
revoke /x.sh
print-config claude
EOF
  # As another agent's hook command, it answers that agent with a block naming the problem (an
  # agent reads exit 1 as "go ahead").
  run --separate-stderr hh run PreToolUse --dialect claude "$@" <"$PAYLOAD"
  assert_success
  assert_equal "$stderr" "hermes-hooks: $message"
  assert_equal "$(jq -r .hookSpecificOutput.permissionDecision <<<"$output")" deny
  assert_equal "$(jq -r .hookSpecificOutput.permissionDecisionReason <<<"$output")" \
    "hermes-hooks cannot decide, so it blocks this call: $message (fix that, or add --fail-open to the hook command to let calls through while hermes-hooks cannot decide)"
}

@test "--config naming a file that does not exist is an error for every command" {
  every_command_fails "config file not found: /nope.yaml (given by --config)" --config /nope.yaml
  every_command_fails "config file not found: /nope.yaml (given by --config)" -c /nope.yaml
}

@test "--profile naming a profile that does not exist is an error that lists the profiles there" {
  mkdir -p "$HERMES_HOME/profiles/a" "$HERMES_HOME/profiles/b"
  every_command_fails "profile 'ghost' not found: $HERMES_HOME/profiles/ghost does not exist (profiles here: a, b)" --profile ghost
}

@test "--home or HERMES_HOME naming a directory that does not exist is an error" {
  every_command_fails "profile home not found: /nope does not exist (given by --home)" --home /nope
  HERMES_HOME=/nope every_command_fails "profile home not found: /nope does not exist (given by \$HERMES_HOME)"
}

@test "an empty --config, --home or --profile is an error, never the default" {
  every_command_fails "--config is empty: give the path of a config file, or leave the option out to use the profile home" --config ""
  every_command_fails "--home is empty: give a profile home directory, or leave the option out" --home ""
  every_command_fails "--profile is empty: give a profile name (a directory under <root>/profiles), or leave the option out" --profile ""
}

@test "a YAML syntax error is an error naming file:line:col for every command" {
  printf 'hooks:\n  pre_tool_call:\n    - command: /x.sh\n   bad: [\n' >"$CONFIG"
  local cmd
  printf '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/x.sh"}]}]}}' >"$BATS_TEST_TMPDIR/settings.json"
  for cmd in "test pre_tool_call" "run pre_tool_call" "list" "doctor" "approve --all" "revoke /x.sh" \
    "import $BATS_TEST_TMPDIR/settings.json" "print-config claude"; do
    # shellcheck disable=SC2086 # split the command on purpose
    run --separate-stderr hh $cmd <"$PAYLOAD"
    assert_failure 1
    assert_output ''
    assert_regex "$stderr" "^hermes-hooks: cannot use config: $CONFIG:4:[0-9]+: YAML syntax error: "
  done
  run --separate-stderr hh validate
  assert_failure 1
  assert_line --index 0 --regexp "^$CONFIG:4:[0-9]+: error: YAML syntax error: "
}

@test "serve: the same location and config mistakes end in one error line before anything listens" {
  run --separate-stderr hh serve --stdio --home "$BATS_TEST_TMPDIR/nope" </dev/null
  assert_failure 1
  assert_equal "$stderr" "hermes-hooks: profile home not found: $BATS_TEST_TMPDIR/nope does not exist (given by --home)"
  run --separate-stderr hh serve --stdio --config "$BATS_TEST_TMPDIR/nope.yaml" </dev/null
  assert_failure 1
  assert_equal "$stderr" "hermes-hooks: config file not found: $BATS_TEST_TMPDIR/nope.yaml (given by --config)"
  run --separate-stderr hh serve --stdio --profile ghost </dev/null
  assert_failure 1
  assert_equal "$stderr" "hermes-hooks: profile 'ghost' not found: $HERMES_HOME/profiles/ghost does not exist (there are no profiles in $HERMES_HOME/profiles)"
  run --separate-stderr hh serve --stdio --config '' </dev/null
  assert_failure 1
  assert_equal "$stderr" "hermes-hooks: --config is empty: give the path of a config file, or leave the option out to use the profile home"
  printf 'hooks:\n  pre_tool_call:\n    - command: /x.sh\n   bad: [\n' >"$CONFIG"
  run --separate-stderr hh serve --stdio </dev/null
  assert_failure 1
  assert_output ''
  assert_regex "$stderr" "^hermes-hooks: serve: $CONFIG:4:[0-9]+: YAML syntax error: [^"$'\n'"]+$"
  [[ ! -e $HERMES_HOME/profiles ]]
}

@test "a directory given as the config is an error for every command, the path said once" {
  mkdir "$BATS_TEST_TMPDIR/conf.d"
  local cmd
  for cmd in "test pre_tool_call" "run pre_tool_call" "list" "doctor" "approve --all" "revoke /x.sh" "print-config claude"; do
    # shellcheck disable=SC2086
    run --separate-stderr hh $cmd --config "$BATS_TEST_TMPDIR/conf.d" <"$PAYLOAD"
    assert_failure 1
    assert_equal "$stderr" "hermes-hooks: cannot use config: $BATS_TEST_TMPDIR/conf.d: cannot read config file: it is a directory"
  done
  run --separate-stderr hh validate "$BATS_TEST_TMPDIR/conf.d"
  assert_failure 1
  assert_line --index 0 "$BATS_TEST_TMPDIR/conf.d: error: cannot read config file: it is a directory"
}

@test "a home that exists without config.yaml: run allows, but list and doctor say there is no config" {
  local empty="$BATS_TEST_TMPDIR/empty-home"
  mkdir "$empty"
  run --separate-stderr hh run pre_tool_call --home "$empty" <"$PAYLOAD"
  assert_success
  assert_equal "$(jq -r .action <<<"$output")" allow
  run --separate-stderr hh list --home "$empty"
  assert_success
  assert_output "No config file at $empty/config.yaml: the profile home $empty (given by --home) has no config.yaml, so no hooks are configured there."
  run --separate-stderr hh doctor --home "$empty"
  assert_failure 1
  refute_output --partial 'healthy'
  assert_line --index 1 '1 issue(s) found.  Fix before relying on these hooks.'
  run --separate-stderr hh validate --home "$empty"
  assert_failure 1
  assert_line --index 0 "$empty/config.yaml: error: config file not found"
}

@test "approve and revoke with a missing --profile create no profile directory" {
  run --separate-stderr hh approve "$GUARD" --event pre_tool_call --profile ghost
  assert_failure 1
  run --separate-stderr hh revoke "$GUARD" --profile ghost
  assert_failure 1
  [[ ! -e $HERMES_HOME/profiles ]]
}

@test "global options work before the command" {
  run --separate-stderr hh approve --all
  assert_success
  run --separate-stderr hh list --json --home "$HERMES_HOME"
  assert_success
  local after=$output
  run --separate-stderr hh --home "$HERMES_HOME" --json list
  assert_success
  assert_output "$after"
  run --separate-stderr hh --config "$CONFIG" list
  assert_success
  assert_line --index 0 "Configured shell hooks (1 total) in $CONFIG:"
  run --separate-stderr hh --config /nope.yaml run pre_tool_call <"$PAYLOAD"
  assert_failure 1
  assert_equal "$stderr" "hermes-hooks: config file not found: /nope.yaml (given by --config)"
  run --separate-stderr hh --help list
  assert_success
  assert_line --index 0 --partial 'Usage: hermes-hooks list'
}

@test "with --json, errors are JSON on stdout too, exit 1" {
  run --separate-stderr hh list --json --config /nope.yaml
  assert_failure 1
  assert_equal "$(jq -r .error <<<"$output")" "config file not found: /nope.yaml (given by --config)"
  assert_equal "$(jq .exit_code <<<"$output")" 1
  run --separate-stderr hh --json frobnicate
  assert_failure 1
  assert_equal "$(jq -r .error <<<"$output")" "unknown command 'frobnicate'. Run 'hermes-hooks --help'."
  run --separate-stderr hh doctor --json --frob
  assert_failure 1
  assert_equal "$(jq -r .error <<<"$output")" "doctor: Unknown option '--frob'
Run 'hermes-hooks doctor --help' for usage."
  printf 'hooks: [\n' >"$CONFIG"
  run --separate-stderr hh --json list
  assert_failure 1
  assert_regex "$(jq -r .error <<<"$output")" "^cannot use config: $CONFIG:2:1: YAML syntax error: "
}

@test "a repository's config with its own allowlist runs nothing unapproved" {
  local repo="$BATS_TEST_TMPDIR/repo/.hermes"
  mkdir -p "$repo"
  cp "$GUARD" "$repo/guard.sh"
  printf 'hooks_auto_accept: true\nhooks:\n  pre_tool_call:\n    - command: "%s"\n' "$repo/guard.sh" >"$repo/config.yaml"
  # The repository ships an allowlist approving its own guard (written as a real approval would be).
  run --separate-stderr hh approve "$repo/guard.sh" --event pre_tool_call --home "$repo"
  assert_success
  [[ -f $repo/shell-hooks-allowlist.json ]]

  run --separate-stderr hh run pre_tool_call --config "$repo/config.yaml" <"$PAYLOAD"
  assert_success
  assert_equal "$(jq -r .action <<<"$output")" allow
  [[ ! -e $HERMES_HOME/ran.log && ! -e $repo/ran.log ]]
  assert_regex "$stderr" "$repo/config.yaml:1:1: hooks_auto_accept ignored here: it is honoured only in the profile's own config $HERMES_HOME/config.yaml"
  [[ ! -e $HERMES_HOME/shell-hooks-allowlist.json ]]

  run --separate-stderr hh list --json --config "$repo/config.yaml"
  assert_equal "$(jq -r '.hooks[0].consent.state' <<<"$output")" not_approved
  assert_equal "$(jq -r .home <<<"$output")" "$HERMES_HOME"
}

@test "a command starting with VAR=value says environment assignments need env" {
  printf 'hooks:\n  pre_tool_call:\n    - command: "FOO=1 %s"\n' "$GUARD" >"$CONFIG"
  run --separate-stderr hh test pre_tool_call --json <"$PAYLOAD"
  assert_success
  assert_equal "$(jq -r '.hooks[0].status' <<<"$output")" launch_failed
  assert_equal "$(jq -r '.hooks[0].error' <<<"$output")" 'command not found: `FOO=1` — environment assignments need `env FOO=1 …` (commands run without a shell)'
  assert_equal "$(jq -r '.hooks[0].config_path' <<<"$output")" 'hooks.pre_tool_call[0]'
}

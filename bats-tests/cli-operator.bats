#!/usr/bin/env bats
# The operator commands of the built CLI (dist/cli/bin.js): validate, list, approve, revoke and
# doctor, with their exit codes, against a throw-away profile home ($HERMES_HOME per test).

setup() {
  load test_helper
  _common_setup
  CONFIG="$HERMES_HOME/config.yaml"
  ALLOWLIST="$HERMES_HOME/shell-hooks-allowlist.json"
}

# config EVENT COMMAND [EVENT COMMAND …] — a hooks: block with one entry per pair, in order.
config() {
  local -a events=()
  local -A entries=()
  while (($# >= 2)); do
    [[ -v "entries[$1]" ]] || events+=("$1")
    entries[$1]+=$(printf '    - command: "%s"' "$2")$'\n'
    shift 2
  done
  {
    echo 'hooks:'
    for e in "${events[@]}"; do
      echo "  $e:"
      printf '%s' "${entries[$e]}"
    done
  } >"$CONFIG"
}

# --- validate ---------------------------------------------------------------------------------

@test "validate: a clean config exits 0 with a summary" {
  config pre_llm_call "$(hook ctx.sh 'echo {}')"
  run --separate-stderr hh validate
  assert_success
  assert_output "$CONFIG: ok (1 shell hook(s), 0 outbound target(s))"
}

@test "validate FILE: every warning as file:line:column, exit 1" {
  cat >"$BATS_TEST_TMPDIR/bad.yaml" <<'EOF'
hooks:
  pre_tool_cal:
    - command: /x.sh
  pre_tool_call:
    - command: /y.sh
      timeout: 900
EOF
  run --separate-stderr hh validate "$BATS_TEST_TMPDIR/bad.yaml"
  assert_failure 1
  assert_line --index 0 "$BATS_TEST_TMPDIR/bad.yaml:2:3: error: hooks.pre_tool_cal: unknown hook event 'pre_tool_cal' in hooks: config — did you mean 'pre_tool_call'?"
  assert_line --index 1 --partial "$BATS_TEST_TMPDIR/bad.yaml:6:16: warning: hooks.pre_tool_call[0].timeout=900s exceeds max 300s; clamping"
  assert_line --index 2 "$BATS_TEST_TMPDIR/bad.yaml:5:16: warning: hooks.pre_tool_call[0].command: file not found: /y.sh — fix the path"
  assert_line --index 3 "$BATS_TEST_TMPDIR/bad.yaml: 3 problem(s)"
}

@test "validate: a YAML syntax error or a missing file exits 1" {
  printf 'hooks:\n  pre_tool_call: [\n' >"$BATS_TEST_TMPDIR/syntax.yaml"
  run --separate-stderr hh validate "$BATS_TEST_TMPDIR/syntax.yaml"
  assert_failure 1
  assert_line --index 0 --regexp "^$BATS_TEST_TMPDIR/syntax\.yaml:[0-9]+:[0-9]+: error: YAML syntax error: "

  run --separate-stderr hh validate "$BATS_TEST_TMPDIR/missing.yaml"
  assert_failure 1
  assert_output ''
  assert_equal "$stderr" "hermes-hooks: config file not found: $BATS_TEST_TMPDIR/missing.yaml (given on the command line)"

  run --separate-stderr hh validate
  assert_failure 1
  assert_line --index 0 "$CONFIG: error: config file not found"
}

@test "validate --json: valid flag and positioned diagnostics" {
  printf 'hooks:\n  pre_tool_call:\n    - command: /y.sh\n      timeout: 0\n' >"$CONFIG"
  run --separate-stderr hh validate --json
  assert_failure 1
  assert_equal "$(json_value valid)" false
  assert_equal "$(json_value diagnostics.0.path)" 'hooks.pre_tool_call[0].timeout'
  assert_equal "$(json_value diagnostics.0.line)" 4
  assert_equal "$(json_value diagnostics.0.column)" 16
}

# --- list -------------------------------------------------------------------------------------

@test "list: nothing configured exits 0" {
  printf 'hooks: {}\n' >"$CONFIG"
  run --separate-stderr hh list
  assert_success
  assert_output "No shell hooks or outbound webhooks configured in $CONFIG."
}

@test "list: hooks with their consent state exit 0, approved or not" {
  local a b
  a=$(hook a.sh 'true')
  b=$(hook b.sh 'true')
  config pre_tool_call "$a" pre_tool_call "$b"
  hh approve "$a" >/dev/null
  run --separate-stderr hh list
  assert_success
  assert_line "    - $a (timeout=60s, ✓ approved)"
  assert_line "    - $b (timeout=60s, ✗ not approved)"

  run --separate-stderr hh ls --json
  assert_success
  assert_equal "$(json_value hooks.0.consent.state)" approved
  assert_equal "$(json_value hooks.1.consent.state)" not_approved
}

# --- approve / revoke -------------------------------------------------------------------------

@test "approve: prints what it approved; again is idempotent; exit 0" {
  local a
  a=$(hook a.sh 'true')
  config pre_tool_call "$a" post_tool_call "$a"
  run --separate-stderr hh approve "$a"
  assert_success
  assert_line --index 0 --regexp "^Approved \[pre_tool_call\] $a  \(sha256 [0-9a-f]{12}…\)$"
  assert_line --index 1 --regexp "^Approved \[post_tool_call\] $a  \(sha256 [0-9a-f]{12}…\)$"
  run --separate-stderr hh approve "$a"
  assert_success
  assert_equal "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["approvals"]))' "$ALLOWLIST")" 2
  assert_equal "$(stat -c %a "$ALLOWLIST")" 600
}

@test "approve --all and --event; errors exit 1" {
  local a b
  a=$(hook a.sh 'true')
  b=$(hook b.sh 'true')
  config pre_tool_call "$a" pre_llm_call "$b"
  run --separate-stderr hh approve --all --event pre_llm_call
  assert_success
  assert_output --regexp "^Approved \[pre_llm_call\] $b "

  run --separate-stderr hh approve
  assert_failure 1
  assert_equal "${stderr_lines[0]}" 'hermes-hooks: approve: give a <command> or --all'

  run --separate-stderr hh approve /not/configured.sh
  assert_failure 1
  assert_output ''
  assert_equal "${stderr_lines[0]}" "hermes-hooks: approve: no configured hook matches '/not/configured.sh' in $CONFIG"

  run --separate-stderr hh approve "$a" --event pre_tool_cal
  assert_failure 1
  [[ $stderr == *"did you mean 'pre_tool_call'"* ]]

  # Not configured for that event: --event only narrows, it never approves something unconfigured.
  run --separate-stderr hh approve /opt/later.sh --event on_session_start
  assert_failure 1
  assert_equal "${stderr_lines[0]}" "hermes-hooks: approve: no configured hook matches '/opt/later.sh' in $CONFIG for on_session_start"
  assert_equal "${stderr_lines[-1]}" 'Nothing was approved.'
}

@test "revoke: prints the count; nothing to revoke is still exit 0; no command is exit 1" {
  local a
  a=$(hook a.sh 'true')
  config pre_tool_call "$a" post_tool_call "$a"
  hh approve "$a" >/dev/null
  run --separate-stderr hh revoke "$a"
  assert_success
  assert_line --index 0 "Removed 2 allowlist entries for: $a"

  run --separate-stderr hh revoke "$a"
  assert_success
  assert_output "No allowlist entry found for command: $a"

  run --separate-stderr hh revoke
  assert_failure 1
}

# --- doctor -----------------------------------------------------------------------------------

@test "doctor: nothing configured exits 0" {
  printf 'hooks: {}\n' >"$CONFIG"
  run --separate-stderr hh doctor
  assert_success
  assert_line --index 0 "No shell hooks configured in $CONFIG — nothing to check."
  assert_line --index 1 'Nothing to check.'
}

@test "doctor: an approved hook that answers what its event honours is healthy, exit 0" {
  local ctx
  ctx=$(hook ctx.sh "echo '{\"context\":\"hi\"}'")
  config pre_llm_call "$ctx"
  hh approve --all >/dev/null
  run --separate-stderr hh doctor
  assert_success
  assert_line "      ✓ script exists and is executable ($ctx)"
  assert_line --partial '      ✓ answered {"action":"context","context":"hi"} on the synthetic payload'
  assert_line 'All hooks look healthy.'
}

@test "doctor: an unapproved hook is a problem and is not run, exit 1" {
  local h
  h=$(hook h.sh 'echo ran >>"$HERMES_HOME/ran.log"')
  config pre_tool_call "$h"
  run --separate-stderr hh doctor
  assert_failure 1
  assert_line --partial '      ✗ not approved — hook will NOT run'
  assert_line '      ℹ skipped smoke run — approve the hook first, then re-run doctor'
  [[ ! -e $HERMES_HOME/ran.log ]]
}

@test "doctor: non-JSON stdout, a missing exec bit and an edited script are problems, exit 1" {
  local nonjson noexec edited
  nonjson=$(hook nonjson.sh 'echo not json')
  noexec=$(hook noexec.sh 'true' 644)
  edited=$(hook edited.sh 'true')
  config post_tool_call "$nonjson" post_tool_call "$noexec" post_tool_call "$edited"
  hh approve --all >/dev/null
  echo '# edited' >>"$edited"
  # Observers are smoke-run only when asked.
  run --separate-stderr hh doctor --smoke-all
  assert_failure 1
  assert_line --regexp '^      ✗ stdout was not valid JSON \(exit=0, [0-9.]+s\): not json$'
  assert_line "      ✗ not executable: $noexec — run: chmod +x $noexec"
  assert_line --regexp "^      ✗ modified since approval: $edited changed "
  assert_line '3 issue(s) found.  Fix before relying on these hooks.'

  run --separate-stderr hh doctor --json --smoke-all
  assert_failure 1
  assert_equal "$(json_value healthy)" false
  assert_equal "$(json_value issues)" 3
}

@test "doctor: a smoke run that times out is a problem, exit 1" {
  local slow
  slow=$(hook slow.sh 'sleep 30')
  printf 'hooks:\n  pre_llm_call:\n    - command: "%s"\n      timeout: 1\n' "$slow" >"$CONFIG"
  hh approve --all >/dev/null
  run --separate-stderr hh doctor
  assert_failure 1
  assert_line '      ✗ timed out on the synthetic payload (timeout=1s)'
}

@test "doctor: a config warning counts as an issue, exit 1" {
  printf 'hooks:\n  pre_tool_cal:\n    - command: /x.sh\n' >"$CONFIG"
  run --separate-stderr hh doctor
  assert_failure 1
  assert_line --partial "$CONFIG:2:3: error: hooks.pre_tool_cal: unknown hook event"
}

# --- discovery --------------------------------------------------------------------------------

@test "every operator command reads --profile, --home and --config" {
  local work="$HERMES_HOME/profiles/work" other="$BATS_TEST_TMPDIR/other" h
  mkdir -p "$work" "$other"
  for dir in "$work" "$other"; do
    h="$dir/h.sh"
    printf '#!/usr/bin/env bash\necho "{\\"context\\":\\"ok\\"}"\n' >"$h"
    chmod +x "$h"
    printf 'hooks:\n  pre_llm_call:\n    - command: "%s"\n' "$h" >"$dir/config.yaml"
  done

  run --separate-stderr hh approve --all --profile work
  assert_success
  assert_output --partial "Approved [pre_llm_call] $work/h.sh"
  [[ -f $work/shell-hooks-allowlist.json && ! -e $ALLOWLIST ]]
  run --separate-stderr hh doctor --profile work
  assert_success
  run --separate-stderr hh list -p work --json
  assert_equal "$(json_value profile)" work
  assert_equal "$(json_value hooks.0.consent.state)" approved

  run --separate-stderr hh doctor --home "$other"
  assert_failure 1
  run --separate-stderr hh validate --config "$other/config.yaml"
  assert_success
  assert_output "$other/config.yaml: ok (1 shell hook(s), 0 outbound target(s))"
  # --config only names the file to read: the approval goes to the user's allowlist ($HERMES_HOME),
  # never beside the config file.
  run --separate-stderr hh approve "$other/h.sh" -c "$other/config.yaml"
  assert_success
  [[ -f $ALLOWLIST && ! -e $other/shell-hooks-allowlist.json ]]
  run --separate-stderr hh revoke "$other/h.sh" --home "$other"
  assert_success
  assert_output "No allowlist entry found for command: $other/h.sh"
  run --separate-stderr hh revoke "$other/h.sh" -c "$other/config.yaml"
  assert_success
  assert_line --index 0 "Removed 1 allowlist entry for: $other/h.sh"
}

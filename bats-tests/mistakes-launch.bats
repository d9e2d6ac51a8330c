#!/usr/bin/env bats
# Issue 20 item 4: the launch mistakes a newcomer makes — an unquoted path with a space, a path
# that does not exist, a script saved with CRLF line endings, one without a #! line, one without
# its exec bit, a guard that exits 1 meaning "no" — each said with the path it tried and the fix:
# statically by `validate` and `doctor`, and at the launch by `test`, `run` (stderr) and doctor's
# smoke run. Every hook is written the way a user would write it, and checked as typed.

setup() {
  load test_helper
  _common_setup
  CONFIG="$HERMES_HOME/config.yaml"
  DOCS="$HERMES_HOME/Mes Documents"
  mkdir -p "$DOCS"
  GARDE="$DOCS/garde fou.sh"
  printf '#!/usr/bin/env bash\ncat >/dev/null\necho "{\\"action\\": \\"block\\", \\"message\\": \\"non\\"}"\n' >"$GARDE"
  chmod +x "$GARDE"
}

# config_with COMMAND [EXTRA_LINE] — one pre_tool_call hook, auto-accepted.
config_with() {
  printf 'hooks_auto_accept: true\nhooks:\n  pre_tool_call:\n    - command: %s\n%s' "$1" "${2:+      $2
}" >"$CONFIG"
}

crlf_hook() {
  printf '#!/usr/bin/env bash\r\ncat >/dev/null\r\necho "{}"\r\n' >"$HERMES_HOME/crlf.sh"
  chmod +x "$HERMES_HOME/crlf.sh"
  echo "$HERMES_HOME/crlf.sh"
}

no_shebang_hook() {
  printf 'cat >/dev/null\necho "{}"\n' >"$HERMES_HOME/plain.sh"
  chmod +x "$HERMES_HOME/plain.sh"
  echo "$HERMES_HOME/plain.sh"
}

FIX_SED="run: sed -i 's/\\r\$//'"

# --- validate: what can be seen in the files, before anything runs ------------------------------

@test "validate: an unquoted path with a space says to quote it, with the line to write" {
  config_with "$GARDE"
  run --separate-stderr hh validate
  assert_failure 1
  assert_line "$CONFIG:4:16: warning: hooks.pre_tool_call[0].command: file not found: $HERMES_HOME/Mes — the command was split at the spaces in its path; quote the path: command: \"'$GARDE'\""
  # The fix, pasted back, validates clean.
  config_with "\"'$GARDE'\""
  run --separate-stderr hh validate
  assert_success
}

@test "validate: the same through an interpreter (bash PATH WITH SPACES)" {
  config_with "bash $GARDE"
  run --separate-stderr hh validate
  assert_failure 1
  assert_line "$CONFIG:4:16: warning: hooks.pre_tool_call[0].command: file not found: $HERMES_HOME/Mes — the command was split at the spaces in its path; quote the path: command: \"bash '$GARDE'\""
}

@test "validate: a missing absolute path is named; a fail_closed guard says what it costs" {
  config_with /opt/hooks/guard.sh "fail_closed: true"
  run --separate-stderr hh validate
  assert_failure 1
  assert_line "$CONFIG:4:16: warning: hooks.pre_tool_call[0].command: file not found: /opt/hooks/guard.sh — fix the path; being fail_closed, until then it blocks every call it matches"
}

@test "validate: CRLF line endings, no #! line, no exec bit — each with its fix" {
  local crlf plain nox
  crlf=$(crlf_hook)
  plain=$(no_shebang_hook)
  nox=$(hook nox.sh 'echo {}' 644)
  printf 'hooks:\n  pre_tool_call:\n    - command: %s\n    - command: %s\n    - command: %s\n' "$crlf" "$plain" "$nox" >"$CONFIG"
  run --separate-stderr hh validate
  assert_failure 1
  assert_line "$CONFIG:3:16: warning: hooks.pre_tool_call[0].command: CRLF line endings: $crlf (its #! line asks for 'bash\\r') — $FIX_SED $crlf"
  assert_line "$CONFIG:4:16: warning: hooks.pre_tool_call[1].command: no #! line: $plain cannot be executed directly (Exec format error) — add #!/usr/bin/env bash as the first line"
  assert_line "$CONFIG:5:16: warning: hooks.pre_tool_call[2].command: not executable: $nox — run: chmod +x $nox"
  assert_line "$CONFIG: 3 problem(s)"
}

# --- at the launch: test, run, doctor -----------------------------------------------------------

@test "CRLF: test, run and doctor name the file and give the sed fix" {
  local crlf
  crlf=$(crlf_hook)
  config_with "$crlf"
  run --separate-stderr hh test pre_tool_call </dev/null
  assert_line "      error: CRLF line endings: $crlf (its #! line asks for 'bash\\r') — $FIX_SED $crlf"
  run_with_stdin "$(terminal_payload 'ls')" hh run pre_tool_call
  assert_success
  [[ $stderr == *"hermes-hooks: warning: shell hook (event=pre_tool_call command=$crlf) failed: CRLF line endings: $crlf (its #! line asks for 'bash\\r') — $FIX_SED $crlf"* ]]
  run --separate-stderr hh doctor
  assert_failure 1
  assert_line "      ✗ CRLF line endings: $crlf (its #! line asks for 'bash\\r') — $FIX_SED $crlf"
  # The fix works.
  sed -i 's/\r$//' "$crlf"
  run --separate-stderr hh test pre_tool_call </dev/null
  assert_success
  refute_output --partial 'error:'
}

@test "no #! line: the exec format error says to add one" {
  local plain
  plain=$(no_shebang_hook)
  config_with "$plain"
  run --separate-stderr hh test pre_tool_call </dev/null
  assert_line "      error: [Errno 8] Exec format error: '$plain' — it has no #! line: add #!/usr/bin/env bash as the first line"
  run_with_stdin "$(terminal_payload 'ls')" hh run pre_tool_call
  [[ $stderr == *"failed: [Errno 8] Exec format error: '$plain' — it has no #! line: add #!/usr/bin/env bash as the first line"* ]]
}

@test "no exec bit: chmod +x, naming the file" {
  local nox
  nox=$(hook nox.sh 'cat >/dev/null; echo {}' 644)
  config_with "$nox"
  run --separate-stderr hh test pre_tool_call </dev/null
  assert_line "      error: command not executable: $nox — run: chmod +x $nox"
  run_with_stdin "$(terminal_payload 'ls')" hh run pre_tool_call
  [[ $stderr == *"failed: command not executable: $nox — run: chmod +x $nox"* ]]
}

@test "command not found: the path tried and the quoting fix; a bare name: the PATH looked up" {
  config_with "$GARDE"
  run --separate-stderr hh test pre_tool_call </dev/null
  assert_line "      error: command not found: $HERMES_HOME/Mes (no such file) — the command was split at the spaces in its path; quote the path: command: \"'$GARDE'\""
  # run enforces consent: the script cannot be pinned, and the same fix is said there.
  run_with_stdin "$(terminal_payload 'ls')" hh run pre_tool_call
  assert_success
  [[ $stderr == *"$HERMES_HOME/Mes does not exist — the command was split at the spaces in its path; quote the path: command: \"'$GARDE'\""* ]]
  run --separate-stderr hh doctor
  assert_failure 1
  assert_line "      ✗ file not found: $HERMES_HOME/Mes — the command was split at the spaces in its path; quote the path: command: \"'$GARDE'\""
  config_with garde-fou
  run --separate-stderr env PATH="/usr/bin:/bin" "$(command -v node)" "$PROJECT_ROOT/dist/cli/bin.js" test pre_tool_call </dev/null
  assert_line '      error: command not found: `garde-fou` (looked up on PATH=/usr/bin:/bin)'
}

# --- a guard that exits 1 meaning "no" -----------------------------------------------------------

@test "exit 1 on pre_tool_call: run, test and doctor say only exit 2 blocks, and how to block" {
  local guard
  guard=$(hook guard.sh 'cat >/dev/null; echo "rm is not allowed" >&2; exit 1')
  config_with "$guard"
  run_with_stdin "$(terminal_payload 'rm -rf /')" hh run pre_tool_call
  assert_success
  [[ $(json_value action) == allow ]]
  [[ $stderr == *"shell hook (event=pre_tool_call command=$guard) exited 1: on pre_tool_call only exit 2 blocks; exit 1 is a warning and the call went ahead — use exit 2 or print {\"action\":\"block\"}; stderr=rm is not allowed"* ]]
  run --separate-stderr hh test pre_tool_call </dev/null
  assert_line '      exited 1: on pre_tool_call only exit 2 blocks; exit 1 is a warning and the call went ahead — use exit 2 or print {"action":"block"}'
  run --separate-stderr hh doctor
  assert_line --partial '— on pre_tool_call only exit 2 blocks; exit 1 is a warning and the call went ahead — use exit 2 or print {"action":"block"}'
  # Following the advice blocks.
  hook guard.sh 'cat >/dev/null; echo "rm is not allowed" >&2; exit 2' >/dev/null
  hh approve --all >/dev/null
  run_with_stdin "$(terminal_payload 'rm -rf /')" hh run pre_tool_call
  assert_failure 2
  [[ $(json_value message) == 'rm is not allowed' ]]
}

@test "exit 1 from a Claude-dialect guard: the advice gives Claude's own deny" {
  local guard
  guard=$(hook claude-guard.sh 'cat >/dev/null; exit 1')
  config_with "$guard" "dialect: claude"
  run_with_stdin "$(terminal_payload 'rm -rf /')" hh run pre_tool_call
  [[ $stderr == *'exited 1: on pre_tool_call only exit 2 blocks; exit 1 is a warning and the call went ahead — use exit 2 or print {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'* ]]
}

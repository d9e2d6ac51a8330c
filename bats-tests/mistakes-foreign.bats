#!/usr/bin/env bats
# Issue 20 item 1, as a newcomer from another agent types it, in a fresh HOME with ~/.hermes: a
# Claude Code (Gemini CLI, Cursor) hooks block pasted into config.yaml, and Claude's stdin piped to
# `run` without --dialect. Every command that reads the config names the agent and prints the exact
# `hermes-hooks import` that converts it; no tool gate is ever allowed without a word.

setup() {
  load test_helper
  _common_setup
  export HOME="$BATS_TEST_TMPDIR/home"
  unset HERMES_HOME
  mkdir -p "$HOME/.hermes" "$HOME/.claude/hooks"
  CONFIG="$HOME/.hermes/config.yaml"
  # The Claude Code hooks guide's guard: jq, the reason on stderr, exit 2.
  GUARD="$HOME/.claude/hooks/guard.sh"
  cat >"$GUARD" <<'EOF'
#!/usr/bin/env bash
command=$(jq -r '.tool_input.command // empty')
if [[ $command == *"rm -rf"* ]]; then echo "Blocked: '$command' is not allowed here" >&2; exit 2; fi
EOF
  chmod +x "$GUARD"
  RM='{"tool_name":"terminal","tool_input":{"command":"rm -rf /"}}'
  CLAUDE_RM='{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}'
  CLAUDE_LS='{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1"}'
  IMPORT="hermes-hooks import $CONFIG --dialect claude --write"
}

# paste_claude — the settings.json hooks block, as YAML, in ~/.hermes/config.yaml.
paste_claude() {
  cat >"$CONFIG" <<EOF
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: $GUARD
EOF
}

@test "a pasted Claude Code block: run pre_tool_call blocks (exit 2), names Claude Code and the import command" {
  paste_claude
  run_with_stdin "$RM" hh run pre_tool_call
  assert_failure 2
  assert_equal "$(jq -r .action <<<"$output")" block
  [[ $(jq -r .message <<<"$output") == *"written in Claude Code's format, which Hermes does not read"*"convert it with: $IMPORT" ]]
  [[ $stderr == *"hermes-hooks: $CONFIG:2:3: error: hooks.PreToolUse: 'PreToolUse' is Claude Code's hooks format"*"did you mean 'pre_tool_call' with 'dialect: claude'? Convert it with: $IMPORT"* ]]
  # A harmless call is blocked too: the guard that would have checked it is not running.
  run_with_stdin '{"tool_name":"terminal","tool_input":{"command":"ls"}}' hh run pre_tool_call
  assert_failure 2
}

@test "a pasted Claude Code block: run PreToolUse --dialect claude answers Claude's deny with the fix" {
  paste_claude
  run_with_stdin "$CLAUDE_RM" hh run PreToolUse --dialect claude
  assert_success
  assert_equal "$(jq -r .hookSpecificOutput.permissionDecision <<<"$output")" deny
  [[ $(jq -r .hookSpecificOutput.permissionDecisionReason <<<"$output") == *"convert it with: $IMPORT" ]]
  [[ $stderr == *"is Claude Code's hooks format"* ]]
}

@test "a pasted Claude Code block: list, validate, test and doctor each say it, with the import command, and exit non-zero" {
  paste_claude
  run --separate-stderr hh list
  assert_failure 1
  assert_line "No Hermes shell hooks in $CONFIG: its hooks: block is another agent's."
  assert_line --partial "✗ $CONFIG:2:3: error: hooks.PreToolUse: 'PreToolUse' is Claude Code's hooks format"
  assert_output --partial "$IMPORT"

  run --separate-stderr hh validate
  assert_failure 1
  assert_line --partial "$CONFIG:2:3: error: hooks.PreToolUse: 'PreToolUse' is Claude Code's hooks format"
  refute_output --partial 'valid: agent_loop_stopped'

  run_with_stdin "$RM" hh test pre_tool_call
  assert_failure 2
  assert_output --partial '✗ not converted'
  assert_output --partial "Decision: BLOCK by #0 ($GUARD)"

  run --separate-stderr hh doctor
  assert_failure 1
  assert_line --index 0 "No Hermes shell hooks in $CONFIG: its hooks: block is another agent's — see the error below."
  refute_output --partial 'nothing to check'
  assert_output --partial "$IMPORT"
  assert_line '1 issue(s) found.  Fix before relying on these hooks.'
}

@test "a pasted Claude Code block: serve says it at start, health is degraded, and its emit blocks as run does" {
  paste_claude
  coproc SERVE { hh serve --stdio 2>"$BATS_TEST_TMPDIR/serve.err"; }
  printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"emit\",\"params\":{\"event\":\"pre_tool_call\",\"kwargs\":$RM}}" >&"${SERVE[1]}"
  read -r -t 60 line <&"${SERVE[0]}"
  printf '%s\n' '{"jsonrpc":"2.0","id":2,"method":"health"}' >&"${SERVE[1]}"
  read -r -t 60 health <&"${SERVE[0]}"
  exec {SERVE[1]}>&-
  wait "$SERVE_PID" || true
  assert_equal "$(jq -r .result.decision.action <<<"$line")" block
  [[ $(jq -r .result.decision.message <<<"$line") == *"convert it with: $IMPORT" ]]
  assert_equal "$(jq -r .result.status <<<"$health")" degraded
  # Said at start as the error it is, not as a warning.
  grep -q "^hermes-hooks: error: $CONFIG:2:3: 'PreToolUse' is Claude Code's hooks format" "$BATS_TEST_TMPDIR/serve.err"
}

@test "the printed import converts it in place (with a backup); approved, the guard then guards" {
  paste_claude
  run --separate-stderr hh import "$CONFIG" --dialect claude --write
  assert_success
  [[ $stderr == *"Converted hooks.PreToolUse in $CONFIG into 1 Hermes hook entry (backup: $CONFIG.bak-"* ]]
  ls "$CONFIG".bak-* >/dev/null
  run hh validate
  assert_success
  hh approve --all >/dev/null
  run_with_stdin "$RM" hh run pre_tool_call
  assert_failure 2
  assert_equal "$(jq -r .message <<<"$output")" "Blocked: 'rm -rf /' is not allowed here"
  run_with_stdin '{"tool_name":"terminal","tool_input":{"command":"ls"}}' hh run pre_tool_call
  assert_success
  assert_equal "$stderr" ''
}

@test "PreToolUse with Hermes-shaped entries: did you mean 'pre_tool_call' with 'dialect: claude'?" {
  printf 'hooks:\n  PreToolUse:\n    - command: %s\n' "$GUARD" >"$CONFIG"
  run hh validate
  assert_failure 1
  assert_line --partial "error: hooks.PreToolUse: unknown hook event 'PreToolUse': it is Claude Code's name — did you mean 'pre_tool_call' with 'dialect: claude'?"
}

@test "Gemini CLI's and Cursor's blocks are named as theirs, with their --dialect" {
  printf 'hooks:\n  BeforeTool:\n    - matcher: run_shell_command\n      hooks:\n        - type: command\n          command: %s\n' "$GUARD" >"$CONFIG"
  run hh validate
  assert_failure 1
  assert_output --partial "'BeforeTool' is Gemini CLI's hooks format"
  assert_output --partial "hermes-hooks import $CONFIG --dialect gemini --write"

  printf 'version: 1\nhooks:\n  beforeShellExecution:\n    - command: %s\n' "$GUARD" >"$CONFIG"
  run hh validate
  assert_failure 1
  assert_output --partial "'beforeShellExecution' is Cursor's hooks format"
  run_with_stdin "$RM" hh run pre_tool_call
  assert_failure 2
  [[ $(jq -r .message <<<"$output") == *"hermes-hooks import $CONFIG --dialect cursor --write" ]]
}

@test "Claude's stdin piped to run pre_tool_call: names --dialect claude, and with a guard configured never allows" {
  printf 'hooks:\n  pre_tool_call:\n    - command: %s\n      matcher: terminal\n' "$GUARD" >"$CONFIG"
  hh approve --all >/dev/null
  run_with_stdin "$CLAUDE_LS" hh run pre_tool_call
  assert_failure 2
  [[ $(jq -r .message <<<"$output") == "hermes-hooks cannot check this call: this is Claude Code's hook input"*"run: hermes-hooks run PreToolUse --dialect claude"* ]]
  assert_equal "$(grep -c . <<<"$stderr")" 1
  [[ $stderr == *"error: hook_event_name: this is Claude Code's hook input (hook_event_name 'PreToolUse', transcript_path, permission_mode, tool_use_id)"* ]]
}

@test "Claude's stdin with no guard configured: said on stderr, nothing to block" {
  printf 'hooks: {}\n' >"$CONFIG"
  run_with_stdin "$CLAUDE_LS" hh run pre_tool_call
  assert_success
  [[ $stderr == *"this is Claude Code's hook input"*"--dialect claude"* ]]
}

@test "run PreToolUse without --dialect: exit 2 (every agent's block) with the fix, not an exit 1 that lets the call through" {
  paste_claude
  run_with_stdin "$CLAUDE_RM" hh run PreToolUse
  assert_failure 2
  assert_equal "$stderr" "hermes-hooks: blocks this call: 'PreToolUse' is Claude Code's event name; Hermes calls it 'pre_tool_call' — as Claude Code's hook command: hermes-hooks run PreToolUse --dialect claude (Codex: --dialect codex; Qwen Code: --dialect qwen; Factory Droid: --dialect droid); with a Hermes payload: hermes-hooks run pre_tool_call"
  run --separate-stderr hh test PreToolUse
  assert_failure 1
  assert_equal "$stderr" "hermes-hooks: 'PreToolUse' is Claude Code's event name; Hermes calls it 'pre_tool_call' — did you mean: hermes-hooks test pre_tool_call? (a hook written for Claude Code needs dialect: claude in its config entry)"
}

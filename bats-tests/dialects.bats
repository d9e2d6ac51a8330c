#!/usr/bin/env bats
# hermes-hooks as another agent's hook command: `run <their event> --dialect X` fed each agent's exact
# stdin, agent-style hooks through `test` with dialect: set, print-config and import --write.
# The profile's hook is test/fixtures/cli-dialects/hooks/hermes-policy.sh (Hermes wire).

setup() {
  load test_helper
  _common_setup
  DIALECTS="$PROJECT_ROOT/test/fixtures/dialects"
  CLI_DIALECTS="$PROJECT_ROOT/test/fixtures/cli-dialects"
  POLICY="$CLI_DIALECTS/hooks/hermes-policy.sh"
  cat >"$HERMES_HOME/config.yaml" <<EOF
hooks:
  pre_tool_call:
    - command: $POLICY
  pre_llm_call:
    - command: $POLICY
  pre_verify:
    - command: $POLICY
EOF
  $HERMES_HOOKS_CLI approve --all >/dev/null
}

# sample NAME [JQ-FILTER] — an agent's stdin sample, optionally edited with jq.
sample() {
  local file="$CLI_DIALECTS/stdin/$1.json"
  [[ -f $file ]] || file="$DIALECTS/stdin/$1.json"
  jq -c "${2:-.}" "$file"
}

# as_agent AGENT EVENT STDIN — what the agent's hook command does.
as_agent() {
  run_with_stdin "$3" $HERMES_HOOKS_CLI run "$2" --dialect "$1"
}

@test "claude: rm -rf is denied through hookSpecificOutput, exit 0" {
  as_agent claude PreToolUse "$(sample claude-PreToolUse-Bash '.tool_input.command = "rm -rf /"')"
  assert_success
  assert_equal "$(json_value hookSpecificOutput.hookEventName)" PreToolUse
  assert_equal "$(json_value hookSpecificOutput.permissionDecision)" deny
  assert_equal "$(json_value hookSpecificOutput.permissionDecisionReason)" 'hermes policy: rm -rf is not allowed'
}

@test "claude: a relative Read path comes back as updatedInput.file_path in Claude's cwd, with no allow" {
  as_agent claude PreToolUse "$(sample claude-PreToolUse-Read)"
  assert_success
  # A rewrite grants nothing: no permissionDecision, so Claude's own permission check still runs.
  assert_equal "$(jq -c '.hookSpecificOutput | keys' <<<"$output")" '["hookEventName","updatedInput"]'
  assert_equal "$(json_value hookSpecificOutput.updatedInput)" '{"file_path":"/home/user/my-project/src/app.ts","offset":10,"limit":50}'
}

@test "claude: Stop gets decision block + reason once, then lets Claude stop" {
  as_agent claude Stop "$(sample claude-Stop)"
  assert_success
  assert_equal "$(json_value decision)" block
  assert_equal "$(json_value reason)" 'hermes: run the tests before you stop'
  as_agent claude Stop "$(sample claude-Stop '.stop_hook_active = true')"
  assert_success
  assert_output ''
}

@test "codex: a block is exit 2 with the reason alone on stderr" {
  as_agent codex PreToolUse "$(sample codex-PreToolUse '.tool_input.command = "rm -rf /"')"
  assert_failure 2
  assert_output ''
  assert_equal "$stderr" 'hermes policy: rm -rf is not allowed'
}

@test "codex: a rewrite is allow + updatedInput" {
  as_agent codex PreToolUse "$(sample codex-PreToolUse)"
  assert_success
  assert_equal "$(json_value hookSpecificOutput.permissionDecision)" allow
  assert_equal "$(json_value hookSpecificOutput.updatedInput.command)" 'pip install --user requests'
}

@test "gemini: deny, ask and additionalContext" {
  as_agent gemini BeforeTool "$(sample gemini-BeforeTool-shell '.tool_input.command = "rm -rf /"')"
  assert_success
  assert_equal "$(json_value decision)" deny
  as_agent gemini BeforeTool "$(sample gemini-BeforeTool-shell '.tool_input.command = "git push origin main"')"
  assert_equal "$(json_value decision)" ask
  as_agent gemini BeforeAgent "$(sample gemini-BeforeAgent)"
  assert_equal "$(json_value hookSpecificOutput.additionalContext)" 'hermes context for: Add a changelog entry for the release'
}

@test "cursor: permission deny on beforeShellExecution, explicit allow otherwise" {
  as_agent cursor beforeShellExecution "$(sample cursor-beforeShellExecution '.command = "rm -rf /"')"
  assert_success
  assert_equal "$(json_value permission)" deny
  assert_equal "$(json_value agent_message)" 'hermes policy: rm -rf is not allowed'
  as_agent cursor beforeShellExecution "$(sample cursor-beforeShellExecution '.command = "ls"')"
  assert_success
  assert_output '{"permission":"allow"}'
}

@test "fail_closed: a crashing hook is a deny in Claude's form and an exit 2 for Codex" {
  cat >"$HERMES_HOME/config.yaml" <<EOF
hooks:
  pre_tool_call:
    - command: $DIALECTS/hooks/crash.sh
      fail_closed: true
EOF
  $HERMES_HOOKS_CLI approve --all >/dev/null
  as_agent claude PreToolUse "$(sample claude-PreToolUse-Bash)"
  assert_success
  assert_equal "$(json_value hookSpecificOutput.permissionDecision)" deny
  assert_regex "$(json_value hookSpecificOutput.permissionDecisionReason)" 'crash\.sh failed closed: exited with status 1'
  as_agent codex PreToolUse "$(sample codex-PreToolUse)"
  assert_failure 2
  assert_regex "$stderr" '^hook .*crash\.sh failed closed'
}

@test "test: a Claude Bash guard (jq, exit 2) with dialect: claude blocks a terminal call" {
  cat >"$HERMES_HOME/config.yaml" <<EOF
hooks:
  pre_tool_call:
    - command: $DIALECTS/hooks/claude-bash-guard.sh
      matcher: Bash
      dialect: claude
EOF
  run_with_stdin "$(terminal_payload 'git push --force origin main')" $HERMES_HOOKS_CLI test pre_tool_call --json
  assert_failure 2
  assert_equal "$(json_value decision.action)" block
  assert_equal "$(json_value decision.message)" "Blocked: 'git push --force origin main' is not allowed here"
  assert_equal "$(json_value hooks.0.dialect)" claude
}

@test "print-config claude is JSON wiring PreToolUse to this installation's client and serve; --run to its run --dialect claude (never npx)" {
  run --separate-stderr $HERMES_HOOKS_CLI print-config claude
  assert_success
  assert_equal "$(json_value hooks.PreToolUse.0.matcher)" '*'
  local cmd
  cmd=$(json_value hooks.PreToolUse.0.hooks.0.command)
  [[ $cmd == "/bin/sh -c "* ]]
  [[ $cmd == *" $PROJECT_ROOT/scripts-examples/hosts/hermes-hooks-client claude PreToolUse --gate 1 --home $HERMES_HOME" ]]
  run --separate-stderr $HERMES_HOOKS_CLI print-config claude --run
  assert_success
  assert_equal "$(json_value hooks.PreToolUse.0.hooks.0.command)" "$(node -p process.execPath) $PROJECT_ROOT/dist/cli/bin.js run PreToolUse --dialect claude --home $HERMES_HOME"
  assert_equal "$(json_value hooks.Stop.0.hooks.0.type)" command
  refute_output --partial npx
}

@test "import --write merges a Claude settings.json once, with a backup, and validates" {
  local project="$BATS_TEST_TMPDIR/proj"
  mkdir -p "$project/.claude"
  cp "$DIALECTS/configs/claude-settings.json" "$project/.claude/settings.json"
  run --separate-stderr $HERMES_HOOKS_CLI import "$project/.claude/settings.json" --write
  assert_success
  assert_regex "$stderr" 'Merged 10 hook\(s\) into .*\(backup: .*config\.yaml\.bak-'
  assert_regex "$stderr" "event 'Notification' has no Hermes counterpart"
  grep -q "command: $POLICY" "$HERMES_HOME/config.yaml"
  local first
  first=$(cat "$HERMES_HOME/config.yaml")
  run --separate-stderr $HERMES_HOOKS_CLI import "$project/.claude/settings.json" --write
  assert_success
  assert_regex "$stderr" 'Nothing to merge'
  assert_equal "$(cat "$HERMES_HOME/config.yaml")" "$first"
  # The config validates: the only findings are the scripts it names that are not on this machine.
  run --separate-stderr $HERMES_HOOKS_CLI validate --json
  assert_failure 1
  run jq -r '.diagnostics[] | select(.level != "info") | select((.path | endswith(".command")) and (.message | test("^(file|command) not found: ")) | not) | .message' <<<"$output"
  assert_output ''
}

@test "the platform an agent session counts as reaches the hooks: Claude's CLAUDE_CODE_SESSION_ATTENDED, else cli, else the config's" {
  printf 'hooks:\n  pre_tool_call:\n    - command: %s\n' "$CLI_DIALECTS/hooks/hermes-platform.sh" >"$HERMES_HOME/config.yaml"
  $HERMES_HOOKS_CLI approve --all >/dev/null
  CLAUDE_CODE_SESSION_ATTENDED=0 as_agent claude PreToolUse "$(sample claude-PreToolUse-Bash)"
  assert_equal "$(json_value hookSpecificOutput.permissionDecisionReason)" 'platform=headless'
  CLAUDE_CODE_SESSION_ATTENDED=1 as_agent claude PreToolUse "$(sample claude-PreToolUse-Bash)"
  assert_equal "$(json_value hookSpecificOutput.permissionDecisionReason)" 'platform=cli'
  CLAUDE_CODE_SESSION_ATTENDED=0 as_agent gemini BeforeTool "$(sample gemini-BeforeTool)"
  assert_equal "$(json_value reason)" 'platform=cli'
  printf 'dialects:\n  gemini:\n    platform: cron\n' >>"$HERMES_HOME/config.yaml"
  as_agent gemini BeforeTool "$(sample gemini-BeforeTool)"
  assert_equal "$(json_value reason)" 'platform=cron'
}

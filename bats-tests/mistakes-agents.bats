#!/usr/bin/env bats
# Issue 16, as a user types it: wiring hermes-hooks into another agent must never leave a guard that
# silently lets everything through. print-config's command works from any directory; a broken
# config answers with the agent's block; doctor --agent catches an npx command and an untrusted
# Codex hook.

setup() {
  load test_helper
  _common_setup
  HH="$BATS_TEST_TMPDIR/hh"
  mkdir -p "$HH" "$BATS_TEST_TMPDIR/home" "$BATS_TEST_TMPDIR/elsewhere"
  GUARD="$BATS_TEST_TMPDIR/guard.sh"
  cat >"$GUARD" <<'EOF'
#!/usr/bin/env bash
# Hermes wire: block rm -rf, allow the rest.
if jq -e '.tool_input.command // "" | contains("rm -rf")' >/dev/null; then
  echo '{"action":"block","message":"guard: no rm -rf"}'
fi
EOF
  chmod +x "$GUARD"
  printf 'hooks:\n  pre_tool_call:\n    - command: %s\n' "$GUARD" >"$HH/config.yaml"
  run $HERMES_HOOKS_CLI approve --all --home "$HH"
  assert_success
  CLAUDE_RM='{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /srv"},"tool_use_id":"t1"}'
}

teardown() {
  # print-config's default wiring: the printed command's client started a serve for $HH; stop it.
  local p
  for p in /proc/[0-9]*; do
    tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -q -- " serve --home $HH " && kill "${p#/proc/}" 2>/dev/null
  done
  return 0
}

# snippet_command AGENT EVENT FILE — the command print-config wired for EVENT.
snippet_command() {
  if [[ $1 == cursor ]]; then
    jq -r --arg e "$2" '.hooks[$e][0].command' "$3"
  else
    jq -r --arg e "$2" '.hooks[$e][0].hooks[0].command' "$3"
  fi
}

@test "print-config claude > file: stdout is pure JSON, the where-and-how notes go to stderr" {
  run --separate-stderr $HERMES_HOOKS_CLI print-config claude --home "$HH"
  assert_success
  jq -e . <<<"$output" >/dev/null
  assert_equal "$(jq -r '.hooks.PreToolUse[0].matcher' <<<"$output")" '*'
  [[ $stderr == *'Where: merge the "hooks" object into ~/.claude/settings.json (every project) or'* ]]
  [[ $stderr == *'Then check it: hermes-hooks doctor --agent claude'* ]]
  refute_output --partial npx
}

@test "the printed Claude command blocks rm -rf when run from another directory, with no hermes-hooks on PATH" {
  $HERMES_HOOKS_CLI print-config claude --home "$HH" >"$BATS_TEST_TMPDIR/claude.json" 2>/dev/null
  cmd=$(snippet_command claude PreToolUse "$BATS_TEST_TMPDIR/claude.json")
  # A PATH with only what the guard needs: no node, no hermes-hooks, no npx.
  tools="$BATS_TEST_TMPDIR/tools"
  mkdir -p "$tools"
  for t in bash jq; do ln -s "$(command -v $t)" "$tools/$t"; done
  cd "$BATS_TEST_TMPDIR/elsewhere"
  PATH="$tools" run /bin/sh -c "$cmd" <<<"$CLAUDE_RM"
  assert_success
  assert_equal "$(jq -r '.hookSpecificOutput.permissionDecision' <<<"$output")" deny
  assert_equal "$(jq -r '.hookSpecificOutput.permissionDecisionReason' <<<"$output")" 'guard: no rm -rf'
}

@test "the printed Codex command blocks with exit 2 and the reason on stderr, from another directory" {
  $HERMES_HOOKS_CLI print-config codex --home "$HH" >"$BATS_TEST_TMPDIR/codex.json" 2>"$BATS_TEST_TMPDIR/notes.txt"
  grep -q 'skips an untrusted one without' "$BATS_TEST_TMPDIR/notes.txt"
  grep -q -- '--dangerously-bypass-hook-trust' "$BATS_TEST_TMPDIR/notes.txt"
  cmd=$(snippet_command codex PreToolUse "$BATS_TEST_TMPDIR/codex.json")
  cd "$BATS_TEST_TMPDIR/elsewhere"
  run --separate-stderr sh -c "$cmd" <<<"$CLAUDE_RM"
  assert_failure 2
  assert_output ''
  assert_equal "$stderr" 'guard: no rm -rf'
}

@test "a broken config.yaml: Claude gets a deny naming the YAML error, not an exit 1 that lets the call through" {
  printf 'hooks:\n  pre_tool_call: [\n' >"$HH/config.yaml"
  run --separate-stderr $HERMES_HOOKS_CLI run PreToolUse --dialect claude --home "$HH" <<<"$CLAUDE_RM"
  assert_success
  assert_equal "$(jq -r '.hookSpecificOutput.permissionDecision' <<<"$output")" deny
  reason=$(jq -r '.hookSpecificOutput.permissionDecisionReason' <<<"$output")
  [[ $reason == "hermes-hooks cannot decide, so it blocks this call: cannot use config: $HH/config.yaml:3:1: YAML syntax error"* ]]
  [[ $reason == *'add --fail-open to the hook command'* ]]
}

@test "a directory given as --config: Codex gets exit 2 with the problem as the reason" {
  run --separate-stderr $HERMES_HOOKS_CLI run PreToolUse --dialect codex --config "$HH" <<<"$CLAUDE_RM"
  assert_failure 2
  assert_output ''
  assert_equal "$stderr" "hermes-hooks cannot decide, so it blocks this call: cannot use config: $HH: cannot read config file: it is a directory (fix that, or add --fail-open to the hook command to let calls through while hermes-hooks cannot decide)"
}

@test "garbage on stdin blocks a Gemini tool call; --fail-open makes it an exit 1 instead" {
  run --separate-stderr $HERMES_HOOKS_CLI run BeforeTool --dialect gemini --home "$HH" <<<'{not json'
  assert_success
  assert_equal "$(jq -r .decision <<<"$output")" deny
  run --separate-stderr $HERMES_HOOKS_CLI run BeforeTool --dialect gemini --home "$HH" --fail-open <<<'{not json'
  assert_failure 1
  assert_output ''
  [[ $stderr == *'(--fail-open: the call goes ahead unguarded)' ]]
}

@test "run PreToolUse --dialect claude: stderr says nothing about other events' unapproved hooks" {
  local other="$BATS_TEST_TMPDIR/other.sh"
  printf '#!/usr/bin/env bash\necho "{}"\n' >"$other"
  chmod +x "$other"
  printf '  post_tool_call:\n    - command: %s\n  on_session_start:\n    - command: %s\n' "$other" "$other" >>"$HH/config.yaml"
  run --separate-stderr $HERMES_HOOKS_CLI run PreToolUse --dialect claude --home "$HH" <<<"$CLAUDE_RM"
  assert_success
  assert_equal "$stderr" ''
  assert_equal "$(jq -r .hookSpecificOutput.permissionDecision <<<"$output")" deny
  # The event the unapproved hook belongs to still says so, with the command that approves it.
  run --separate-stderr $HERMES_HOOKS_CLI run PostToolUse --dialect claude --home "$HH" <<<"${CLAUDE_RM/PreToolUse/PostToolUse}"
  assert_success
  assert_equal "$stderr" "hermes-hooks: warning: shell hook for post_tool_call ($other) is not approved — skipped. Approve it with \`hermes-hooks approve --event post_tool_call $other\`, or use --accept-hooks / HERMES_ACCEPT_HOOKS=1 / hooks_auto_accept: true."
}

@test "doctor --agent codex on a hooks.json with an npx command: ✗ with the fix, exit 1" {
  mkdir -p "$BATS_TEST_TMPDIR/home/.codex"
  cat >"$BATS_TEST_TMPDIR/home/.codex/hooks.json" <<'EOF'
{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"npx --no hermes-hooks run PreToolUse --dialect codex","timeout":310}]}]}}
EOF
  cd "$BATS_TEST_TMPDIR/elsewhere"
  HOME="$BATS_TEST_TMPDIR/home" run $HERMES_HOOKS_CLI doctor --agent codex --home "$HH"
  assert_failure 1
  assert_output --partial "✗ runs through npx: ~1.2 s per call, and outside a project with hermes-hooks installed npx exits 1, which Codex reads as \"go ahead\" — every guard fails open. 'hermes-hooks print-config codex' prints the absolute command."
  assert_output --partial "✗ not trusted: $BATS_TEST_TMPDIR/home/.codex/config.toml does not exist, so no trust is recorded and Codex skips this hook without a word"
}

@test "doctor --agent codex: print-config's own snippet passes once Codex has a trust record for it" {
  mkdir -p "$BATS_TEST_TMPDIR/home/.codex"
  $HERMES_HOOKS_CLI print-config codex --home "$HH" >"$BATS_TEST_TMPDIR/home/.codex/hooks.json" 2>/dev/null
  file="$BATS_TEST_TMPDIR/home/.codex/hooks.json"
  for ev in pre_tool_use post_tool_use user_prompt_submit stop session_start; do
    printf '[hooks.state."%s:%s:0:0"]\ntrusted_hash = "sha256:0"\n\n' "$file" "$ev"
  done >"$BATS_TEST_TMPDIR/home/.codex/config.toml"
  cd "$BATS_TEST_TMPDIR/elsewhere"
  HOME="$BATS_TEST_TMPDIR/home" run $HERMES_HOOKS_CLI doctor --agent codex --home "$HH"
  assert_success
  assert_output --partial 'codex: every hermes-hooks entry will run.'
}

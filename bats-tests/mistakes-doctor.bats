#!/usr/bin/env bats
# Everyday mistakes that leave a guard not guarding, driven through the real CLI as a user types
# them: each must end in a ✗ with the fix and a non-zero exit (doctor), a warning instead of a clean
# ✓ (test), or — under HERMES_SAFE_MODE — nothing run at all. One profile home per test.

setup() {
  load test_helper
  _common_setup
  CONFIG="$HERMES_HOME/config.yaml"
}

# guard COMMAND — a pre_tool_call hooks: block with one fail_closed entry.
guard() {
  printf 'hooks:\n  pre_tool_call:\n    - command: "%s"\n      fail_closed: true\n' "$1" >"$CONFIG"
}

@test "an approved fail_closed guard that prints garbage: doctor ✗ 'fails closed', exit 1" {
  local g
  g=$(hook garbage.sh 'echo "Traceback (most recent call last):"')
  guard "$g"
  hh approve --all >/dev/null
  run --separate-stderr hh doctor
  assert_failure 1
  assert_line "      ✓ script exists and is executable ($g)"
  assert_line --regexp '^      ✓ approved \('
  assert_line --regexp '^      ✗ fails closed on the synthetic payload: every call it matches will be blocked: unparseable stdout \(expected a JSON object\) \(exit=0, [0-9.]+s\) — stdout is not valid JSON, so the hook failed closed: "Traceback \(most recent call last\):"$'
  assert_line '1 issue(s) found.  Fix before relying on these hooks.'

  run --separate-stderr hh doctor --json
  assert_failure 1
  assert_equal "$(jq -r '.hooks[0].fails_closed' <<<"$output")" true
  assert_equal "$(jq -r '.healthy' <<<"$output")" false
}

@test "an approved fail_closed guard that exits 3: doctor ✗ 'fails closed', exit 1" {
  local g
  g=$(hook crash.sh 'echo "ImportError: no module named yaml" >&2; exit 3')
  guard "$g"
  hh approve --all >/dev/null
  run --separate-stderr hh doctor
  assert_failure 1
  assert_line --regexp '^      ✗ fails closed on the synthetic payload: every call it matches will be blocked: exited with status 3 without a directive \(exit=3, [0-9.]+s\)$'
}

@test "a non-executable script: doctor ✗ with chmod +x, still 'approved', never 'approve the hook first'" {
  local g
  g=$(hook noexec.sh 'echo "{}"' 644)
  guard "$g"
  hh approve --all >/dev/null
  run --separate-stderr hh doctor
  assert_failure 1
  assert_line "      ✗ not executable: $g — run: chmod +x $g (being fail_closed, it blocks every call it matches until then)"
  assert_line --regexp '^      ✓ approved \('
  assert_line '      ℹ skipped smoke run — fix the problem above first, then re-run doctor'
  refute_line --partial 'approve the hook first'

  chmod +x "$g"
  run --separate-stderr hh doctor
  assert_success
  assert_line 'All hooks look healthy.'
}

@test "a missing script: doctor ✗ 'file not found' naming the config line, and no '✓ approved'" {
  printf '# my guards\nhooks:\n  pre_tool_call:\n    - command: "%s"\n' "$HERMES_HOME/typo.sh" >"$CONFIG"
  run --separate-stderr hh doctor
  assert_failure 1
  assert_line "      ✗ file not found: $HERMES_HOME/typo.sh — fix the path in $CONFIG line 4"
  refute_line --partial '✓ approved'
}

@test "an approved script deleted afterwards: doctor ✗ 'file not found', never 'approve the hook first'" {
  local g
  g=$(hook gone.sh 'echo "{}"')
  guard "$g"
  hh approve --all >/dev/null
  rm "$g"
  run --separate-stderr hh doctor
  assert_failure 1
  assert_line "      ✗ file not found: $g — fix the path in $CONFIG line 3 (being fail_closed, it blocks every call it matches until then)"
  assert_line --regexp '^      ℹ an approval is recorded \(.*\), but there is no script to run — fix the path, then approve it again$'
  assert_line '      ℹ skipped smoke run — fix the problem above first, then re-run doctor'
  refute_line --partial 'approve the hook first'
}

@test "a hook that prints non-JSON: test shows a warning, not ✓ ok" {
  local h
  h=$(hook chatty.sh 'echo "checking the command..."')
  printf 'hooks:\n  pre_tool_call:\n    - command: "%s"\n' "$h" >"$CONFIG"
  run --separate-stderr hh test pre_tool_call
  assert_success
  assert_line --regexp "^  #0 ! unreadable stdout +exit 0 .* $h \[not approved\]$"
  assert_line '      warning: stdout is not valid JSON, so it was ignored: "checking the command..."'
  refute_line --partial '✓ ok'

  run --separate-stderr hh test pre_tool_call --json
  assert_equal "$(jq -r '.hooks[0].status' <<<"$output")" ok
  assert_equal "$(jq -r '.hooks[0].warning' <<<"$output")" 'stdout is not valid JSON, so it was ignored: "checking the command..."'
}

@test "HERMES_SAFE_MODE=1 test runs nothing (a hook that would create a file does not), exit 0; --ignore-safe-mode runs it" {
  local h
  h=$(hook creates.sh 'touch "$HERMES_HOME/created"; echo "{\"action\":\"block\",\"message\":\"guarded\"}"')
  printf 'hooks:\n  pre_tool_call:\n    - command: "%s"\n' "$h" >"$CONFIG"
  HERMES_SAFE_MODE=1 run --separate-stderr hh test pre_tool_call
  assert_success
  assert_line 'HERMES_SAFE_MODE is set: nothing was run — 1 hook(s) would run without it; --ignore-safe-mode runs them.'
  assert_line 'Decision: ALLOW'
  [[ ! -e $HERMES_HOME/created ]]

  HERMES_SAFE_MODE=1 run --separate-stderr hh test pre_tool_call --json
  assert_success
  assert_equal "$(jq -r '.hooks[0].status' <<<"$output")" safe_mode
  [[ ! -e $HERMES_HOME/created ]]

  HERMES_SAFE_MODE=1 run --separate-stderr hh test pre_tool_call --ignore-safe-mode --json
  assert_failure 2
  assert_equal "$(jq -r '.production.differs' <<<"$output")" true
  assert_equal "$(jq -r '.production.decision.action' <<<"$output")" allow
  [[ -e $HERMES_HOME/created ]]
}

@test "a modified fail_closed guard: test says run would block, in one line" {
  local g
  g=$(hook guard.sh 'cat >/dev/null; echo "{}"')
  guard "$g"
  hh approve --all >/dev/null
  echo '# edited' >>"$g"
  run --separate-stderr hh test pre_tool_call
  assert_success
  assert_line 'Decision: ALLOW'
  assert_line "Production: \`hermes-hooks run\` would BLOCK, not ALLOW: #0 ($g) is modified since approval and fail_closed: it blocks every call it matches without running — approve with \`hermes-hooks approve\`"
}

@test "HERMES_SAFE_MODE=1 doctor runs no smoke run and says so" {
  local h
  h=$(hook creates.sh 'touch "$HERMES_HOME/created"; echo "{}"')
  printf 'hooks:\n  pre_llm_call:\n    - command: "%s"\n' "$h" >"$CONFIG"
  hh approve --all >/dev/null
  HERMES_SAFE_MODE=1 run --separate-stderr hh doctor
  assert_success
  assert_line --index 0 'HERMES_SAFE_MODE is set: no smoke run and no webhook ping — in safe mode no user hook, plugin or webhook runs.'
  assert_line '      ℹ skipped smoke run — HERMES_SAFE_MODE is set: nothing runs in safe mode'
  [[ ! -e $HERMES_HOME/created ]]
}

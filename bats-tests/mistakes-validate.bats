#!/usr/bin/env bats
# Issue 16: everyday config mistakes that leave a guard quietly not guarding. Each is written the
# way a user would write it, then checked with `hermes-hooks validate` as they would type it: the
# exact diagnostic line (file:line:col: level: path: message) and exit 1.

setup() {
  load test_helper
  _common_setup
  # `hermes-hooks` on PATH, as after `npm install -g`.
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  printf '#!/bin/sh\nexec node %q "$@"\n' "$PROJECT_ROOT/dist/cli/bin.js" >"$BATS_TEST_TMPDIR/bin/hermes-hooks"
  chmod +x "$BATS_TEST_TMPDIR/bin/hermes-hooks"
  PATH="$BATS_TEST_TMPDIR/bin:$PATH"
  CONFIG="$HERMES_HOME/config.yaml"
  GUARD="$HERMES_HOME/guard.sh"
  printf '#!/usr/bin/env bash\ncat >/dev/null\n' >"$GUARD"
  chmod +x "$GUARD"
}

# validate_reports LINE — `hermes-hooks validate` exits 1 and prints LINE (after "$CONFIG:").
validate_reports() {
  run --separate-stderr hermes-hooks validate
  assert_failure 1
  assert_line "$CONFIG:$1"
}

@test "a misspelled matcher, timeout and fail_closed: the guard would run for every tool and fail open" {
  cat >"$CONFIG" <<EOF
hooks:
  pre_tool_call:
    - command: $GUARD
      matchr: terminal
      timout: 5
      failclosed: true
EOF
  validate_reports "4:7: warning: hooks.pre_tool_call[0].matchr: unknown key 'matchr' — did you mean 'matcher'? As written it is ignored, so this hook will run for every tool"
  assert_line "$CONFIG:5:7: warning: hooks.pre_tool_call[0].timout: unknown key 'timout' — did you mean 'timeout'? As written it is ignored, so this hook gets the default timeout of 60s"
  assert_line "$CONFIG:6:7: warning: hooks.pre_tool_call[0].failclosed: unknown key 'failclosed' — did you mean 'fail_closed'? As written it is ignored, so this hook is not fail_closed: a failure will allow the call"
  assert_line "$CONFIG: 3 problem(s)"
}

@test "hooks: written as a list is an error: none of its hooks are registered" {
  cat >"$CONFIG" <<EOF
hooks:
  - pre_tool_call:
      - command: $GUARD
EOF
  validate_reports "2:3: error: hooks: must be a mapping of event name to a list of hooks (hooks: {pre_tool_call: [{command: …}]}); got list — none of its hooks are registered"
}

@test "hooks: as a scalar is an error" {
  printf 'hooks: pre_tool_call\n' >"$CONFIG"
  validate_reports "1:8: error: hooks: must be a mapping of event name to a list of hooks (hooks: {pre_tool_call: [{command: …}]}); got str — none of its hooks are registered"
}

@test "a top-level hook: typo → did you mean 'hooks'" {
  cat >"$CONFIG" <<EOF
model: anthropic/claude-opus-4
hook:
  pre_tool_call:
    - command: $GUARD
EOF
  validate_reports "2:1: warning: hook: unknown top-level key — did you mean 'hooks'? As written, none of the hooks under it are registered"
}

@test "a misspelled hooks_auto_accept at the top level is named; Hermes' own sections never are" {
  cat >"$CONFIG" <<EOF
model: {default: anthropic/claude-opus-4, provider: openrouter}
toolsets: [hermes-cli]
tools: {}
terminal: {backend: local}
display: {compact: false}
memory: {memory_enabled: true}
hooks_auto_acept: true
EOF
  validate_reports "7:1: warning: hooks_auto_acept: unknown top-level key — did you mean 'hooks_auto_accept'? As written, hooks are not auto-accepted, so an unapproved hook does not run unattended"
  assert_line "$CONFIG: 1 problem(s)"
}

@test "a hook event at the top level (hooks: forgotten) is an error" {
  cat >"$CONFIG" <<EOF
pre_tool_call:
  - command: $GUARD
EOF
  validate_reports "1:1: error: pre_tool_call: a hook event at the top level is not read — indent it under hooks: (as written, none of its hooks are registered)"
}

@test "an event written as a mapping or a scalar is an error" {
  cat >"$CONFIG" <<EOF
hooks:
  pre_tool_call:
    command: $GUARD
  post_tool_call: $GUARD
EOF
  validate_reports "3:5: error: hooks.pre_tool_call must be a list of hook definitions; got dict — write each hook as a list item: \`- command: …\`"
  assert_line "$CONFIG:4:19: error: hooks.post_tool_call must be a list of hook definitions; got str"
}

@test "an entry that is not a mapping is an error" {
  cat >"$CONFIG" <<EOF
hooks:
  pre_tool_call:
    - $GUARD
EOF
  validate_reports "3:7: error: hooks.pre_tool_call[0] must be a mapping with a 'command' key; got str — write it as: - command: \"$GUARD\""
}

@test "an unterminated quote or a trailing backslash: the hook can never start" {
  cat >"$CONFIG" <<EOF
hooks:
  pre_tool_call:
    - command: "$GUARD 'oops"
      fail_closed: true
    - command: '$GUARD \\'
EOF
  validate_reports "3:16: error: hooks.pre_tool_call[0].command: command '$GUARD 'oops' cannot be parsed: No closing quotation — this hook can never start (as fail_closed it blocks every call it matches); fix the quoting"
  assert_line "$CONFIG:5:16: error: hooks.pre_tool_call[1].command: command '$GUARD \\' cannot be parsed: No escaped character — this hook can never start (each failure is only a warning and the call goes ahead); fix the quoting"
}

@test "shell syntax in a command that runs without a shell, each with its bash -c rewrite (a script file where a bash -c approval could not pin what runs)" {
  cat >"$CONFIG" <<'EOF'
hooks:
  pre_tool_call:
    - command: echo '{"action":"block"}' | cat
    - command: /opt/guard.sh && echo ok
    - command: /opt/guard.sh --log; echo done
    - command: /opt/guard.sh > /tmp/guard.log
    - command: /opt/guard.sh --since $(date +%s)
    - command: /opt/guard.sh --user `whoami`
    - command: /opt/guard.sh --home $HOME
EOF
  validate_reports "3:16: warning: hooks.pre_tool_call[0].command: runs without a shell, so the pipe '|' is passed to echo as literal text — write: bash -c 'echo '\\''{\"action\":\"block\"}'\\'' | cat' — or move it into a script"
  assert_line "$CONFIG:4:16: warning: hooks.pre_tool_call[1].command: runs without a shell, so the and-list '&&' is passed to /opt/guard.sh as literal text — write: bash -c '/opt/guard.sh && echo ok' — or move it into a script"
  assert_line "$CONFIG:5:16: warning: hooks.pre_tool_call[2].command: runs without a shell, so the command separator ';' is passed to /opt/guard.sh as literal text — write: bash -c '/opt/guard.sh --log; echo done' — or move it into a script"
  assert_line "$CONFIG:6:16: warning: hooks.pre_tool_call[3].command: runs without a shell, so the redirection '>' is passed to /opt/guard.sh as literal text — write: bash -c '/opt/guard.sh > /tmp/guard.log' — or move it into a script"
  assert_line "$CONFIG:7:16: warning: hooks.pre_tool_call[4].command: runs without a shell, so the command substitution '\$(…)' is passed to /opt/guard.sh as literal text — move it into a script file and make that script the command (as bash -c code it could not be approved: the command substitution '\$(…)' hides what it runs from the approval's pin)"
  assert_line "$CONFIG:8:16: warning: hooks.pre_tool_call[5].command: runs without a shell, so the command substitution '\`whoami\`' is passed to /opt/guard.sh as literal text — move it into a script file and make that script the command (as bash -c code it could not be approved: the command substitution '\`whoami\`' hides what it runs from the approval's pin)"
  assert_line "$CONFIG:9:16: warning: hooks.pre_tool_call[6].command: runs without a shell, so the variable '\$HOME' is passed to /opt/guard.sh as literal text — write: bash -c '/opt/guard.sh --home \$HOME' — or move it into a script"
  assert_line "$CONFIG: 7 problem(s)"
}

@test "a leading VAR=value or a variable in the program: the hook never starts (error)" {
  cat >"$CONFIG" <<'EOF'
hooks:
  pre_tool_call:
    - command: DEBUG=1 /opt/guard.sh
    - command: $HOME/hooks/guard.sh
EOF
  validate_reports "3:16: error: hooks.pre_tool_call[0].command: runs without a shell, so the assignment 'DEBUG=1' is taken as the program name and this hook never starts — write: env DEBUG=1 /opt/guard.sh (or bash -c 'DEBUG=1 /opt/guard.sh')"
  assert_line "$CONFIG:4:16: error: hooks.pre_tool_call[1].command: runs without a shell, so the variable '\$HOME' is not interpreted: the program '\$HOME/hooks/guard.sh' does not exist and this hook never starts — move it into a script file and make that script the command (as bash -c code it could not be approved: the variable '\$HOME' hides what it runs from the approval's pin)"
}

@test "the suggested rewrite validates clean when pasted back" {
  cat >"$CONFIG" <<'EOF'
hooks:
  pre_tool_call:
    - command: bash -c '/opt/guard.sh --home $HOME | tee -a /tmp/guard.log'
    - command: env DEBUG=1 /opt/guard.sh
EOF
  run --separate-stderr hermes-hooks validate
  assert_success
  assert_output "$CONFIG: ok (2 shell hook(s), 0 outbound target(s))"
}

@test "matchers that match no tool Hermes calls → did you mean" {
  cat >"$CONFIG" <<EOF
hooks:
  pre_tool_call:
    - command: $GUARD
      matcher: Terminal
    - command: $GUARD --claude
      matcher: bash
    - command: $GUARD --claude-dialect
      matcher: bash
      dialect: claude
EOF
  validate_reports "4:16: warning: hooks.pre_tool_call[0].matcher: matcher 'Terminal' matches no Hermes tool name (a matcher is case-sensitive and must match the whole name) — did you mean 'terminal'? As written, this hook never runs for it"
  assert_line "$CONFIG:6:16: warning: hooks.pre_tool_call[1].matcher: matcher 'bash' matches no Hermes tool name (a matcher is case-sensitive and must match the whole name) — did you mean 'terminal'? (bash is Copilot CLI's name for it; Hermes calls it terminal) As written, this hook never runs for it"
  assert_line "$CONFIG:8:16: warning: hooks.pre_tool_call[2].matcher: matcher 'bash' matches no Claude Code or Hermes tool name (a matcher is case-sensitive and must match the whole name) — did you mean 'Bash'? As written, this hook never runs for it"
}

@test "run <event> says it once on stderr, only for that event's hooks; the hooks still run" {
  cat >"$CONFIG" <<EOF
hooks:
  pre_tool_call:
    - command: $GUARD
      matchr: terminal
  post_tool_call:
    - command: $GUARD
      matcher: Terminal
EOF
  run --separate-stderr hermes-hooks run pre_tool_call --accept-hooks <<<'{"tool_name": "read_file", "tool_input": {"path": "x"}}'
  assert_success
  assert_equal "$(json_value action)" allow
  assert_equal "$stderr" "hermes-hooks: $CONFIG:4:7: warning: hooks.pre_tool_call[0].matchr: unknown key 'matchr' — did you mean 'matcher'? As written it is ignored, so this hook will run for every tool"
}

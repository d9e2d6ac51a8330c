#!/usr/bin/env bats
# scripts-examples/hooks/protect-env-files.py, run directly.

setup() {
  load test_helper
  _common_setup
  HOOK="$HOOKS/protect-env-files.py"
}

write_file() { # write_file PATH
  local args
  args=$(python3 -c 'import json, sys; print(json.dumps({"path": sys.argv[1], "content": "X=1\n"}))' "$1")
  run_with_stdin "$(wire_payload pre_tool_call write_file "$args")" "$HOOK"
}

terminal() { # terminal COMMAND
  run_with_stdin "$(terminal_payload "$1")" "$HOOK"
}

assert_blocked_write() { # assert_blocked_write TARGET-SUBSTRING
  assert_success
  assert_equal "$(json_value action)" block
  assert_regex "$(json_value message)" "^protect-env-files: refusing to write .*$1"
}

assert_silent_allow() {
  assert_success
  assert_output ''
}

@test "the write-env payload file is blocked with advice" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-write-env.json"
  assert_blocked_write '\.env'
  assert_regex "$(json_value message)" 'Edit \.env\.example instead'
  assert_equal "$stderr" ''
}

@test "the safe ls payload file is allowed silently" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-safe-ls.json"
  assert_silent_allow
}

@test "write_file to .env and .env.* is blocked, wherever it lives" {
  local path
  for path in .env ./.env /srv/app/.env config/.env.local .env.production .env.test.local; do
    write_file "$path"
    assert_blocked_write "$path"
  done
}

@test "env templates are writable" {
  local path
  for path in .env.example config/.env.example .env.sample .env.template .env.dist .env.EXAMPLE; do
    write_file "$path"
    assert_silent_allow
  done
}

@test "SSH private keys and .pem files are protected, public keys and look-alikes are not" {
  local path
  for path in ~/.ssh/id_rsa id_ed25519 /home/dev/.ssh/id_ecdsa certs/server.pem tls.pem; do
    write_file "$path"
    assert_blocked_write "$path"
  done
  for path in ~/.ssh/id_rsa.pub id_rsa_notes.md src/env.ts environment.py pem.txt .envrc; do
    write_file "$path"
    assert_silent_allow
  done
}

@test "patch by path is checked like write_file" {
  run_with_stdin "$(wire_payload pre_tool_call patch '{"path": ".env", "old_string": "A=1", "new_string": "A=2"}')" "$HOOK"
  assert_blocked_write '\.env'
  run_with_stdin "$(wire_payload pre_tool_call patch '{"path": "src/app.ts", "old_string": "a", "new_string": "b"}')" "$HOOK"
  assert_silent_allow
}

@test "the file headers inside a patch text are checked" {
  local v4a='*** Begin Patch\n*** Update File: deploy/.env.staging\n@@\n-A=1\n+A=2\n*** End Patch'
  run_with_stdin "$(wire_payload pre_tool_call patch "{\"mode\": \"patch\", \"patch\": \"$v4a\"}")" "$HOOK"
  assert_blocked_write 'deploy/\.env\.staging'

  local diff='--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1 +1 @@\n-a\n+b'
  run_with_stdin "$(wire_payload pre_tool_call patch "{\"mode\": \"patch\", \"patch\": \"$diff\"}")" "$HOOK"
  assert_silent_allow
}

@test "terminal redirects into protected files are blocked" {
  local cmd
  for cmd in 'echo "API_KEY=abc" >> .env' 'printf x > .env' 'env > .env.local' 'make 2>.env' \
    'cat secrets &> .env' 'echo k >| ~/.ssh/id_rsa' $'cat > .env <<EOF\nA=1\nEOF'; do
    terminal "$cmd"
    assert_success
    assert_equal "$(json_value action)" block
  done
}

@test "tee, sed -i, cp and mv onto protected files are blocked" {
  local cmd
  for cmd in 'echo A=1 | tee -a .env' 'echo A=1 | sudo tee .env.production' "sed -i 's/a/b/' .env" \
    "sed -i.bak -e 's/a/b/' config/.env.staging" "sed --in-place 's/a/b/' .env" "sed -Ei 's/a/b/' .env" \
    'cp .env.example .env' 'mv /tmp/new.pem certs/server.pem' 'cp .env .env.backup'; do
    terminal "$cmd"
    assert_success
    assert_equal "$(json_value action)" block
  done
}

@test "reading protected files and writing elsewhere is allowed" {
  local cmd
  for cmd in 'cat .env' 'grep DATABASE_URL .env > /tmp/db.txt' "sed 's/a/b/' .env" "sed -n 's/a/b/p' .env" \
    'cp .env.example .env.sample' 'source .env && npm start' 'ls 2>&1 >/dev/null' 'echo ".env" > .gitignore' \
    'diff .env .env.example' 'npm test'; do
    terminal "$cmd"
    assert_silent_allow
  done
}

@test "a command with unbalanced quotes is still checked" {
  terminal "echo 'oops >> .env"
  assert_success
  assert_equal "$(json_value action)" block
}

@test "tools other than write_file, patch and terminal are not its business" {
  run_with_stdin "$(wire_payload pre_tool_call read_file '{"path": ".env"}')" "$HOOK"
  assert_silent_allow
  run_with_stdin "$(wire_payload pre_tool_call write_file '{"content": "no path"}')" "$HOOK"
  assert_silent_allow
  run_with_stdin "$(wire_payload pre_tool_call write_file '')" "$HOOK"
  assert_silent_allow
}

@test "empty stdin is allowed silently" {
  run --separate-stderr "$HOOK" </dev/null
  assert_silent_allow
  assert_equal "$stderr" ''
}

@test "malformed JSON exits 1 with a reason on stderr and never prints a block" {
  local bad
  for bad in '{"tool_name": "write_file", "tool_input": {"path": ".env"' 'garbage' '[".env"]' 'null'; do
    run_with_stdin "$bad" "$HOOK"
    assert_failure 1
    assert_output ''
    assert_regex "$stderr" '^protect-env-files: stdin is not (valid JSON|a JSON object)'
  done
}

@test "invalid UTF-8 on stdin does not crash the hook" {
  local file="$BATS_TEST_TMPDIR/latin1.json"
  printf '{"tool_name": "write_file", "tool_input": {"path": "caf\xe9/.env"}}' >"$file"
  run --separate-stderr "$HOOK" <"$file"
  assert_success
  assert_equal "$(json_value action)" block
}

#!/usr/bin/env bats
# scripts-examples/hooks/verify-tests-ran.py, run directly.

setup() {
  load test_helper
  _common_setup
  HOOK="$HOOKS/verify-tests-ran.py"
}

verify() { # verify CHANGED_PATHS_JSON FINAL_RESPONSE [ATTEMPT]
  local extra
  extra=$(python3 -c '
import json, sys
print(json.dumps({"platform": "cli", "model": "m", "coding": True, "attempt": int(sys.argv[3]),
                  "final_response": sys.argv[2], "changed_paths": json.loads(sys.argv[1])}))
' "$1" "$2" "${3:-0}")
  run_with_stdin "$(wire_payload pre_verify '' '' "$extra")" "$HOOK"
}

assert_nudged() {
  assert_success
  assert_equal "$(json_value action)" continue
  assert_regex "$(json_value message)" '^You changed source files \(.*\) but your answer does not say whether the tests pass\.'
}

assert_silent() {
  assert_success
  assert_output ''
}

@test "the pre_verify payload file (source edits, no word about tests) keeps the turn going" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_verify.json"
  assert_nudged
  assert_regex "$(json_value message)" '\(src/api/client\.ts, src/api/retry\.ts\)'
  assert_equal "$stderr" ''
}

@test "the nudge names at most five files" {
  verify '["a.py", "b.py", "c.py", "d.py", "e.py", "f.py", "g.py"]' 'Refactored the parser.'
  assert_nudged
  assert_regex "$(json_value message)" '\(a\.py, b\.py, c\.py, d\.py, e\.py and 2 more\)'
}

@test "an answer that mentions tests ends the turn normally" {
  local answer
  for answer in 'Done. All 148 tests pass.' 'Ran pytest: green.' 'I could not run the test suite because Docker is missing.' \
    'Tested locally with `npm test`.' 'vitest: 12 files passed' 'Added specs for the retry helper.'; do
    verify '["src/app.tsx"]' "$answer"
    assert_silent
  done
}

@test "docs-only and config-only changes are not nudged" {
  verify '["README.md", "docs/guide.md", "package.json", ".github/workflows/ci.yml", "CHANGELOG.md"]' 'Updated the docs.'
  assert_silent
}

@test "words that merely contain 'test' do not count as mentioning tests" {
  verify '["src/app.ts"]' 'Bumped to the latest contest attestation format.'
  assert_nudged
}

@test "from the third attempt on it stays silent" {
  verify '["src/app.ts"]' 'Done.' 1
  assert_nudged
  verify '["src/app.ts"]' 'Done.' 2
  assert_silent
}

@test "missing or odd fields are silent, never a crash" {
  run_with_stdin '{"hook_event_name": "pre_verify", "extra": {"changed_paths": "src/a.py"}}' "$HOOK"
  assert_silent
  run_with_stdin '{"hook_event_name": "pre_verify", "extra": {"changed_paths": [1, null, "README"]}}' "$HOOK"
  assert_silent
  run_with_stdin '{"hook_event_name": "pre_verify", "extra": {"changed_paths": ["a.go"], "final_response": null}}' "$HOOK"
  assert_nudged
  run_with_stdin '{"hook_event_name": "pre_verify", "extra": {"changed_paths": ["a.go"], "attempt": true}}' "$HOOK"
  assert_nudged
}

@test "empty stdin, malformed JSON and payloads without extra: exit 0, no output" {
  run --separate-stderr "$HOOK" </dev/null
  assert_silent
  local bad
  for bad in '{"extra": {' 'nope' '[]' '{"hook_event_name": "pre_verify"}'; do
    run_with_stdin "$bad" "$HOOK"
    assert_silent
    assert_regex "$stderr" '^verify-tests-ran: '
  done
}

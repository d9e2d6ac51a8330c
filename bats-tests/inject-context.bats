#!/usr/bin/env bats
# scripts-examples/hooks/inject-context.py, run directly.

setup() {
  load test_helper
  _common_setup
  HOOK="$HOOKS/inject-context.py"
  REPO="$BATS_TEST_TMPDIR/webapp"
  export GIT_AUTHOR_NAME=bats GIT_AUTHOR_EMAIL=bats@example.com
  export GIT_COMMITTER_NAME=bats GIT_COMMITTER_EMAIL=bats@example.com
}

make_repo() { # a repo on branch main with one commit
  git init -q -b main "$REPO"
  echo 'console.log(1)' >"$REPO/app.js"
  git -C "$REPO" add app.js
  git -C "$REPO" -c commit.gpgsign=false commit -q -m init
}

llm_payload() { # llm_payload CWD
  wire_payload pre_llm_call '' '' '{"user_message": "fix the bug", "is_first_turn": true, "platform": "cli"}' "$1"
}

@test "in a clean repo: the branch and a clean tree" {
  make_repo
  run_with_stdin "$(llm_payload "$REPO")" "$HOOK"
  assert_success
  assert_equal "$(json_value context)" $'Git branch: main\nWorking tree clean.'
  assert_equal "$stderr" ''
}

@test "uncommitted and untracked files are listed" {
  make_repo
  echo 'console.log(2)' >"$REPO/app.js"
  echo new >"$REPO/notes.md"
  run_with_stdin "$(llm_payload "$REPO")" "$HOOK"
  assert_success
  assert_regex "$(json_value context)" 'Uncommitted changes in 2 file\(s\): (app\.js, notes\.md|notes\.md, app\.js)'
}

@test "more than 20 dirty files are summarised" {
  make_repo
  local i
  for i in $(seq 1 25); do echo "$i" >"$REPO/f$i.txt"; done
  run_with_stdin "$(llm_payload "$REPO")" "$HOOK"
  assert_regex "$(json_value context)" 'Uncommitted changes in 25 file\(s\): .*\(\+5 more\)$'
}

@test "another branch, a detached HEAD and a repo with no commits" {
  make_repo
  git -C "$REPO" checkout -q -b feature/retry
  run_with_stdin "$(llm_payload "$REPO")" "$HOOK"
  assert_regex "$(json_value context)" '^Git branch: feature/retry'

  git -C "$REPO" checkout -q --detach
  run_with_stdin "$(llm_payload "$REPO")" "$HOOK"
  assert_regex "$(json_value context)" '^Git branch: \(detached at [0-9a-f]+\)'

  git init -q -b trunk "$BATS_TEST_TMPDIR/empty"
  run_with_stdin "$(llm_payload "$BATS_TEST_TMPDIR/empty")" "$HOOK"
  assert_regex "$(json_value context)" '^Git branch: trunk'
}

@test "the project policy from .hermes/POLICY.md at the repo top is added, also from a subdirectory" {
  make_repo
  mkdir -p "$REPO/.hermes" "$REPO/src/api"
  printf 'Never touch migrations/.\nRun npm test before finishing.\n' >"$REPO/.hermes/POLICY.md"
  run_with_stdin "$(llm_payload "$REPO/src/api")" "$HOOK"
  assert_success
  assert_regex "$(json_value context)" $'^Git branch: main\n.*\n\nProject policy \\(\\.hermes/POLICY\\.md\\):\nNever touch migrations/\\.\nRun npm test before finishing\\.$'
}

@test "a policy file outside any repo is used on its own" {
  mkdir -p "$BATS_TEST_TMPDIR/plain/.hermes"
  echo 'Answer in French.' >"$BATS_TEST_TMPDIR/plain/.hermes/POLICY.md"
  run_with_stdin "$(llm_payload "$BATS_TEST_TMPDIR/plain")" "$HOOK"
  assert_success
  assert_equal "$(json_value context)" $'Project policy (.hermes/POLICY.md):\nAnswer in French.'
}

@test "a huge policy is cut to 4000 characters" {
  mkdir -p "$BATS_TEST_TMPDIR/plain/.hermes"
  python3 -c 'print("x" * 10000)' >"$BATS_TEST_TMPDIR/plain/.hermes/POLICY.md"
  run_with_stdin "$(llm_payload "$BATS_TEST_TMPDIR/plain")" "$HOOK"
  assert_regex "$(json_value context)" '\[… policy truncated\]$'
  assert [ "$(json_value context | wc -c)" -lt 4200 ]
}

@test "nothing to say outside a repo without a policy: no output at all" {
  mkdir -p "$BATS_TEST_TMPDIR/plain"
  run_with_stdin "$(llm_payload "$BATS_TEST_TMPDIR/plain")" "$HOOK"
  assert_success
  assert_output ''
  assert_equal "$stderr" ''
}

@test "the pre_llm_call payload file (cwd that does not exist here) is silent" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_llm_call.json"
  assert_success
  assert_output ''
}

@test "an empty cwd falls back to the hook's own working directory" {
  make_repo
  cd "$REPO"
  run_with_stdin "$(llm_payload '')" "$HOOK"
  assert_success
  assert_regex "$(json_value context)" '^Git branch: main'
}

@test "an empty policy file adds nothing" {
  mkdir -p "$BATS_TEST_TMPDIR/plain/.hermes"
  : >"$BATS_TEST_TMPDIR/plain/.hermes/POLICY.md"
  run_with_stdin "$(llm_payload "$BATS_TEST_TMPDIR/plain")" "$HOOK"
  assert_output ''
}

@test "empty stdin, malformed JSON and non-objects: exit 0, no output" {
  run --separate-stderr "$HOOK" </dev/null
  assert_success
  assert_output ''
  local bad
  for bad in '{"cwd": "/tmp"' 'hello' '[]'; do
    run_with_stdin "$bad" "$HOOK"
    assert_success
    assert_output ''
    assert_regex "$stderr" '^inject-context: stdin is not'
  done
}

@test "the hook never leaves a git index lock behind" {
  make_repo
  echo change >>"$REPO/app.js"
  run_with_stdin "$(llm_payload "$REPO")" "$HOOK"
  assert_success
  assert [ ! -e "$REPO/.git/index.lock" ]
}

#!/usr/bin/env bats
# scripts-examples/hooks/block-destructive.sh, run directly: payload on stdin, JSON on stdout.

setup() {
  load test_helper
  _common_setup
  HOOK="$HOOKS/block-destructive.sh"
}

# Runs the hook on a terminal command; the payload's cwd is $2 (default /tmp).
judge() {
  run_with_stdin "$(terminal_payload "$1" "${2:-/tmp}")" "$HOOK"
}

assert_block_json() { # assert_block_json [message-substring]
  assert_success
  assert_equal "$(json_value action)" block
  [[ -z ${1-} ]] || assert_regex "$(json_value message)" "$1"
}

assert_silent_allow() {
  assert_success
  assert_output ''
}

@test "the rm -rf payload file is blocked with a reason" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_block_json 'root filesystem'
  assert_equal "$stderr" ''
}

@test "the safe ls payload file is allowed silently" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-safe-ls.json"
  assert_silent_allow
  assert_equal "$stderr" ''
}

@test "the git push --force to main payload file is blocked" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-git-push-force.json"
  assert_block_json 'force push to main'
}

@test "stdout is exactly one compact JSON object line" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_equal "${#lines[@]}" 1
  assert_output --regexp '^\{"action":"block","message":"block-destructive: .*"\}$'
}

@test "rm -rf / and its variants are blocked" {
  local cmd
  for cmd in 'rm -rf /' 'rm -rf / ' 'rm -fr /*' 'rm -Rf /' 'rm -r -f /' 'rm --recursive --force /' \
    'rm -rf //' 'rm -rf "/"' 'cd /tmp && rm -rf /' 'bash -c "rm -rf /"' '/bin/rm -rf /' \
    'rm -rf -- /' 'echo cleaning; rm -rf /*'; do
    judge "$cmd"
    assert_block_json 'root filesystem'
  done
}

@test "rm --no-preserve-root is blocked on its own" {
  judge 'sudo rm -rf --no-preserve-root /'
  assert_block_json 'no-preserve-root'
}

@test "recursive rm of the home directory is blocked in every spelling" {
  local cmd
  for cmd in 'rm -rf ~' 'rm -rf ~/' 'rm -rf ~/*' 'rm -rf "$HOME"' 'rm -rf ${HOME}' 'rm -rf $HOME/*' \
    "rm -rf $HOME"; do
    judge "$cmd"
    assert_block_json 'home directory'
  done
}

@test "recursive rm of a top-level system directory is blocked" {
  judge 'sudo rm -rf /etc'
  assert_block_json '/etc'
  judge 'rm -r /usr/'
  assert_block_json '/usr'
}

@test "ordinary deletes are allowed" {
  local cmd
  for cmd in 'rm -rf ./node_modules' 'rm -rf /tmp/build' 'rm -rf ~/project/dist' 'rm -f /' \
    'rm -rf /var/tmp/cache/*' 'rm notes.txt' 'git rm -r --cached dist'; do
    judge "$cmd"
    assert_silent_allow
  done
}

@test "force pushes to main or master are blocked in every spelling" {
  local cmd
  for cmd in 'git push --force origin main' 'git push -f origin master' 'git push origin main --force' \
    'git push --force-with-lease origin main' 'git push --force-with-lease=main origin main' \
    'git push origin +main' 'git push -f origin HEAD:main' 'git push -uf origin main' \
    'git push --force origin refs/heads/master' 'git -C app push -f origin main'; do
    judge "$cmd"
    assert_block_json 'force push to (main|master)'
  done
}

@test "git push --mirror and forced --all are blocked" {
  judge 'git push --mirror backup'
  assert_block_json 'mirror'
  judge 'git push --all --force origin'
  assert_block_json 'all branches'
}

@test "normal pushes and forced pushes of feature branches are allowed" {
  local cmd
  for cmd in 'git push origin main' 'git push -u origin main' 'git push --force origin feature/login' \
    'git push -f origin main-backup' 'git push --follow-tags' 'git commit -m "force push to main later"'; do
    judge "$cmd"
    assert_silent_allow
  done
}

@test "a bare git push -f is judged by the branch checked out in the payload's cwd" {
  local repo="$BATS_TEST_TMPDIR/repo"
  git init -q -b main "$repo"
  judge 'git push -f' "$repo"
  assert_block_json 'force push to main'

  git -C "$repo" checkout -q -b feature/x
  judge 'git push -f' "$repo"
  assert_silent_allow
}

@test "a bare git push -f outside a repository is allowed" {
  judge 'git push --force' "$BATS_TEST_TMPDIR"
  assert_silent_allow
}

@test "mkfs in any form is blocked" {
  local cmd
  for cmd in 'mkfs.ext4 /dev/sdb1' 'sudo mkfs -t xfs /dev/nvme0n1' '/sbin/mkfs.vfat /dev/sdc'; do
    judge "$cmd"
    assert_block_json 'formats a filesystem'
  done
}

@test "dd onto a disk device is blocked, dd into a file is not" {
  judge 'dd if=/dev/zero of=/dev/sda bs=1M'
  assert_block_json 'of=/dev/sda'
  judge 'sudo dd if=ubuntu.iso of=/dev/nvme0n1 status=progress'
  assert_block_json 'nvme0n1'
  judge 'dd if=/dev/zero of=./disk.img bs=1M count=10'
  assert_silent_allow
  judge 'dd if=/dev/sda of=backup.img'
  assert_silent_allow
}

@test "redirecting onto a disk device is blocked, /dev/null is fine" {
  judge 'cat image.bin > /dev/sdb'
  assert_block_json '/dev/sdb'
  judge 'make 2>/dev/null >/dev/null'
  assert_silent_allow
}

@test "fork bombs are blocked" {
  local cmd
  for cmd in ':(){ :|:& };:' ':(){ :|: & }; :' 'bomb() { bomb | bomb & }; bomb' "perl -e 'fork while fork'"; do
    judge "$cmd"
    assert_block_json 'fork bomb'
  done
}

@test "a payload with no terminal command is allowed silently" {
  run_with_stdin "$(wire_payload pre_tool_call write_file '{"path": "README.md", "content": "x"}')" "$HOOK"
  assert_silent_allow
  run_with_stdin "$(wire_payload pre_tool_call terminal '{"command": 42}')" "$HOOK"
  assert_silent_allow
  run_with_stdin '{}' "$HOOK"
  assert_silent_allow
}

@test "empty stdin is allowed silently" {
  run --separate-stderr "$HOOK" </dev/null
  assert_silent_allow
  assert_equal "$stderr" ''
}

@test "malformed JSON is not a false block: exit 1 with a reason on stderr, nothing on stdout" {
  local bad
  for bad in '{"tool_input": {"command": "rm -rf /"' 'not json' '[1, 2]' '{"a": 1} {"b": 2}' '"rm -rf /"'; do
    run_with_stdin "$bad" "$HOOK"
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" 'block-destructive: stdin is not a JSON object, so the command cannot be checked'
  done
}

@test "without jq it cannot judge: exit 1 and says why (fail_closed in config.yaml turns this into a block)" {
  local only_bash
  only_bash=$(path_with_only bash cat)
  run --separate-stderr env PATH="$only_bash" "$HOOK" <"$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_failure 1
  assert_output ''
  assert_regex "$stderr" 'jq is not installed'
}

@test "a command with unicode and quotes is judged and the message stays valid JSON" {
  judge "echo 'héllo ✓' && rm -rf \"/\""
  assert_block_json 'root filesystem'
  judge "echo 'héllo ✓ \"quoted\"'"
  assert_silent_allow
}

@test "a long command is judged to its end" {
  local long
  long=$(python3 -c 'print("echo " + "héllo wörld; " * 3000, end="")')
  judge "$long rm -rf /"
  assert_block_json 'root filesystem'
  judge "$long ls"
  assert_silent_allow
}

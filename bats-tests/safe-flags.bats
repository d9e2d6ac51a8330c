#!/usr/bin/env bats
# scripts-examples/hooks/safe-flags.sh, run directly. This hook must work without jq.

setup() {
  load test_helper
  _common_setup
  HOOK="$HOOKS/safe-flags.sh"
}

rewrite() { # rewrite COMMAND — runs the hook on a terminal call
  run_with_stdin "$(terminal_payload "$1")" "$HOOK"
}

assert_rewritten_to() { # assert_rewritten_to COMMAND
  assert_success
  assert_equal "$(json_value action)" modify
  assert_equal "$(json_value args.command)" "$1"
  # only `command` is set: Hermes merges args over the originals, keeping timeout, workdir …
  assert_equal "$(json_value args | python3 -c 'import json, sys; print(sorted(json.load(sys.stdin)))')" "['command']"
}

assert_untouched() {
  assert_success
  assert_output ''
}

@test "the terraform apply payload file becomes terraform plan" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-terraform-apply.json"
  assert_rewritten_to 'terraform -chdir=infra/envs/staging plan'
  assert_regex "$stderr" '^safe-flags: rewrote'
}

@test "the safe ls payload file is left alone" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-safe-ls.json"
  assert_untouched
  assert_equal "$stderr" ''
}

@test "git push --force and -f become --force-with-lease" {
  rewrite 'git push --force origin feature/login'
  assert_rewritten_to 'git push --force-with-lease origin feature/login'
  rewrite 'git push -f'
  assert_rewritten_to 'git push --force-with-lease'
  rewrite 'git push -uf origin topic'
  assert_rewritten_to 'git push -u --force-with-lease origin topic'
  rewrite 'git push --force --force-with-lease origin topic'
  assert_rewritten_to 'git push --force-with-lease origin topic'
}

@test "pushes that are already safe are left alone" {
  local cmd
  for cmd in 'git push origin main' 'git push --force-with-lease origin x' 'git -C repo fetch -f' 'git commit -m "-f"'; do
    rewrite "$cmd"
    assert_untouched
  done
}

@test "publishing gets --dry-run right after the publish word" {
  rewrite 'npm publish'
  assert_rewritten_to 'npm publish --dry-run'
  rewrite 'npm publish --access public 2>&1 | tee publish.log'
  assert_rewritten_to 'npm publish --dry-run --access public 2>&1 | tee publish.log'
  rewrite 'cargo publish -p core'
  assert_rewritten_to 'cargo publish --dry-run -p core'
  rewrite 'sudo -E pnpm publish'
  assert_rewritten_to 'sudo -E pnpm publish --dry-run'
  rewrite 'npm publish --dry-run'
  assert_untouched
}

@test "terraform apply and destroy become plans, a saved plan file is applied as is" {
  rewrite 'terraform apply -auto-approve'
  assert_rewritten_to 'terraform plan'
  rewrite 'terraform apply -var "region=eu-west-1" -auto-approve=true'
  assert_rewritten_to 'terraform plan -var "region=eu-west-1"'
  rewrite 'terraform destroy -auto-approve -target=aws_instance.web'
  assert_rewritten_to 'terraform plan -destroy -target=aws_instance.web'
  rewrite 'terraform apply reviewed.tfplan'
  assert_untouched
  rewrite 'terraform plan -out=reviewed.tfplan'
  assert_untouched
}

@test "only the risky part of a compound command changes; the rest is kept byte for byte" {
  rewrite 'cd infra  &&  terraform apply -auto-approve ; echo "done;  ok"'
  assert_rewritten_to 'cd infra  &&  terraform plan ; echo "done;  ok"'
  rewrite $'npm test\nnpm publish\necho ok'
  assert_rewritten_to $'npm test\nnpm publish --dry-run\necho ok'
}

@test "the JSON answer escapes quotes, backslashes, tabs and control characters" {
  rewrite $'printf "x\\n" >&2 && git push -f origin y\n'
  assert_success
  run python3 -c 'import json, sys; d = json.loads(sys.argv[1]); print(repr(d["args"]["command"]))' "$output"
  assert_output "'printf \"x\\\\n\" >&2 && git push --force-with-lease origin y\\n'"

  rewrite $'echo "a\\"b\tc\x01" && git push -f origin y'
  assert_success
  assert_equal "$(json_value args.command)" $'echo "a\\"b\tc\x01" && git push --force-with-lease origin y'
}

@test "unicode survives the rewrite" {
  rewrite 'echo "déployé ✓" && npm publish'
  assert_rewritten_to 'echo "déployé ✓" && npm publish --dry-run'
}

@test "works without jq: a jq that must not be called, and a PATH with no jq at all" {
  local fake="$BATS_TEST_TMPDIR/fake-jq"
  mkdir -p "$fake"
  printf '#!/bin/sh\necho "jq must not be called" >&2\nexit 99\n' >"$fake/jq"
  chmod +x "$fake/jq"
  run --separate-stderr env PATH="$fake:$PATH" "$HOOK" <"$PAYLOADS/pre_tool_call-terraform-apply.json"
  assert_success
  assert_equal "$(json_value args.command)" 'terraform -chdir=infra/envs/staging plan'
  refute_regex "$stderr" 'jq must not be called'

  local no_jq
  no_jq=$(path_with_only bash python3)
  run --separate-stderr env PATH="$no_jq" "$HOOK" <"$PAYLOADS/pre_tool_call-terraform-apply.json"
  assert_success
  assert_equal "$(json_value args.command)" 'terraform -chdir=infra/envs/staging plan'
}

@test "non-terminal payloads and payloads without a command are left alone" {
  run_with_stdin "$(wire_payload pre_tool_call write_file '{"path": "a.txt", "content": "npm publish"}')" "$HOOK"
  assert_untouched
  run_with_stdin '{"tool_input": null}' "$HOOK"
  assert_untouched
}

@test "empty stdin and malformed JSON never get in the way: exit 0, no output" {
  run --separate-stderr "$HOOK" </dev/null
  assert_untouched
  assert_equal "$stderr" ''
  local bad
  for bad in '{"tool_input": {"command": "npm publish"' 'nope' '[]'; do
    run_with_stdin "$bad" "$HOOK"
    assert_untouched
    assert_regex "$stderr" 'safe-flags: stdin is not a JSON object'
  done
}

@test "a long command is rewritten at its end and kept intact before it" {
  local long
  long=$(python3 -c 'print("echo " + "héllo wörld; " * 3000, end="")')
  rewrite "$long npm publish"
  assert_rewritten_to "$long npm publish --dry-run"
}

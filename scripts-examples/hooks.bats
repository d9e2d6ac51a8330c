#!/usr/bin/env bats
# The README's bats example, runnable in this repo (from its root):
#   BATS_LIB_PATH="$PWD/node_modules:$PWD/bats-tests" node_modules/bats/bin/bats scripts-examples/hooks.bats
# In your own project, after `npm install --save-dev /path/to/hermes-hooks-0.1.0.tgz bats bats-support bats-assert`
# (the tarball `npm pack` builds in a clone; `hermes-hooks` from the registry once it is published):
#   BATS_LIB_PATH="$PWD/node_modules:$PWD/node_modules/hermes-hooks/bats-tests" node_modules/bats/bin/bats test/
# BATS_LIB_PATH must hold absolute directories: bats resolves it from each test file's folder.

setup() {
  bats_load_library hermes-hooks-bats.bash # found in BATS_LIB_PATH; loads bats-support and bats-assert too
  HOOKS="$BATS_TEST_DIRNAME/hooks"
  # The CLI that hermes_hooks_test runs: a command line, split on spaces. Unset: hermes-hooks on PATH.
  : "${HERMES_HOOKS_CLI:=node $BATS_TEST_DIRNAME/../dist/cli/bin.js}"
}

@test "blocks rm -rf /" {
  run_hook "$HOOKS/block-destructive.sh" "$(hook_payload pre_tool_call terminal '{"command": "rm -rf /"}')"
  assert_blocked "root filesystem"
}

@test "a python hook, given the way config.yaml gives it, lets a normal write through" {
  run_hook "python3 $HOOKS/protect-env-files.py" "$(hook_payload pre_tool_call write_file '{"path": "notes.md", "content": "hi"}')"
  assert_allowed
}

@test "the whole example config decides block, through hermes-hooks test" {
  cd "$BATS_TEST_DIRNAME/.."
  hermes_hooks_test pre_tool_call --config scripts-examples/config.yaml <scripts-examples/payloads/pre_tool_call-rm-rf.json
  assert_decision block "root filesystem"
}

#!/usr/bin/env bats
# scripts-examples/ as a whole: the hooks are deployable files, config.yaml wires them, the payloads
# are wire-form stdin.

setup() {
  load test_helper
  _common_setup
}

# config.yaml → one "event<TAB>command<TAB>matcher<TAB>timeout<TAB>fail_closed" line per hook,
# read with the `yaml` package the engine itself uses.
config_entries() {
  node --input-type=module -e '
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(process.argv[1] + "/");
const { parse } = require("yaml");
const config = parse(readFileSync(process.argv[2], "utf8"));
for (const [event, entries] of Object.entries(config.hooks)) {
  for (const e of entries) {
    console.log([event, e.command, e.matcher ?? "", e.timeout ?? "", e.fail_closed ?? ""].join("\t"));
  }
}' "$PROJECT_ROOT/node_modules" "$EXAMPLE_CONFIG"
}

@test "every hook is an executable file with a shebang" {
  local hook
  for hook in "$HOOKS"/*; do
    assert [ -f "$hook" ]
    assert [ -x "$hook" ]
    run head -n 1 "$hook"
    assert_output --regexp '^#!/usr/bin/env (bash|python3)$'
  done
}

@test "bash hooks parse with bash -n, python hooks parse with python3" {
  local hook
  for hook in "$HOOKS"/*.sh; do
    run bash -n "$hook"
    assert_success
  done
  for hook in "$HOOKS"/*.py; do
    run python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$hook"
    assert_success
  done
}

@test "config.yaml commands are paths relative to its own directory that exist and are executable" {
  run config_entries
  assert_success
  local event command rest
  while IFS=$'\t' read -r event command rest; do
    assert_regex "$command" '^hooks/[a-z-]+\.(sh|py)$'
    assert [ -x "$PROJECT_ROOT/scripts-examples/$command" ]
  done <<<"$output"
}

@test "config.yaml wires every hook in hooks/" {
  run config_entries
  local hook
  for hook in "$HOOKS"/*; do
    assert_output --partial "hooks/$(basename "$hook")"
  done
}

@test "config.yaml: matchers, timeouts, and every pre_tool_call guard fail_closed (none on other events)" {
  run config_entries
  assert_line $'pre_tool_call\thooks/block-destructive.sh\tterminal\t10\ttrue'
  assert_line $'pre_tool_call\thooks/protect-env-files.py\twrite_file|patch|terminal\t10\ttrue'
  assert_line $'pre_tool_call\thooks/safe-flags.sh\tterminal\t10\ttrue'
  assert_line $'pre_tool_call\thooks/escalate-prod-deploy.py\tterminal\t10\ttrue'
  assert_line $'pre_tool_call\thooks/claude-style-guard.sh\tterminal\t10\ttrue'
  assert_line $'post_tool_call\thooks/audit-log.py\t\t5\t'
  assert_line $'pre_llm_call\thooks/inject-context.py\t\t10\t'
  assert_line $'pre_verify\thooks/verify-tests-ran.py\t\t5\t'
  assert_equal "$(grep -c $'\ttrue$' <<<"$output")" 5
}

@test "every payload is one JSON object with the wire keys in wire order" {
  local payload
  for payload in "$PAYLOADS"/*.json; do
    run python3 -c '
import json, sys
obj = json.load(open(sys.argv[1]), parse_constant=lambda c: sys.exit("non-strict JSON: " + c))
print(" ".join(obj))
' "$payload"
    assert_success
    assert_output 'hook_event_name tool_name tool_input session_id cwd profile extra'
  done
}

@test "each payload's event matches its file name and tool events carry a tool call" {
  local payload name event
  for payload in "$PAYLOADS"/*.json; do
    name=$(basename "$payload" .json)
    event=$(json_value hook_event_name "$(cat "$payload")")
    assert_equal "$event" "${name%%-*}"
    if [[ $event == pre_tool_call || $event == post_tool_call ]]; then
      assert_regex "$(json_value tool_name "$(cat "$payload")")" '^(terminal|write_file|patch)$'
      assert_regex "$(json_value extra.tool_call_id "$(cat "$payload")")" '^call_'
      assert_regex "$(json_value extra.task_id "$(cat "$payload")")" '.'
    else
      assert_equal "$(json_value tool_name "$(cat "$payload")")" null
      assert_equal "$(json_value tool_input "$(cat "$payload")")" null
    fi
    assert_equal "$(json_value profile "$(cat "$payload")")" default
  done
}

@test "the payloads the README promises are all there" {
  local name
  for name in pre_tool_call-rm-rf pre_tool_call-safe-ls pre_tool_call-git-push-force pre_tool_call-write-env \
    pre_tool_call-prod-deploy pre_tool_call-curl-pipe-sh post_tool_call-terminal pre_llm_call pre_verify \
    on_session_start on_session_end subagent_stop; do
    assert [ -f "$PAYLOADS/$name.json" ]
  done
}

@test "post_tool_call's result is a JSON string, as Hermes sends it" {
  run json_value extra.result "$(cat "$PAYLOADS/post_tool_call-terminal.json")"
  assert_success
  run python3 -c 'import json, sys; assert isinstance(json.loads(sys.argv[1]), dict)' "$output"
  assert_success
}

#!/usr/bin/env bats
# A shell hook answering a transform/rewrite event (beyond Hermes, PROTOCOL.md §5.8): what a hook
# author types — a bash + jq hook in config.yaml, then `hermes-hooks test … --json` and `run`.

setup_file() {
  if [[ ! -f "$BATS_TEST_DIRNAME/../dist/cli/bin.js" ]]; then
    echo "dist/cli/bin.js is missing: run 'npm run build' first" >&2
    return 1
  fi
}

setup() {
  load test_helper
  _common_setup
  # Redacts anything that looks like an API key from the tool result the model will see.
  cat >"$HERMES_HOME/redact.sh" <<'HOOK'
#!/usr/bin/env bash
result=$(jq -r '.extra.result // ""')
if grep -q 'sk-[A-Za-z0-9]\{8,\}' <<<"$result"; then
  jq -cn --arg t "$(sed 's/sk-[A-Za-z0-9]\{8,\}/[redacted]/g' <<<"$result")" '{action: "rewrite", text: $t}'
fi
HOOK
  chmod +x "$HERMES_HOME/redact.sh"
  cat >"$HERMES_HOME/config.yaml" <<YAML
hooks:
  transform_tool_result:
    - command: $HERMES_HOME/redact.sh
  pre_gateway_dispatch:
    - command: $HERMES_HOME/mute.sh
YAML
  # Drops every message from one chat.
  cat >"$HERMES_HOME/mute.sh" <<'HOOK'
#!/usr/bin/env bash
case "$(jq -r '.extra.event')" in
  *"chat_id='666'"*) echo '{"action": "skip", "reason": "muted chat"}' ;;
esac
HOOK
  chmod +x "$HERMES_HOME/mute.sh"
}

@test "test --json: the rewritten tool result is the decision's result, decided by the hook" {
  run --separate-stderr node "$PROJECT_ROOT/dist/cli/bin.js" test transform_tool_result --json \
    <<<'{"tool_name": "terminal", "extra": {"result": "{\"output\": \"key=sk-abcdef123456\"}"}}'
  assert_equal "$status" 0
  assert_equal "$(json_value decision.action)" rewrite
  assert_equal "$(json_value decision.result)" '{"output": "key=[redacted]"}'
  assert_equal "$(json_value decision.decided_by)" 0
  assert_equal "$(json_value hooks.0.directive.action)" rewrite
}

@test "test --json: a result with nothing to redact stays as it is (allow, result null)" {
  run --separate-stderr node "$PROJECT_ROOT/dist/cli/bin.js" test transform_tool_result --json \
    <<<'{"tool_name": "terminal", "extra": {"result": "{\"output\": \"hello\"}"}}'
  assert_equal "$status" 0
  assert_equal "$(json_value decision.action)" allow
  assert_equal "$(json_value decision.result)" null
}

@test "run: pre_gateway_dispatch skip from a muted chat, with its reason" {
  run --separate-stderr node "$PROJECT_ROOT/dist/cli/bin.js" run pre_gateway_dispatch --accept-hooks \
    <<<"{\"extra\": {\"event\": \"MessageEvent(platform='telegram', chat_id='666', text='hi')\"}}"
  assert_equal "$status" 0
  assert_equal "$(json_value action)" skip
  assert_equal "$(json_value message)" 'muted chat'
  assert_equal "$(json_value decided_by)" 0
}

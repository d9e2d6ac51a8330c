#!/usr/bin/env bats
# `hermes-hooks test` (the built CLI, dist/cli/bin.js) on scripts-examples/config.yaml and its
# payloads. The example config's commands are relative to the repo root, so the CLI runs from there.

setup_file() {
  if [[ ! -f "$BATS_TEST_DIRNAME/../dist/cli/bin.js" ]]; then
    echo "dist/cli/bin.js is missing: run 'npm run build' first" >&2
    return 1
  fi
}

setup() {
  load test_helper
  _common_setup
  load hermes-hooks-bats
  cd "$PROJECT_ROOT"
}

# hh_test EVENT [ARGS…] < payload — `hermes-hooks test EVENT --json --config <example> ARGS…`
hh_test() {
  local event=$1
  shift
  run --separate-stderr node "$PROJECT_ROOT/dist/cli/bin.js" test "$event" --json --config "$EXAMPLE_CONFIG" "$@"
}

# hook_index NAME — index in the report's hooks[] of the hook whose command ends in NAME.
# One jq, not a python3 start per lookup; fails unless exactly one hook has that name.
hook_index() {
  jq -r --arg name "$1" '
    [.hooks[] | select((.command // "" | tostring) | endswith("/" + $name)) | .index]
    | if length == 1 then .[0] else error("hook_index: \(length) hooks named \($name)") end' <<<"$output"
}

# hook_field NAME PATH — a field of that hook's entry (e.g. `status`, `directive.action`).
hook_field() {
  json_value "hooks.$(hook_index "$1").$2"
}

@test "the rm -rf payload is blocked: exit 2, decided by block-destructive" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_equal "$status" 2
  assert_equal "$(json_value decision.action)" block
  assert_regex "$(json_value decision.message)" '^block-destructive: recursive rm of '"'/'"' would delete the root filesystem'
  assert_equal "$(json_value decision.decided_by)" "$(hook_index block-destructive.sh)"
  assert_equal "$(hook_field block-destructive.sh status)" ok
  assert_equal "$(hook_field block-destructive.sh exit_code)" 0
  assert_equal "$(hook_field block-destructive.sh directive.action)" block
  assert_equal "$(hook_field block-destructive.sh fail_closed)" true
}

@test "the safe ls payload is allowed: exit 0, every matched example hook ran clean and said nothing" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-safe-ls.json"
  assert_equal "$status" 0
  assert_equal "$(json_value decision.action)" allow
  assert_equal "$(json_value decision.decided_by)" null
  local name
  for name in block-destructive.sh protect-env-files.py safe-flags.sh escalate-prod-deploy.py claude-style-guard.sh; do
    assert_equal "$(hook_field "$name" status)" ok
    assert_equal "$(hook_field "$name" directive)" null
    assert_equal "$(hook_field "$name" stderr)" ''
  done
}

@test "--json prints exactly one report object with the contract's shape" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-rm-rf.json"
  run python3 -c '
import json, sys
report = json.loads(sys.argv[1])          # the whole stdout is one JSON value
assert isinstance(report, dict)
for key in ("event", "payload", "hooks", "decision", "diagnostics"):
    assert key in report, key
assert report["event"] == "pre_tool_call"
statuses = {"ok", "nonzero_exit", "timeout", "launch_failed", "output_limit", "not_matched"}
for hook in report["hooks"]:
    for key in ("index", "command", "matcher", "timeout", "fail_closed", "consent", "status", "exit_code",
                "signal", "duration_ms", "stdout", "stderr", "error", "directive"):
        assert key in hook, (key, hook)
    assert hook["status"] in statuses, hook["status"]
    assert isinstance(hook["duration_ms"], (int, float))
for key in ("action", "message", "args", "context", "decided_by", "modified_by", "conflicts"):
    assert key in report["decision"], key
assert report["decision"]["action"] in ("block", "approve", "allow", "continue")
print("shape ok")
' "$output"
  assert_success
  assert_output 'shape ok'
}

@test "the example config has no diagnostics" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-safe-ls.json"
  assert_equal "$(json_value diagnostics)" '[]'
}

@test "the report's payload is the stdin the hooks received" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-rm-rf.json"
  run python3 -c '
import json, sys
sent = json.load(open(sys.argv[1]))
got = json.loads(sys.argv[2])["payload"]
assert got == sent, (got, sent)
assert list(got) == ["hook_event_name", "tool_name", "tool_input", "session_id", "cwd", "profile", "extra"], list(got)
' "$PAYLOADS/pre_tool_call-rm-rf.json" "$output"
  assert_success
}

@test "consent is reported, not enforced: unapproved hooks run" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_equal "$(hook_field block-destructive.sh consent)" not_approved
  assert_equal "$(hook_field block-destructive.sh status)" ok
}

@test "force push to main: the block wins over safe-flags' modify" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-git-push-force.json"
  assert_equal "$status" 2
  assert_equal "$(json_value decision.action)" block
  assert_equal "$(json_value decision.decided_by)" "$(hook_index block-destructive.sh)"
  assert_equal "$(hook_field safe-flags.sh directive.action)" modify
  assert_equal "$(hook_field safe-flags.sh directive.args.command)" 'git push --force-with-lease origin main'
}

@test "writing .env is blocked by protect-env-files; the terminal-only guards do not match write_file" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-write-env.json"
  assert_equal "$status" 2
  assert_equal "$(json_value decision.decided_by)" "$(hook_index protect-env-files.py)"
  assert_regex "$(json_value decision.message)" '^protect-env-files: refusing to write \.env'
  local name
  for name in block-destructive.sh safe-flags.sh escalate-prod-deploy.py claude-style-guard.sh; do
    assert_equal "$(hook_field "$name" status)" not_matched
  done
}

@test "a production deploy asks for approval: exit 0, decision approve with the hook's rule_key" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-prod-deploy.json"
  assert_equal "$status" 0
  assert_equal "$(json_value decision.action)" approve
  assert_regex "$(json_value decision.message)" "^Production deploy: helm upgrade of release 'api' in the 'production' namespace"
  assert_equal "$(json_value decision.decided_by)" "$(hook_index escalate-prod-deploy.py)"
  assert_equal "$(hook_field escalate-prod-deploy.py directive.rule_key)" prod-deploy
}

@test "curl | sh: the Claude-style exit 2 blocks with its stderr as the message" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-curl-pipe-sh.json"
  assert_equal "$status" 2
  assert_equal "$(json_value decision.decided_by)" "$(hook_index claude-style-guard.sh)"
  assert_equal "$(hook_field claude-style-guard.sh status)" nonzero_exit
  assert_equal "$(hook_field claude-style-guard.sh exit_code)" 2
  assert_regex "$(json_value decision.message)" '^claude-style-guard: download-and-run'
}

@test "terraform apply is rewritten: exit 0, allow with the merged args, modified_by safe-flags" {
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-terraform-apply.json"
  assert_equal "$status" 0
  assert_equal "$(json_value decision.action)" allow
  assert_equal "$(json_value decision.args.command)" 'terraform -chdir=infra/envs/staging plan'
  assert_equal "$(json_value decision.args.timeout)" 900 # untouched keys are kept
  assert_equal "$(json_value decision.modified_by)" "[$(hook_index safe-flags.sh)]"
  assert_equal "$(json_value decision.conflicts)" '[]'
}

@test "--for-tool overrides the payload's tool for matching" {
  # The rm -rf payload, matched as read_file: no example pre_tool_call hook listens to that tool.
  hh_test pre_tool_call --for-tool read_file <"$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_equal "$status" 0
  assert_equal "$(json_value decision.action)" allow
  local name
  for name in block-destructive.sh protect-env-files.py safe-flags.sh escalate-prod-deploy.py claude-style-guard.sh; do
    assert_equal "$(hook_field "$name" status)" not_matched
  done
}

@test "--for-tool write_file with empty stdin: only protect-env-files runs" {
  hh_test pre_tool_call --for-tool write_file </dev/null
  assert_equal "$status" 0
  assert_equal "$(hook_field protect-env-files.py status)" ok
  assert_equal "$(hook_field block-destructive.sh status)" not_matched
  assert_equal "$(hook_field claude-style-guard.sh status)" not_matched
}

@test "empty stdin runs the event's synthetic payload" {
  hh_test pre_tool_call </dev/null
  assert_equal "$status" 0
  assert_equal "$(json_value payload.hook_event_name)" pre_tool_call
  assert_equal "$(json_value payload.tool_name)" terminal
  assert_equal "$(json_value payload.tool_input.command)" 'echo hello'
  assert_equal "$(json_value payload.session_id)" test-session
  assert_equal "$(json_value decision.action)" allow
}

@test "a partial payload is completed with the missing wire keys" {
  hh_test pre_tool_call <<<'{"tool_name": "terminal", "tool_input": {"command": "rm -rf ~"}}'
  assert_equal "$status" 2
  assert_regex "$(json_value decision.message)" 'home directory'
  run python3 -c 'import json, sys; print(" ".join(json.loads(sys.argv[1])["payload"]))' "$output"
  assert_output 'hook_event_name tool_name tool_input session_id cwd profile extra'
}

@test "invalid payload JSON exits 1 and says so on stderr" {
  hh_test pre_tool_call <<<'{"tool_name": "terminal", "tool_input": {'
  assert_equal "$status" 1
  assert_regex "$stderr" '[Ii]nvalid.*JSON|JSON'
}

@test "an unknown event exits 1 with a message naming it" {
  hh_test pre_tool_cal </dev/null
  assert_equal "$status" 1
  assert_regex "$stderr" "pre_tool_cal"
  assert_regex "$stderr" "pre_tool_call" # the did-you-mean
}

@test "pre_verify: source edits without a word on tests keep the turn going" {
  hh_test pre_verify <"$PAYLOADS/pre_verify.json"
  assert_equal "$status" 0
  assert_equal "$(json_value decision.action)" continue
  assert_regex "$(json_value decision.message)" '^You changed source files \(src/api/client\.ts, src/api/retry\.ts\)'
}

@test "pre_llm_call: inject-context's context reaches the decision" {
  local repo="$BATS_TEST_TMPDIR/webapp"
  git init -q -b main "$repo"
  mkdir -p "$repo/.hermes"
  echo 'Never edit generated files.' >"$repo/.hermes/POLICY.md"
  local payload
  payload=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1])); p["cwd"] = sys.argv[2]; print(json.dumps(p))' "$PAYLOADS/pre_llm_call.json" "$repo")
  hh_test pre_llm_call <<<"$payload"
  assert_equal "$status" 0
  assert_regex "$(json_value decision.context)" '^Git branch: main'
  assert_regex "$(json_value decision.context)" 'Never edit generated files\.'
}

@test "pre_llm_call in a directory with nothing to say adds no context" {
  hh_test pre_llm_call <"$PAYLOADS/pre_llm_call.json"
  assert_equal "$status" 0
  assert_equal "$(hook_field inject-context.py status)" ok
  assert_equal "$(hook_field inject-context.py stdout)" ''
  assert_regex "$(json_value decision.context)" '^(null|)$'
}

@test "post_tool_call and lifecycle events reach audit-log, which writes where HERMES_AUDIT_LOG says" {
  local payload
  for payload in post_tool_call-terminal on_session_start on_session_end subagent_stop; do
    hh_test "${payload%%-*}" <"$PAYLOADS/$payload.json"
    assert_equal "$status" 0
    assert_equal "$(hook_field audit-log.py status)" ok
    assert_equal "$(hook_field audit-log.py stdout)" ''
  done
  assert_equal "$(wc -l <"$HERMES_AUDIT_LOG" | tr -d ' ')" 4
  run python3 -c 'import json, sys; print(" ".join(json.loads(l)["event"] for l in open(sys.argv[1])))' "$HERMES_AUDIT_LOG"
  assert_output 'post_tool_call on_session_start on_session_end subagent_stop'
}

@test "outside the repo root the relative commands run the same: resolved against the config file's directory" {
  cd "$BATS_TEST_TMPDIR"
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-safe-ls.json"
  assert_equal "$status" 0
  assert_equal "$(hook_field block-destructive.sh status)" ok
  assert_equal "$(hook_field safe-flags.sh status)" ok
  assert_equal "$(hook_field block-destructive.sh command)" "$PROJECT_ROOT/scripts-examples/hooks/block-destructive.sh"
  hh_test pre_tool_call <"$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_equal "$status" 2
  assert_equal "$(json_value decision.decided_by)" "$(hook_index block-destructive.sh)"
}

@test "without --json the report is for people, with the same exit code" {
  run --separate-stderr node "$PROJECT_ROOT/dist/cli/bin.js" test pre_tool_call --config "$EXAMPLE_CONFIG" \
    <"$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_equal "$status" 2
  assert_output --partial 'block-destructive.sh'
  assert_output --partial 'root filesystem'
}

@test "the helper library's hermes_hooks_test drives the real CLI" {
  hermes_hooks_test pre_tool_call --config "$EXAMPLE_CONFIG" <"$PAYLOADS/pre_tool_call-rm-rf.json"
  assert_decision block 'root filesystem'
  assert_equal "$HH_DECIDED_BY" "$(hook_index block-destructive.sh)"
  hermes_hooks_test pre_tool_call --config "$EXAMPLE_CONFIG" <"$PAYLOADS/pre_tool_call-prod-deploy.json"
  assert_decision approve 'Production deploy'
  hermes_hooks_test pre_verify --config "$EXAMPLE_CONFIG" <"$PAYLOADS/pre_verify.json"
  assert_decision continue 'Run the project'
  hermes_hooks_test pre_tool_call --config "$EXAMPLE_CONFIG" <"$PAYLOADS/pre_tool_call-safe-ls.json"
  assert_decision allow
}

#!/usr/bin/env bats
# scripts-examples/hooks/escalate-prod-deploy.py, run directly.

setup() {
  load test_helper
  _common_setup
  HOOK="$HOOKS/escalate-prod-deploy.py"
}

judge() { # judge COMMAND
  run_with_stdin "$(terminal_payload "$1")" "$HOOK"
}

assert_escalated() { # assert_escalated MESSAGE-REGEX
  assert_success
  assert_equal "$(json_value action)" approve
  assert_equal "$(json_value rule_key)" prod-deploy
  assert_regex "$(json_value message)" "^Production deploy: .*$1.*A human must confirm"
}

assert_silent_allow() {
  assert_success
  assert_output ''
}

@test "the prod-deploy payload file asks for approval with rule_key prod-deploy" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-prod-deploy.json"
  assert_escalated "helm upgrade of release 'api' in the 'production' namespace"
  assert_equal "$stderr" ''
}

@test "the answer carries exactly action, message and rule_key" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-prod-deploy.json"
  run python3 -c 'import json, sys; print(sorted(json.loads(sys.argv[1])))' "$output"
  assert_output "['action', 'message', 'rule_key']"
}

@test "the safe ls payload file goes through silently" {
  run --separate-stderr "$HOOK" <"$PAYLOADS/pre_tool_call-safe-ls.json"
  assert_silent_allow
}

@test "kubectl changes against a prod context are escalated" {
  judge 'kubectl apply -f k8s/ --context prod-eu-1'
  assert_escalated "kubectl apply against the production context 'prod-eu-1'"
  judge 'kubectl --context=production rollout restart deploy/api'
  assert_escalated 'kubectl rollout'
  judge 'kubectl -n payments --context prod delete pod api-7d9f'
  assert_escalated 'kubectl delete'
  judge 'sudo -E kubectl scale deploy/web --replicas=0 --context PROD'
  assert_escalated 'kubectl scale'
}

@test "kubectl reads against prod and changes elsewhere are not escalated" {
  local cmd
  for cmd in 'kubectl get pods --context prod' 'kubectl logs deploy/api --context prod-eu-1 -f' \
    'kubectl apply -f k8s/ --context staging' 'kubectl apply -f k8s/' 'kubectl apply -f prod.yaml --context dev' \
    'kubectl apply -f k8s/ --context producer-dev'; do
    judge "$cmd"
    assert_silent_allow
  done
}

@test "helm changes in the production namespace or on a prod cluster are escalated" {
  judge 'helm upgrade --install api ./charts/api --namespace=production'
  assert_escalated "helm upgrade of release 'api'"
  judge 'helm rollback api 41 -n production'
  assert_escalated 'helm rollback'
  judge 'helm install web ./charts/web --kube-context prod-us-east'
  assert_escalated "production cluster 'prod-us-east'"
}

@test "helm elsewhere, or read-only, is not escalated" {
  local cmd
  for cmd in 'helm upgrade api ./charts/api -n staging' 'helm status api -n production' \
    'helm list --namespace production' 'helm template api ./charts/api -n production'; do
    judge "$cmd"
    assert_silent_allow
  done
}

@test "deploy.sh prod and fly deploys of -prod apps are escalated" {
  judge './deploy.sh prod'
  assert_escalated "deploy.sh to 'prod'"
  judge 'cd infra && bash scripts/deploy.sh production --yes'
  assert_escalated "deploy.sh to 'production'"
  judge 'fly deploy -a shop-prod'
  assert_escalated "fly deploy of the production app 'shop-prod'"
  judge 'flyctl deploy --app=shop-production --strategy rolling'
  assert_escalated "'shop-production'"
}

@test "deploy.sh to staging and fly deploys of other apps are not escalated" {
  local cmd
  for cmd in './deploy.sh staging' './deploy.sh' 'cat deploy.sh' 'fly deploy -a shop-staging' 'fly status -a shop-prod' \
    'echo ./deploy.sh prod'; do
    judge "$cmd"
    assert_silent_allow
  done
}

@test "non-terminal payloads and payloads without a command are ignored" {
  run_with_stdin "$(wire_payload pre_tool_call write_file '{"path": "deploy.sh", "content": "./deploy.sh prod"}')" "$HOOK"
  assert_silent_allow
  run_with_stdin '{"tool_input": {"command": ["kubectl", "apply"]}}' "$HOOK"
  assert_silent_allow
}

@test "empty stdin is silent; malformed JSON exits 1 with a reason and no directive" {
  run --separate-stderr "$HOOK" </dev/null
  assert_silent_allow
  local bad
  for bad in '{"tool_input": {"command": "./deploy.sh prod"}' 'x' '42'; do
    run_with_stdin "$bad" "$HOOK"
    assert_failure 1
    assert_output ''
    assert_regex "$stderr" '^escalate-prod-deploy: stdin is not'
  done
}

#!/usr/bin/env bash
# Runs every suite (vitest, then bats) and ends with one line "N passed, N failed" summing both,
# because neither runner prints a total CI can read. Exit status is non-zero if anything failed.
set -u
cd "$(dirname "$0")/.."
export NO_COLOR=1
# Always build first (cheap when nothing changed): tests that run dist/ must see today's src/.
npm run build >/dev/null || { echo 'build failed' >&2; echo '0 passed, 1 failed'; exit 1; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile="$out/vitest.json" </dev/null
vitest_status=$?

BATS_LIB_PATH="$PWD/node_modules" node_modules/bats/bin/bats --formatter tap -r bats-tests </dev/null | tee "$out/bats.tap"
bats_status=${PIPESTATUS[0]}

read -r v_pass v_fail < <(node -e '
  try {
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    // A file that fails to load has no failed tests but a failed suite: count it as a failure too.
    const brokenFiles = r.testResults.filter(f => f.status === "failed" && f.assertionResults.every(a => a.status !== "failed")).length;
    console.log(r.numPassedTests, r.numFailedTests + brokenFiles);
  } catch { console.log(0, 1); }' "$out/vitest.json")
b_pass=$(grep -c '^ok ' "$out/bats.tap")
b_fail=$(grep -c '^not ok ' "$out/bats.tap")

passed=$((v_pass + b_pass))
failed=$((v_fail + b_fail))
if [ "$failed" -eq 0 ] && { [ "$vitest_status" -ne 0 ] || [ "$bats_status" -ne 0 ]; }; then failed=1; fi
echo
echo "vitest: $v_pass passed, $v_fail failed; bats: $b_pass passed, $b_fail failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

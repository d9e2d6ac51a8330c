#!/usr/bin/env bash
# Runs the suites and ends with one line "N passed, N failed" summing them, because neither
# vitest nor bats prints a total CI can read. Exit status is non-zero if anything failed.
#   (first: Biome format + lint check, biome.json)
#   scripts/test-all.sh            vitest (unit, integration, CLI) then bats — `npm test`
#   scripts/test-all.sh --torture  the same, then the torture suite — `npm run test:all`, .ci/run
set -u
cd "$(dirname "$0")/.."
export NO_COLOR=1
torture=0
[ "${1-}" = "--torture" ] && torture=1

# Always build first (cheap when nothing changed): tests that run dist/ must see today's src/.
npm run build >/dev/null || { echo 'build failed' >&2; echo '0 passed, 1 failed'; exit 1; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0

# Format and lint (Biome, biome.json): wide lines and style drift fail the run like a failing test.
lint_fail=0
node_modules/.bin/biome ci --reporter=summary . </dev/null || { lint_fail=1; status=1; }

# vitest_counts FILE: "passed failed" from a vitest JSON report. A file that fails to load has no
# failed tests but a failed suite: count it as a failure too. A missing report is one failure.
vitest_counts() {
  node -e '
    try {
      const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      const brokenFiles = r.testResults.filter(f => f.status === "failed" && f.assertionResults.every(a => a.status !== "failed")).length;
      console.log(r.numPassedTests, r.numFailedTests + brokenFiles);
    } catch { console.log(0, 1); }' "$1"
}

node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile="$out/vitest.json" </dev/null || status=1
read -r v_pass v_fail < <(vitest_counts "$out/vitest.json")

# bats files are independent (each test has its own temp profile home): run them in lanes (one per
# core by default) instead of bats --jobs (which needs GNU parallel). The lanes share one queue of
# files, biggest first, and each lane takes the next file when it is free: per-file cost varies
# threefold between files of the same test count, so a fixed split left one lane idle for ~40 s.
# Each lane's TAP is printed when all have ended.
lanes=${BATS_LANES:-2}
queue="$out/bats.queue"
for f in $(find bats-tests -name '*.bats' | sort); do echo "$(grep -c '^@test' "$f") $f"; done | sort -rn | awk '{ print $2 }' >"$queue"
next_bats_file() { flock "$queue.lock" sh -c 'head -n 1 "$1"; sed -i 1d "$1"' sh "$queue"; }
bats_lane() {
  local f rc=0
  while f=$(next_bats_file) && [ -n "$f" ]; do
    BATS_LIB_PATH="$PWD/node_modules" node_modules/bats/bin/bats --formatter tap "$f" </dev/null >>"$out/bats.$1.tap" 2>&1 || rc=1
  done
  return "$rc"
}
pids=()
for ((i = 0; i < lanes; i++)); do
  bats_lane "$i" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
cat "$out"/bats.*.tap
# A lane that could not take files (no flock, say) must not pass for a green run.
if [ -s "$queue" ]; then echo "bats: these files never ran: $(tr '\n' ' ' <"$queue")" >&2; status=1; fi
b_pass=$(cat "$out"/bats.*.tap | grep -c '^ok ')
b_fail=$(cat "$out"/bats.*.tap | grep -c '^not ok ')

t_pass=0 t_fail=0
if [ "$torture" -eq 1 ]; then
  node_modules/.bin/vitest run --config vitest.torture.config.ts --reporter=default --reporter=json --outputFile="$out/torture.json" </dev/null || status=1
  read -r t_pass t_fail < <(vitest_counts "$out/torture.json")
fi

passed=$((v_pass + b_pass + t_pass))
failed=$((v_fail + b_fail + t_fail + lint_fail))
if [ "$failed" -eq 0 ] && [ "$status" -ne 0 ]; then failed=1; fi
echo
summary="lint: $([ "$lint_fail" -eq 0 ] && echo ok || echo failed); vitest: $v_pass passed, $v_fail failed; bats: $b_pass passed, $b_fail failed"
[ "$torture" -eq 1 ] && summary="$summary; torture: $t_pass passed, $t_fail failed"
echo "$summary"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

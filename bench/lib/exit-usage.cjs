// Preloaded with `node -r` into measured Node processes: at exit, write the process's own CPU time
// and peak RSS (getrusage) to $BENCH_USAGE_FILE. Costs well under a millisecond, and it is
// preloaded into the baseline (`node -e 0`) as well, so comparisons stay fair.
'use strict';
const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    try {
      require('fs').writeFileSync(file, JSON.stringify({ cpu_ms: (u.userCPUTime + u.systemCPUTime) / 1000, max_rss_kb: u.maxRSS }));
    } catch {}
  });
}

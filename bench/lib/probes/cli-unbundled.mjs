// The CLI as tsc emits it (dist/cli/main.js and its imports, unbundled), run like bin.js runs
// the bundle: the "before" of the bundling step.
import { main } from '../../../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`internal error: ${e?.stack ?? e}\n`);
    process.exitCode = 1;
  },
);

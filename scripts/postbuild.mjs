// After tsc: make the CLI executable (tsc does not set the bit) and ship the Python gateway
// bootstrap next to the compiled gateway module that starts it.
import { chmodSync, copyFileSync, existsSync } from 'node:fs';

chmodSync('dist/cli/bin.js', 0o755);
if (existsSync('src/gateway/gateway_bootstrap.py')) {
  copyFileSync('src/gateway/gateway_bootstrap.py', 'dist/gateway/gateway_bootstrap.py');
}

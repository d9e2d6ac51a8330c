// `node bench/lib/probes/import.mjs PKG`: start-up plus importing one package, unbundled, from
// the repo's node_modules (what the CLI paid per package before it was bundled).
await import(process.argv[2]);

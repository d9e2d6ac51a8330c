// Usage text, examples first. Printed to stdout for --help (exit 0), to stderr on misuse (exit 1).

export const MAIN_HELP = `hermes-hooks — run Hermes agent hook scripts exactly, safely and fast

Usage:
  hermes-hooks <command> [options]

Examples:
  hermes-hooks test pre_tool_call < payload.json        dry-run the hooks for an event
  echo '{"tool_name":"terminal","tool_input":{"command":"rm -rf /"}}' | hermes-hooks test pre_tool_call --json
  hermes-hooks run pre_tool_call < payload.json         production path: consent honoured, prints the Decision
  hermes-hooks validate ~/.hermes/config.yaml           check a config (pre-commit friendly)

Commands:
  test <event>       Dry-run the configured hooks on a payload (consent reported, not enforced)
  run <event>        Run hooks for a host: consent and safe mode honoured; prints only the Decision JSON
  list               Hooks per event with matcher, timeout, fail_closed and consent state
  doctor             Check every hook: runnable, approved, unchanged, and a smoke run when approved
  doctor --agent AGENT  Check Claude Code / Codex / Gemini CLI / Cursor config for hermes-hooks entries it will not run
  validate [FILE]    Print config diagnostics with file:line:column; exit 1 on any problem
  approve [CMD]      Record approvals (--event E, --all)
  revoke <CMD>       Remove every approval for a command
  import <FILE>      Convert a Claude Code / Codex / Gemini CLI / Cursor hook config into a hooks: block
  print-config <AGENT>  Settings snippet that makes another agent call hermes-hooks
  serve              One long-lived engine for a host or agent: JSON-RPC on stdio, HTTP on a socket or loopback

Config discovery (every command; before or after the command):
  --profile NAME, -p  the profile home <root>/profiles/NAME, where <root> is $HERMES_HOME or ~/.hermes
  --home DIR          the profile home DIR
  otherwise $HERMES_HOME, otherwise ~/.hermes
  --config FILE, -c   read FILE instead of <profile home>/config.yaml; approvals still come from the
                      profile home's allowlist, and hooks_auto_accept is honoured only in its own config.yaml
A location given that does not exist is an error; only a missing ~/.hermes means "no hooks".
--json (commands that print JSON) also prints errors as {"error": …, "exit_code": 1} on stdout.

Exit codes: 0 ok / not blocked, 2 blocked, 1 error.
Run 'hermes-hooks <command> --help' for a command's options.
`;

export const TEST_HELP = `Usage: hermes-hooks test <event> [--for-tool NAME] [--json] [discovery options] < payload.json

Dry-run every hook configured for <event>: the real matching, spawning, evaluation and resolution,
without enforcing consent (it is reported per hook). When consent or HERMES_SAFE_MODE would change
what \`hermes-hooks run\` decides on the same payload, the report says so ("Production: …", and
"production" in --json). Under HERMES_SAFE_MODE nothing runs: the hooks are listed, not run.

stdin is a wire-form payload — any subset of
  hook_event_name, tool_name, tool_input, session_id, cwd, profile, extra
— or the host's kwargs (tool_name, args, session_id, task_id …), read the same way by run, serve
and the library; missing keys are filled; empty stdin or a terminal uses the event's synthetic
payload. A key that lands elsewhere than meant is listed under Diagnostics.

Options:
  --for-tool NAME   set the payload's tool_name to NAME (matchers and hooks see NAME)
  --json            print exactly one JSON report (schema: protocol/test-report.schema.json)
  --ignore-safe-mode  run the hooks even when HERMES_SAFE_MODE is set (production still would not)
  --config/-c FILE, --profile/-p NAME, --home DIR

Examples:
  hermes-hooks test pre_tool_call < scripts-examples/payloads/pre_tool_call-rm-rf.json
  echo '{"tool_name":"write_file","tool_input":{"path":".env"}}' | hermes-hooks test pre_tool_call --json
  hermes-hooks test pre_llm_call --config ./config.yaml < /dev/null
  HERMES_SAFE_MODE=1 hermes-hooks test pre_tool_call --ignore-safe-mode < payload.json

Exit: 0 not blocked, 2 blocked, 1 error (unknown event, invalid payload JSON, unreadable config).
`;

export const RUN_HELP = `Usage: hermes-hooks run <event> [--accept-hooks] [--dialect AGENT] [discovery options] < payload.json

The production path for hosts in any language: reads the payload on stdin (the wire form a hook
reads, or kwargs with args), runs the approved hooks (safe mode honoured, never prompts), prints only
the Decision JSON; how the payload was read, when a key landed elsewhere than meant, goes to stderr.

Options:
  --accept-hooks    approve unapproved or modified hooks and run them (like HERMES_ACCEPT_HOOKS=1)
  --dialect AGENT   read AGENT's stdin and answer in its protocol (claude, codex, gemini, cursor);
                    <event> is then AGENT's event name (e.g. PreToolUse) or omitted. When
                    hermes-hooks cannot decide (config missing or broken, bad stdin, internal
                    error) on a tool-gate event, AGENT gets its own block naming the problem
  --fail-open       with --dialect: exit 1 instead of blocking when hermes-hooks cannot decide
                    (every agent then lets the call through)

  --config/-c FILE, --profile/-p NAME, --home DIR

Examples:
  hermes-hooks run pre_tool_call < payload.json
  echo '{"tool_name":"terminal","tool_input":{"command":"ls"}}' | hermes-hooks run pre_tool_call --profile work
  hermes-hooks run PreToolUse --dialect claude      (as Claude Code's PreToolUse hook command)

Exit: 0 not blocked, 2 blocked, 1 error.
`;

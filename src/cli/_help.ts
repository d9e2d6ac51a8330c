// Usage text, examples first. Printed to stdout for --help (exit 0), to stderr on misuse (exit 1).
import { AGENT_DIALECTS } from '../dialects/agents/index.js';

/** MAIN_HELP around its command list (the list comes from the command records, commands.ts). */
export const MAIN_HELP_HEAD = `hermes-hooks — run Hermes agent hook scripts exactly, safely and fast

Usage:
  hermes-hooks <command> [options]

Examples:
  hermes-hooks test pre_tool_call < payload.json        dry-run the hooks for an event
  echo '{"tool_name":"terminal","tool_input":{"command":"rm -rf /"}}' | hermes-hooks test pre_tool_call --json
  hermes-hooks run pre_tool_call < payload.json         production path: consent honoured, prints the Decision
  hermes-hooks validate ~/.hermes/config.yaml           check a config (pre-commit friendly)

Commands:
`;

export const MAIN_HELP_TAIL = `
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
  --stdin-timeout SECONDS  give up (exit 1) when stdin is still open after SECONDS (default 30,
                    or $HERMES_HOOKS_STDIN_TIMEOUT; 0 = wait forever)
  --config/-c FILE, --profile/-p NAME, --home DIR

Examples:
  hermes-hooks test pre_tool_call < scripts-examples/payloads/pre_tool_call-rm-rf.json
  echo '{"tool_name":"write_file","tool_input":{"path":".env"}}' | hermes-hooks test pre_tool_call --json
  hermes-hooks test pre_llm_call --config ./config.yaml < /dev/null
  HERMES_SAFE_MODE=1 hermes-hooks test pre_tool_call --ignore-safe-mode < payload.json

Exit: 0 not blocked, 2 blocked, 1 error (unknown event, invalid payload JSON, unreadable config).
`;

export const RUN_HELP = `Usage: hermes-hooks run <event> [--accept-hooks] [--dialect AGENT] [--stdin-timeout S] [discovery options] < payload.json

The production path for hosts in any language: reads the payload on stdin (the wire form a hook
reads, or kwargs with args), runs the approved hooks (safe mode honoured, never prompts), prints only
the Decision JSON; how the payload was read, when a key landed elsewhere than meant, goes to stderr.

Options:
  --accept-hooks    approve unapproved or modified hooks and run them (like HERMES_ACCEPT_HOOKS=1)
  --dialect AGENT   read AGENT's stdin and answer in its protocol (${AGENT_DIALECTS.join(', ')});
                    <event> is then AGENT's event name (e.g. PreToolUse) or omitted. When
                    hermes-hooks cannot decide (config missing or broken, bad stdin, internal
                    error) on a tool-gate event, AGENT gets its own block naming the problem
  --fail-open       with --dialect: exit 1 instead of blocking when hermes-hooks cannot decide
                    (every agent then lets the call through)
  --stdin-timeout SECONDS  stdin still open after SECONDS (default 30, or $HERMES_HOOKS_STDIN_TIMEOUT;
                    0 = wait forever) is an error: on pre_tool_call (or AGENT's tool gate) a block
                    saying so, exit 2; on other events exit 1
  --journal FILE    append this event and its decision to FILE (JSON lines, secrets redacted; also
                    \`hooks_journal:\` in config.yaml); see \`hermes-hooks replay\` and \`audit\`

  --config/-c FILE, --profile/-p NAME, --home DIR

Examples:
  hermes-hooks run pre_tool_call < payload.json
  echo '{"tool_name":"terminal","tool_input":{"command":"ls"}}' | hermes-hooks run pre_tool_call --profile work
  hermes-hooks run PreToolUse --dialect claude      (as Claude Code's PreToolUse hook command)

Exit: 0 not blocked, 2 blocked, 1 error.
`;

export const APPROVE_HELP = `Usage: hermes-hooks approve <command>... [--event EVENT] [--json] [discovery options]
       hermes-hooks approve --all [--event EVENT] [--json] [discovery options]

Record approvals in <home>/shell-hooks-allowlist.json, each pinning the sha256 of the hook's script,
without a prompt. Each <command> is one configured command — quote it as one argument:
  approve 'python3 ~/hooks/guard.py'      every configured hook with this command
  approve ~/hooks/a.sh ~/hooks/b.sh       both (or, when one matches no configured hook, neither)
  approve './x.sh' --event pre_tool_call  only its pre_tool_call entries (--event narrows)
  approve --all                           every configured hook
A command matches a configured one when it is the same string, or the same argv once '~' is expanded
and the script resolved (so a shell-expanded /home/me/x.sh matches '~/x.sh'). A command that matches
no configured hook, or whose script is missing or not a regular file (nothing to pin), is an error:
nothing is approved. Idempotent: re-approving refreshes the recorded hash.

Examples:
  hermes-hooks approve --all
  hermes-hooks approve '~/.hermes/hooks/guard.sh'       (quoted, exactly as configured)
  hermes-hooks approve --all --event pre_tool_call --profile work
`;

export const REVOKE_HELP = `Usage: hermes-hooks revoke <command>... [--json] [discovery options]

Remove every approval (under any event) of each <command>: an allowlist command as written, or a
configured command matched as 'approve' matches it (a shell-expanded path matches its '~' form).
  revoke '~/hooks/guard.sh'
  revoke 'python3 old-hook.py'            also when it is no longer configured
A command that matches neither an allowlist entry nor a configured hook is an error.

Examples:
  hermes-hooks revoke '~/.hermes/hooks/guard.sh'
  hermes-hooks revoke '~/.hermes/hooks/guard.sh' --profile work --json
`;

export const LIST_HELP = `Usage: hermes-hooks list [--json] [discovery options]

Shell hooks per event in config order, with matcher, timeout, fail_closed, dialect and consent state,
then outbound webhook targets. Another agent's block pasted under hooks: is an error (exit 1),
with the import command that converts it.

Examples:
  hermes-hooks list
  hermes-hooks list --profile work --json
  hermes-hooks --config ./repo/.hermes/config.yaml list
`;

export const DOCTOR_HELP = `Usage: hermes-hooks doctor [--json] [--ping] [--smoke-all] [discovery options]

For every configured hook: the script exists and is runnable as configured, consent state, modified
since approval, and — only for approved hooks on events that take an answer (pre_tool_call,
pre_llm_call, pre_verify, transforms …) — a smoke run on the event's synthetic payload, judged
as production would judge it: a hook that fails closed (so it would block every call it matches),
times out, crashes, prints something that is not a JSON object, or answers what its event does not
honour is a problem. A hook's own block of the synthetic call is reported, not counted.
A smoke run is a real run, on a payload marked as a test: session_id "hermes-hooks-doctor" and
HERMES_HOOKS_SMOKE_RUN=1 in the hook's environment (a guard that logs can skip its log). Observers
(post_tool_call, post_llm_call, on_session_* …: their answer decides nothing, so a run shows only
its side effects, such as a line in a real audit log) are checked for launchability, not run.
The profile home, config.yaml, plugins/, hooks/, BOOT.md and serve's token file must pass the trust
rule (yours or root's, nothing on the way writable by others): each that fails is a ✗ with the
chmod/chown that fixes it.
  --ping       also send a signed test delivery to each outbound webhook target
  --smoke-all  smoke-run the observers too, on the same test payload
Under HERMES_SAFE_MODE no smoke run runs and no ping is sent (nothing runs in safe mode).
Exit 1 when any problem is found.

Examples:
  hermes-hooks doctor
  hermes-hooks doctor --json --home ~/.hermes/profiles/work
  hermes-hooks doctor --profile work --ping
  hermes-hooks doctor --json | jq .healthy
`;

export const VALIDATE_HELP = `Usage: hermes-hooks validate [FILE] [--json] [discovery options]

Check a config.yaml: the hooks: block, hooks.outbound, tool_loop_guardrails, plugins and dialects,
and that the file and the profile home pass the trust rule (a warning when another user could have
written them: such a config grants nothing), and that each hook command can start (its script exists,
is executable, has a #! line and LF line endings; an unquoted path with spaces). Prints each problem
as file:line:column: level: path: message. Exit 1 on any error or warning.

Examples:
  hermes-hooks validate                          the profile's config.yaml
  hermes-hooks validate ./config.yaml            a file (e.g. in a pre-commit hook)
  hermes-hooks validate --profile work --json
`;

export const REPLAY_HELP = `Usage: hermes-hooks replay JOURNAL [--json] [discovery options]

Re-run every event recorded in JOURNAL (written by --journal or hooks_journal:) through the CURRENT
hooks of the profile, as production runs them: consent enforced (unapproved hooks do not run, and the
report says which), never prompts, no webhooks sent — nothing but the hooks is executed. Events
recorded in another agent's dialect are read again in that dialect. Prints each event whose verdict
(block / allow / approve …) changed, before → after, with the hook that decided.

Options:
  --json            one JSON object: {"events", "changed": [{line, before, after …}], "not_run"}
  --config/-c FILE, --profile/-p NAME, --home DIR   the hooks to replay against

Examples:
  hermes-hooks replay ~/.hermes/journal.jsonl                 did my guard change flip anything?
  hermes-hooks replay journal.jsonl --config ./new-config.yaml --json

Exit: 0 no verdict changed, 1 some did, 2 error (unreadable or bad journal: file, line and field named).
`;

export const AUDIT_HELP = `Usage: hermes-hooks audit JOURNAL [--json]

Coverage and health from a journal: tool calls that ran (a post_tool_call) with no tool-gate verdict
recorded for the same call (matched by the agent's call id, else by session, tool and input), guards
that never fired, hooks that keep failing or timing out, and the slowest hooks (p50/p99).

Options:
  --json            one JSON object: {"events", "unguarded_calls", "never_fired", "failing", "slowest"}

Exit: 0 healthy, 1 a tool call ran with no verdict recorded, 2 error (unreadable or bad journal).
`;

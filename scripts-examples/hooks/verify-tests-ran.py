#!/usr/bin/env python3
"""verify-tests-ran.py — Hermes `pre_verify` hook.

Hermes fires `pre_verify` when a coding turn that edited files is about to end. When the edited
files (`extra.changed_paths`) include source code but the final answer (`extra.final_response`)
never mentions tests, this hook keeps the turn going with
    {"action": "continue", "message": "…run the tests and report…"}
Hermes injects the message as a user turn. Docs-only or config-only changes, and answers that talk
about tests at all (even "I could not run the tests because …"), end the turn normally.

From the third attempt on (`extra.attempt` ≥ 2) it stays silent, so a model that cannot run tests is
not nudged in a loop (Hermes also caps nudges with `agent.max_verify_nudges`).
Anything unreadable is a note on stderr and exit 0.
"""

from __future__ import annotations

import json
import os
import re
import sys

SELF = "verify-tests-ran"
MAX_ATTEMPT = 2
SOURCE_EXTENSIONS = {
    ".py", ".pyi", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte",
    ".go", ".rs", ".java", ".kt", ".kts", ".scala", ".rb", ".php", ".cs", ".fs", ".swift", ".m", ".mm",
    ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".ex", ".exs", ".erl", ".hs", ".ml", ".clj",
    ".lua", ".dart", ".r", ".jl", ".sh", ".bash", ".zig", ".sql",
}
MENTIONS_TESTS = re.compile(
    r"\b(tests?|tested|testing|test suite|unit tests?|specs?|pytest|vitest|jest|mocha|bats|rspec|"
    r"go test|cargo test|npm test|npm run test|make test|ctest|phpunit|junit|tox|nox)\b",
    re.IGNORECASE,
)


def is_source(path: str) -> bool:
    _, ext = os.path.splitext(path.lower())
    return ext in SOURCE_EXTENSIONS


def main() -> None:
    raw = sys.stdin.buffer.read().decode("utf-8", "replace")
    if not raw.strip():
        return
    try:
        payload = json.loads(raw)
    except ValueError as exc:
        print(f"{SELF}: stdin is not valid JSON ({exc}); not checking", file=sys.stderr)
        return
    extra = payload.get("extra") if isinstance(payload, dict) else None
    if not isinstance(extra, dict):
        print(f"{SELF}: no `extra` object in the payload; not checking", file=sys.stderr)
        return

    attempt = extra.get("attempt")
    if isinstance(attempt, int) and not isinstance(attempt, bool) and attempt >= MAX_ATTEMPT:
        return
    changed = extra.get("changed_paths")
    if not isinstance(changed, list):
        return
    sources = [p for p in changed if isinstance(p, str) and is_source(p)]
    if not sources:
        return
    response = extra.get("final_response")
    if isinstance(response, str) and MENTIONS_TESTS.search(response):
        return

    listed = ", ".join(sources[:5]) + (f" and {len(sources) - 5} more" if len(sources) > 5 else "")
    print(json.dumps({
        "action": "continue",
        "message": (f"You changed source files ({listed}) but your answer does not say whether the tests pass. "
                    "Run the project's tests now and report the result; if they cannot run here, say why."),
    }))


if __name__ == "__main__":
    try:
        main()
    except Exception as exc:  # a verification nudge must never break the turn
        print(f"{SELF}: unexpected error: {exc!r}", file=sys.stderr)
    sys.exit(0)

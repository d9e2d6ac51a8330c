#!/usr/bin/env python3
"""A minimal receiver for hermes-hooks outbound webhooks that verifies X-Hermes-Signature-256.

    HERMES_WEBHOOK_SECRET=s3cret python3 receiver.py [--port 8787] [--host 127.0.0.1]

Prints `listening on http://HOST:PORT` once ready, then one JSON line per accepted delivery on
stdout; rejections go to stderr. Standard library only.
"""
import argparse
import hashlib
import hmac
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 1024 * 1024
SECRET = os.environ.get("HERMES_WEBHOOK_SECRET", "")
SEEN = set()  # delivery ids already accepted: a retry re-sends the same id


def is_valid_signature(secret: str, raw_body: bytes, header) -> bool:
    """HMAC-SHA256 of the RAW body bytes, compared in constant time."""
    if not isinstance(header, str) or not header.startswith("sha256="):
        return False
    expected = "sha256=" + hmac.new(secret.encode(), raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header)


class Handler(BaseHTTPRequestHandler):
    def _reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._reply(413, {"error": "body too large"})
        raw = self.rfile.read(length)
        delivery = self.headers.get("X-Hermes-Delivery")
        if SECRET and not is_valid_signature(SECRET, raw, self.headers.get("X-Hermes-Signature-256")):
            print(json.dumps({"rejected": "bad signature", "delivery_id": delivery}), file=sys.stderr, flush=True)
            return self._reply(401, {"error": "invalid signature"})
        try:
            body = json.loads(raw.decode("utf-8"))
        except ValueError:
            return self._reply(400, {"error": "invalid JSON"})
        if not isinstance(body, dict) or body.get("delivery_id") != delivery:
            return self._reply(400, {"error": "X-Hermes-Delivery does not match the body"})
        if delivery in SEEN:
            return self._reply(200, {"ok": True, "duplicate": True})
        SEEN.add(delivery)
        print(json.dumps({
            "verified": bool(SECRET),
            "event": self.headers.get("X-Hermes-Event"),
            "delivery_id": delivery,
            "hook_event_name": body.get("hook_event_name"),
            "tool_name": body.get("tool_name"),
            "session_id": body.get("session_id"),
        }), flush=True)
        return self._reply(200, {"ok": True})

    def log_message(self, *args):  # keep stdout for deliveries only
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8787)
    opts = parser.parse_args()
    if not SECRET:
        print("warning: HERMES_WEBHOOK_SECRET is not set; accepting UNSIGNED deliveries", file=sys.stderr, flush=True)
    server = ThreadingHTTPServer((opts.host, opts.port), Handler)
    print(f"listening on http://{opts.host}:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

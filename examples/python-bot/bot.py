#!/usr/bin/env python3
"""A Nightjar bot in Python, standard library only, through the trading app's local API.

The app (`nightjar app`, or `npm start`, which runs it beside the venue) holds the wallet, makes the
zero-knowledge proofs and signs; this bot only speaks JSON over HTTP to 127.0.0.1. It:

1. reads <data-dir>/ready.json for the app's URL and <data-dir>/app/api-token for its token,
2. checks that the app verified the venue's attestation (checks (a) to (d)),
3. deposits quote currency (with the dev faucet on a dev venue),
4. previews, then places a limit bid,
5. watches it (GET /api/v1/orders/{id}) until it is terminal or --wait seconds pass, then cancels it,
6. prints what happened. Any error exits non-zero with the app's message and its fix.

Usage: python3 bot.py [--data-dir D] [--symbol SOL-USDC] [--amount 0.5] [--price 155]
                      [--deposit 100] [--wait 60] [--app-url URL --token-file FILE]

The default bid, 0.5 SOL at up to 155 USDC, fills on the demo market (`npm start -- --demo-traders 4`)
within seconds: its traders quote around 150 (148 to 152), and a batch clears at one uniform price, so
the bid fills at that price, never worse than its limit.

Its own account: the bot trades as the account of the app it talks to. For an account of its own
(apart from the web page's), run an app for it and point the bot there:
  npx nightjar app --port 8490 --state-dir .nightjar/bot-app
  python3 bot.py --app-url http://127.0.0.1:8490 --token-file .nightjar/bot-app/api-token
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


class ApiError(Exception):
    """An error answer of the app: {"error": {"code", "message", "fix"?}}."""

    def __init__(self, status, body):
        err = (body or {}).get("error", {}) if isinstance(body, dict) else {}
        self.status = status
        self.code = err.get("code", "HTTP_%d" % status)
        self.fix = err.get("fix")
        super().__init__("%s (%s): %s" % (self.code, status, err.get("message", body)))


class App:
    """The app's local API with the bot token as a bearer."""

    def __init__(self, origin, token):
        self.origin = origin
        self.token = token

    def call(self, method, path, body=None, timeout=180):
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.origin + "/api/v1" + path, data=data, method=method)
        req.add_header("Authorization", "Bearer " + self.token)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                text = res.read().decode("utf-8")
                return json.loads(text) if text else None
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8")
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = text
            raise ApiError(e.code, parsed) from None


def connect(data_dir, app_url=None, token_file=None):
    """The app's origin (--app-url, else ready.json's app_url) and the bot token (--token-file, else
    <data-dir>/app/api-token). The bot trades as the app's account: give it an app of its own
    (`nightjar app --port 8490 --state-dir <data-dir>/bot-app`) to keep its orders apart."""
    if not app_url:
        with open(os.path.join(data_dir, "ready.json"), encoding="utf-8") as f:
            ready = json.load(f)
        app_url = ready.get("app_url")
    if not app_url:
        raise SystemExit("ready.json has no app_url: start the venue with the app (`npm start`, not --no-app)")
    parts = urllib.parse.urlsplit(app_url)
    with open(token_file or os.path.join(data_dir, "app", "api-token"), encoding="utf-8") as f:
        token = f.read().strip()
    return App("%s://%s" % (parts.scheme, parts.netloc), token)


def said(order):
    """An order's state as people read it: `fully_filled (Filled)`."""
    return "%s (%s)" % (order["status"], order["status_label"])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data-dir", default=os.environ.get("NIGHTJAR_DATA_DIR", ".nightjar"))
    p.add_argument("--symbol", "--market", dest="symbol", default="SOL-USDC", help="market (--market is an alias)")
    p.add_argument("--amount", default="0.5", help="base amount of the bid, human units")
    p.add_argument("--price", default="155",
                   help="limit price, quote per base (the demo market trades around 150: 155 fills there)")
    p.add_argument("--deposit", default="100", help="quote to deposit first, human units")
    p.add_argument("--wait", type=float, default=60.0, help="seconds to watch the bid before cancelling it")
    p.add_argument("--app-url", help="the app to trade through (default: ready.json's app_url)")
    p.add_argument("--token-file", help="its bot token (default: <data-dir>/app/api-token)")
    args = p.parse_args()

    app = connect(args.data_dir, args.app_url, args.token_file)

    venue = app.call("GET", "/venue")
    if venue["attestation"] != "verified":
        for c in venue.get("checks", []):
            print("  (%s) %s: %s" % (c["id"], "ok" if c["ok"] else "FAILED", c["detail"]))
        raise SystemExit("the venue's attestation is %s: not trading (%s)" % (
            venue["attestation"], (venue.get("error") or {}).get("message", "")))
    print("venue %s: attestation verified, boot session %s" % (venue["base_url"], venue["boot_session_id"]))
    for c in venue["checks"]:
        print("  (%s) %s" % (c["id"], c["detail"]))

    market = next((m for m in app.call("GET", "/markets") if m["symbol"] == args.symbol), None)
    if market is None:
        raise SystemExit("no market %s" % args.symbol)
    quote = market["quote"]["symbol"]

    dep = app.call("POST", "/deposits", {"asset": quote, "amount": args.deposit, "faucet": venue["dev"]})
    print("deposited %s %s: note %s… (%s)" % (dep["amount"], dep["asset"], dep["id"][:16], dep["state"]))

    ticket = {
        "symbol": args.symbol,
        "side": "bid",
        "type": "limit",
        "amount": args.amount,
        "price": args.price,
        "expiry_seconds": 300,
        "client_ref": "python-bot",
    }
    preview = app.call("POST", "/orders/preview", ticket)
    if not preview["ok"]:
        for e in preview["errors"]:
            print("  %s: %s (fix: %s)" % (e["code"], e["message"], e.get("fix", "-")))
        raise SystemExit("the order would be refused")
    print("bid %s %s at %s %s: locks %s %s (exact units: amount %s, price %s)" % (
        args.amount, market["base"]["symbol"], args.price, quote,
        preview["collateral"]["amount"], preview["collateral"]["asset"],
        preview["amount_units"], preview["price_units"]))

    started = time.time()
    order = app.call("POST", "/orders", ticket)
    print("order %s %s (proved and placed in %.1f s)" % (order["order_id"], said(order), time.time() - started))

    deadline = time.time() + args.wait
    while not order["terminal"] and time.time() < deadline:
        time.sleep(0.5)
        order = app.call("GET", "/orders/" + order["order_id"])
    if not order["terminal"]:
        order = app.call("DELETE", "/orders/" + order["order_id"])
        print("cancelled after %.0f s: %s" % (args.wait, said(order)))
    print("final: order %s %s, filled %s" % (order["order_id"], said(order), order["filled"]))

    for b in app.call("GET", "/balances"):
        print("  %-5s usable %s  arriving %s  locked %s  funding %s" % (b["asset"], b["usable"], b["arriving"], b["locked"], b["funding"]))
    print(json.dumps({"order_id": order["order_id"], "status": order["status"], "filled": order["filled"]}))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ApiError as e:
        print("error: %s%s" % (e, "\nfix: " + e.fix if e.fix else ""), file=sys.stderr)
        sys.exit(1)
    except (OSError, ValueError, KeyError) as e:
        print("error: %s" % e, file=sys.stderr)
        sys.exit(1)

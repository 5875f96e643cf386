#!/usr/bin/env bash
# Run by scripts/pi_check.sh inside the arm64 root: the Pi install, then the daemon, its API and read-dice.
# Env: PORT (a free loopback port), PHOTOS (photo paths inside the root).
set -euo pipefail

dir=/opt/companion
work=/tmp/pi-check
bin=$dir/.venv/bin

say() { echo "pi-check (arm64): $*" >&2; }

rm -rf "$dir" "$work" && mkdir -p "$work"
say "installing as make install-pi does (scripts/pi_install.sh $dir)"
/tmp/companion-src/scripts/pi_install.sh "$dir"

say "importing the daemon beside numpy-1.x modules from apt"
"$bin/python" -c '
import companion.daemon, vision.reader
import pywt  # from apt: a Cython module built against the system numpy, as simplejpeg is on the Pi
vision.reader.DiceReader()  # OpenCV dnn loads the ONNX models
print("the daemon, pywt (from apt) and the dice reader import")'

say "starting companion run --demo on 127.0.0.1:$PORT"
"$bin/companion" run --demo --state "$work/state" --host 127.0.0.1 --port "$PORT" > "$work/daemon.log" 2>&1 &
daemon=$!
trap 'kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true' EXIT
"$bin/python" - "$PORT" "$daemon" "$work/daemon.log" <<'EOF' || { cat "$work/daemon.log" >&2; exit 1; }
import json, re, sys, time, urllib.request
port, daemon, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def alive(pid):
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
url = f"http://127.0.0.1:{port}/api/games"
deadline = time.monotonic() + 180  # emulated: the first start compiles every .pyc
while True:
    try:
        games = json.load(urllib.request.urlopen(url, timeout=10))
        break
    except OSError:
        if time.monotonic() > deadline or not alive(daemon):
            sys.exit(f"the daemon did not answer {url}")
        time.sleep(1)
if not games:
    sys.exit(f"{url} lists no games: {games!r}")
token = re.search(r"/join\?token=([\w-]+)", open(log).read())
if not token:
    sys.exit("the daemon printed no host join URL")
ask = urllib.request.Request(f"http://127.0.0.1:{port}/api/state", headers={"Authorization": f"Bearer {token[1]}"})
state = json.load(urllib.request.urlopen(ask, timeout=30))
print(f"GET /api/games: {len(games)} games; GET /api/state (host): {sorted(state)[:6]}")
EOF

say "reading photos with companion read-dice"
# shellcheck disable=SC2086  # PHOTOS is a space-separated list of paths without spaces
"$bin/companion" read-dice --json $PHOTOS > "$work/dice.jsonl" || { cat "$work/dice.jsonl" >&2; exit 1; }
cat "$work/dice.jsonl"

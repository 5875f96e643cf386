#!/usr/bin/env bash
# `make pi-check`: runs the Python part of `make install-pi` (scripts/pi_install.sh) in an arm64
# Debian bookworm root under qemu-user-static, then starts the daemon and reads photos of dice in it.
# Usage: scripts/pi_check.sh APT_PACKAGE...   (as root; the packages go into the root)
# Env: PI_CHECK_LAPTOP  a Python with the project installed: read-dice must give the same dice there.
#      PI_ROOT_CACHE    where the root is kept between runs (default ~/.cache/companion/pi-root).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
root=${PI_ROOT_CACHE:-$HOME/.cache/companion/pi-root}
dice=$(cd "$here/.." && pwd)/shared/dice
suite=bookworm
packages=(ca-certificates "$@")
key="$suite arm64 minbase ${packages[*]}"  # a root built for another list is rebuilt

fail() { echo "pi-check FAILED: $*" >&2; exit 1; }
skip() { echo "pi-check SKIPPED: $* (the kernel refuses arm64 emulation here)" >&2; exit 0; }
note() { echo "pi-check: $*" >&2; }

[ "$(id -u)" = 0 ] || fail "run as root (debootstrap, chroot and binfmt_misc need it)."
for tool in debootstrap chroot unshare; do command -v "$tool" >/dev/null || fail "$tool is missing."; done
[ -f /usr/lib/binfmt.d/qemu-aarch64.conf ] || fail "qemu-user-static is missing (apt-get install qemu-user-static)."
[ -d "$dice" ] || fail "there are no photos of dice at $dice (../shared/dice beside the checkout)."

emulation() {  # registers qemu-aarch64 with binfmt_misc (its F flag: the root needs no qemu of its own)
    local misc=/proc/sys/fs/binfmt_misc
    [ -e "$misc/register" ] || mount -t binfmt_misc binfmt_misc "$misc" 2>/dev/null \
        || skip "binfmt_misc cannot be mounted at $misc"
    if [ ! -e "$misc/qemu-aarch64" ]; then
        grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf > "$misc/register" 2>/dev/null \
            || skip "binfmt_misc refuses to register qemu-aarch64"
    fi
    grep -qx enabled "$misc/qemu-aarch64" || echo 1 > "$misc/qemu-aarch64" 2>/dev/null \
        || skip "qemu-aarch64 is registered but disabled, and cannot be enabled"
}

mirror() {  # the Debian mirror this machine's apt uses (deb822 or one-line sources), else debootstrap's default
    cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v s="$suite" '
        /^URIs:/ {u=$2} /^Suites:/ {for (i = 2; i <= NF; i++) if ($i == s) f=u} /^$/ {u=""} END {print f}'
    awk -v s="$suite" '$1 == "deb" && $3 == s && $2 !~ /^\[/ {print $2; exit}' \
        /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
}

build_root() {  # debootstraps a fresh arm64 root with the packages, replacing any old one
    local url fresh="$root.new"
    url=$(mirror | grep -m1 . || true)
    local from=${url:-"debootstrap's default mirror"}
    note "building the arm64 $suite root in $root (from $from; minutes)"
    rm -rf --one-file-system "$fresh"
    local include; include=$(IFS=,; echo "${packages[*]}")
    # in a private mount namespace: the /proc and /sys debootstrap mounts in the root go away with it
    unshare --mount --propagation private \
        debootstrap --arch=arm64 --variant=minbase --include="$include" "$suite" "$fresh" ${url:+"$url"} \
        > "$root.log" 2>&1 || { tail -20 "$root.log" >&2; fail "debootstrap failed (log: $root.log)."; }
    chroot "$fresh" /usr/bin/apt-get clean
    echo "$key" > "$fresh/.pi-check-key"
    rm -rf --one-file-system "$root" && mv "$fresh" "$root"
    note "the root took $((SECONDS - started)) s to build"
}

pip_env() {  # the proxy and index settings the chroot's pip needs, read from this machine at run time
    local name index
    for name in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
        [ -n "${!name:-}" ] && echo "$name=${!name}"
    done
    index=$(python3 -m pip config get global.index-url 2>/dev/null || true)
    [ -n "$index" ] && echo "PIP_INDEX_URL=$index"
    [ -f "$root/tmp/host-ca.crt" ] && echo "PIP_CERT=/tmp/host-ca.crt"
    return 0
}

host_ca() {  # the certificates this machine's pip trusts (a TLS proxy's CA among them), or none
    local cert=${PIP_CERT:-$(python3 -m pip config get global.cert 2>/dev/null || true)}
    rm -f "$root/tmp/host-ca.crt"
    [ -f "$cert" ] && cp -L "$cert" "$root/tmp/host-ca.crt"
    return 0
}

photos() {  # a few photos: the first of each set of ../shared/dice
    local set
    for set in "$dice"/*/; do
        find "$set" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.png' \) | sort | sed -n 1p  # sed reads all: head's early exit would SIGPIPE sort and, with pipefail, cut the list short
    done
}

in_root() {  # runs the install and the checks inside the root, in a private mount namespace
    local port; port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    host_ca
    local -a env=(PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8)
    mapfile -t -O 3 env < <(pip_env)
    local list; list=$(photos | sed "s|^$dice/|/tmp/dice/|" | tr '\n' ' ')
    unshare --mount --propagation private bash -euo pipefail -c '
        root=$1; here=$2; dice=$3; shift 3
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mkdir -p "$root/tmp/companion-src" "$root/tmp/dice"
        mount --bind -o ro "$here" "$root/tmp/companion-src"
        mount --bind -o ro "$dice" "$root/tmp/dice"
        cp -L /etc/resolv.conf "$root/etc/resolv.conf"
        exec chroot "$root" env -i "$@" bash /tmp/companion-src/scripts/pi_check_inside.sh
    ' in_root "$root" "$here" "$dice" "${env[@]}" PORT="$port" PHOTOS="$list"
}

compare_dice() {  # read-dice on this machine (the laptop install) must find the same dice as on the Pi
    [ -n "${PI_CHECK_LAPTOP:-}" ] || { note "PI_CHECK_LAPTOP unset: not comparing with the laptop's reading"; return; }
    local -a files; mapfile -t files < <(photos)
    local laptop="$root/tmp/pi-check/laptop.jsonl" status=0
    "$PI_CHECK_LAPTOP" -m companion read-dice --json "${files[@]}" > "$laptop" || status=$?
    [ "$status" = 0 ] || fail "the laptop's read-dice ($PI_CHECK_LAPTOP) failed with status $status."
    sed "s|$dice/|/tmp/dice/|" "$laptop" \
        | "$PI_CHECK_LAPTOP" "$here/scripts/pi_dice_compare.py" "$root/tmp/pi-check/dice.jsonl" \
        || fail "the Pi's read-dice differs from the laptop's (above)."
}

started=$SECONDS
emulation
mkdir -p "$(dirname "$root")"
exec 9> "$root.lock"
flock 9
if [ "$(cat "$root/.pi-check-key" 2>/dev/null)" != "$key" ]; then build_root; else note "reusing the arm64 root in $root"; fi
chroot "$root" /usr/bin/true || fail "arm64 programs do not run under qemu here (chroot $root /usr/bin/true)."
in_root || fail "the Pi install or its checks failed inside the arm64 root (above)."
compare_dice
note "passed in $((SECONDS - started)) s"

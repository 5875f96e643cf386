#!/bin/sh
# The Python part of `make install-pi`, also run by `make pi-check` in an arm64 Debian root.
# Usage: scripts/pi_install.sh INSTALL_DIR   (as root; the apt packages are already installed)
#
# The venv sees the system's packages (picamera2, simplejpeg, lgpio come from apt, built against
# the system's numpy 1.x), so pip must not put a numpy 2 in front of it: the constraints keep the
# system's numpy and pin an OpenCV wheel that accepts it (scripts/pi-constraints.txt).
set -eu

dir=${1:?usage: scripts/pi_install.sh INSTALL_DIR}
python=${PYTHON:-python3}
src=$(cd "$(dirname "$0")/.." && pwd)

say() { echo "pi_install: $*" >&2; }

system_numpy=$("$python" -c 'import numpy; print(numpy.__version__)') || {
    say "the system's Python has no numpy: install the apt package python3-numpy first."
    exit 1
}
mkdir -p "$dir"
rsync -a --delete --exclude .venv --exclude state --exclude .git "$src/" "$dir/"
"$python" -m venv --system-site-packages "$dir/.venv"
constraints="$dir/.venv/pi-constraints.txt"
cat "$src/scripts/pi-constraints.txt" > "$constraints"
echo "numpy==$system_numpy  # the system's, from apt" >> "$constraints"
"$dir/.venv/bin/pip" install --quiet --disable-pip-version-check --constraint "$constraints" "$dir" || {
    say "pip could not install the companion beside the system's numpy $system_numpy (see above)."
    exit 1
}

# What actually imports: the venv's numpy must be the system's, OpenCV must load, and every
# module from apt that the system's Python imports must still import beside them.
"$dir/.venv/bin/python" - "$("$python" -c 'import numpy; print(numpy.__file__)')" <<'EOF'
import importlib, sys
import numpy, cv2
if numpy.__file__ != sys.argv[1]:
    sys.exit(f"pi_install: the venv's numpy {numpy.__version__} ({numpy.__file__}) hides the system's "
             f"({sys.argv[1]}): modules from apt built against it would fail to import.")
print(f"pi_install: numpy {numpy.__version__} (the system's), OpenCV {cv2.__version__}")
EOF
for module in picamera2 simplejpeg pywt; do
    "$python" -c "import $module" 2>/dev/null || continue  # not installed from apt here
    "$dir/.venv/bin/python" -c "import numpy, cv2, $module" || {
        say "the system's $module imports with the system's Python but not in the venv (above)."
        exit 1
    }
    echo "pi_install: $module (from apt) imports in the venv"
done

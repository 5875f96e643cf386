# The two commands of the README: `make run` (demo mode) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PI_DIR := /opt/companion

.PHONY: run test bench train-dice browser systemd-analyze install-pi

$(VENV)/.run: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.test: pyproject.toml $(VENV)/.run
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.run
	$(PY) -m companion run --demo

test: $(VENV)/.test browser systemd-analyze
	$(PY) -m pytest

bench: $(VENV)/.test
	$(PY) benchmarks/run_all.py

# Retrains the dice reader's three networks into vision/models (PyTorch on the CPU, about 3 h on one core).
train-dice: $(VENV)/.run
	$(PY) -m pip install --quiet -e '.[train]'
	$(PY) scripts/train_dice.py --half all

# The headless browser for the phone-page test: Debian's chromium (no browser downloads).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

# systemd-analyze, to verify the service unit in the tests.
systemd-analyze:
	@command -v systemd-analyze >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q systemd; }

# On a Raspberry Pi (Raspberry Pi OS, bookworm or later): installs the daemon as a systemd service.
install-pi:
	$(SUDO) apt-get update -q
	$(SUDO) apt-get install -y -q python3-venv python3-picamera2 python3-lgpio rsync
	id companion >/dev/null 2>&1 || $(SUDO) useradd --system --home-dir /var/lib/companion \
		--shell /usr/sbin/nologin --groups gpio,video companion
	$(SUDO) mkdir -p $(PI_DIR) /etc/companion
	$(SUDO) rsync -a --delete --exclude .venv --exclude state --exclude .git ./ $(PI_DIR)/
	$(SUDO) $(PYTHON) -m venv --system-site-packages $(PI_DIR)/.venv
	$(SUDO) $(PI_DIR)/.venv/bin/pip install --quiet $(PI_DIR)
	test -f /etc/companion/companion.toml || $(SUDO) cp companion.example.toml /etc/companion/companion.toml
	$(SUDO) cp systemd/companion.service /etc/systemd/system/companion.service
	$(SUDO) systemctl daemon-reload
	$(SUDO) systemctl enable --now companion
	@echo "Installed. The host's join URL: sudo -u companion $(PI_DIR)/.venv/bin/companion host-url --config /etc/companion/companion.toml --state /var/lib/companion"

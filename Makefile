# The two commands of the README: `make run` (demo mode) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PI_DIR := /opt/companion
PI_APT_DEBIAN := python3-venv python3-numpy rsync  # from Debian: pi-check installs these in its arm64 root
PI_APT_RPI := python3-picamera2 python3-lgpio      # from Raspberry Pi's archive only
# install-pi only, not pi-check's root: installing avahi-daemon starts a daemon, which a chroot cannot run
PI_APT_NAME := avahi-daemon
# phones open the box at http://table-companion.local:<port>/ (avahi announces the hostname)
PI_NAME := table-companion

.PHONY: run test bench screenshots train-dice folds renders browser systemd-analyze front install-pi pi-check

$(VENV)/.run: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.test: pyproject.toml $(VENV)/.run
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.run front
	$(PY) -m companion run --demo $(if $(PORT),--port $(PORT))

test: $(VENV)/.test browser systemd-analyze front pi-check
	$(PY) -m pytest

bench: $(VENV)/.test
	$(PY) benchmarks/run_all.py

# The README's screenshots (docs/img), taken by the browser test from a scripted game; Korean and emoji fonts
# first, or the Korean page shows empty boxes.
screenshots: $(VENV)/.test browser
	@fc-list :lang=ko family | grep -q . && fc-list : family | grep -qi emoji || { \
		$(SUDO) apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q fonts-nanum fonts-noto-color-emoji; }
	SCREENSHOTS=docs/img $(PY) -m pytest -q tests/web/test_screenshots.py

# Retrains the dice reader's four networks into vision/models (PyTorch on the CPU, about 4 h on one core).
# The finder and the d8 reader learn from Blender renders too, rendered when missing: the finder from the first
# TRAIN_RENDERS table frames, the d8 reader from the first D8_TABLE_RENDERS of them and TRAIN_D8_RENDERS d8 close-ups.
# The finder's views show one die alone in ten and stay upright.
TRAIN_RENDERS ?= 601
D8_TABLE_RENDERS ?= 301
TRAIN_D8_RENDERS ?= 600
D8_RENDER_SET ?= blender-d8-v1
train-dice: $(VENV)/.run
	$(MAKE) renders RENDERS=$(TRAIN_RENDERS)
	$(MAKE) renders RENDERS=$(TRAIN_D8_RENDERS) RENDER_KIND=d8 RENDER_SET=$(D8_RENDER_SET) RENDER_SEED=430000
	$(PY) -m pip install --quiet -e '.[train]'
	$(PY) scripts/train_dice.py --half all --part finder --renders $(RENDER_DIR)/$(RENDER_SET):$(TRAIN_RENDERS) --alone-share 0.1 \
		--upright-views
	$(PY) scripts/train_dice.py --half all --part faces second
	$(PY) scripts/train_dice.py --half all --part d8 --renders $(RENDER_DIR)/$(RENDER_SET):$(D8_TABLE_RENDERS) \
		--renders $(RENDER_DIR)/$(D8_RENDER_SET):$(TRAIN_D8_RENDERS)

# Leave-one-source-out folds into FOLDS_DIR/<source> (resumable; about 2.5 h of one core a source, two at a time;
# a crop source shares the finder of the fold `none`),
# measured by `benchmarks/dice_sources.py --folds $(FOLDS_DIR)`. FOLD: one source only.
FOLDS_DIR ?= $(HOME)/.cache/companion/folds/loso
FOLD ?=
folds: $(VENV)/.run
	$(MAKE) renders RENDERS=$(TRAIN_RENDERS)
	$(PY) -m pip install --quiet -e '.[train]'
	$(PY) scripts/train_folds.py --out $(FOLDS_DIR) --renders $(RENDER_DIR)/$(RENDER_SET):$(TRAIN_RENDERS) --alone-share 0.1 --upright-views \
		--at-once 2 $(if $(FOLD),--fold $(FOLD))

# Photoreal labelled dice from Blender (Cycles on the CPU, about 10 s a 320x320 frame on 2 cores) into
# RENDER_DIR/RENDER_SET: JPEGs, labels.csv and details.csv. Resumable: a rerun skips the finished frames.
RENDERS ?= 2000
RENDER_SET ?= blender-v1
RENDER_SEED ?= 330000
# RENDER_KIND: table (any dice), d8 (a d8 close up: make renders RENDER_KIND=d8 RENDER_SET=blender-d8-v1 RENDER_SEED=430000)
# or low (a table seen from 50 to 75 degrees off straight down: RENDER_SET=blender-low-v1 RENDER_SEED=530000)
# or busy (a tray of 12 to 30 d6: RENDER_SET=blender-busy-v1 RENDER_SEED=630000 RENDER_SIZE=480).
RENDER_KIND ?= table
RENDER_SIZE ?= 320
RENDER_DIR ?= $(HOME)/.cache/companion/renders
renders:
	@command -v blender >/dev/null 2>&1 && /usr/bin/python3 -c 'import numpy' 2>/dev/null || { \
		$(SUDO) apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q blender python3-numpy; }
	blender -b --python-exit-code 1 -P scripts/render_dice/render.py -- --out $(RENDER_DIR)/$(RENDER_SET) \
		--count $(RENDERS) --seed $(RENDER_SEED) --kind $(RENDER_KIND) --size $(RENDER_SIZE)

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

# nginx, which `companion run` starts in front of its web server (web/front.py): Debian's package. Its own
# system service, which apt starts on port 80, is turned off when this installs it: the companion runs its own.
front:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { \
		$(SUDO) apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx && \
		{ $(SUDO) systemctl disable --now nginx 2>/dev/null || true; }; }

# On a Raspberry Pi (Raspberry Pi OS, bookworm or later): installs the daemon as a systemd service.
install-pi: front
	$(SUDO) apt-get update -q
	$(SUDO) apt-get install -y -q $(PI_APT_DEBIAN) $(PI_APT_RPI) $(PI_APT_NAME)
	@# The box's name. avahi-daemon announces the machine's hostname as <hostname>.local (its host-name setting
	@# defaults to the hostname), so naming the Pi is all it takes: it lasts across reboots, needs no unit of ours,
	@# and `hostname` says it over SSH. (A services/*.service file would announce the web page to service browsers,
	@# which phones' browsers do not use; avahi-publish -a in a unit would keep a second name beside the real one.)
	@if [ "$$(hostname)" != $(PI_NAME) ]; then \
		$(SUDO) hostnamectl set-hostname $(PI_NAME) && \
		{ if grep -q '^127\.0\.1\.1[[:space:]]' /etc/hosts; \
			then $(SUDO) sed -i 's/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$(PI_NAME)/' /etc/hosts; \
			else printf '127.0.1.1\t%s\n' $(PI_NAME) | $(SUDO) tee -a /etc/hosts >/dev/null; fi; } && \
		$(SUDO) systemctl restart avahi-daemon && echo "This Pi is now called $(PI_NAME): phones find it at $(PI_NAME).local"; \
	fi
	id companion >/dev/null 2>&1 || $(SUDO) useradd --system --home-dir /var/lib/companion \
		--shell /usr/sbin/nologin --groups gpio,video companion
	$(SUDO) mkdir -p $(PI_DIR) /etc/companion
	$(SUDO) env PYTHON=$(PYTHON) scripts/pi_install.sh $(PI_DIR)
	test -f /etc/companion/companion.toml || $(SUDO) cp companion.example.toml /etc/companion/companion.toml
	$(SUDO) cp systemd/companion.service /etc/systemd/system/companion.service
	$(SUDO) systemctl daemon-reload
	$(SUDO) systemctl enable --now companion
	@echo "Installed. The host's join URL: sudo -u companion $(PI_DIR)/.venv/bin/companion host-url --config /etc/companion/companion.toml --state /var/lib/companion"

# The Python part of install-pi in an arm64 Debian bookworm root (qemu), then the daemon and read-dice
# in it. The root is kept in ~/.cache/companion/pi-root; python3-pywt stands in for simplejpeg.
pi-check: $(VENV)/.run
	@command -v debootstrap >/dev/null 2>&1 && test -f /usr/lib/binfmt.d/qemu-aarch64.conf || { \
		$(SUDO) apt-get update -q && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap qemu-user-static; }
	$(SUDO) env PI_CHECK_LAPTOP=$(PY) scripts/pi_check.sh $(PI_APT_DEBIAN) python3-pywt

# shellcheck shell=bash disable=SC2034  # the variables are used by the scripts that source this
# Shared by build, up, down and smoke: paths, versions and small helpers.
# Sourced, never run.

TESTENV_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source=versions.env
source "$TESTENV_HOME/versions.env"

# The cache is keyed by the pinned versions and the target platform only (not by
# the Go patch release), so a machine that kept its cache reuses it across
# checkouts and across CI runs.
testenv_versions_hash() {
  {
    grep -E '^(KUBERNETES|ETCD|KWOK)_VERSION=' "$TESTENV_HOME/versions.env"
    go env GOOS GOARCH 2>/dev/null || uname -sm
  } | sha256sum | cut -c1-12
}

TESTENV_CACHE_ROOT=${RUNBOOK_TESTENV_CACHE:-$HOME/.cache/runbook-testenv}
TESTENV_CACHE=$TESTENV_CACHE_ROOT/$(testenv_versions_hash)
TESTENV_BIN=$TESTENV_CACHE/bin
TESTENV_STAGES=$TESTENV_CACHE/kwok-stages
TESTENV_BINARIES=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)

# Runtime state of a running environment.
TESTENV_DIR=${RUNBOOK_TESTENV_DIR:-/tmp/runbook-testenv}
# Order matters: `up` starts them in this order, `down` stops them in reverse.
TESTENV_COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)

log() { printf '%s [testenv] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# True if the process exists and is not a zombie. A component that exits while
# `up` (its parent) is still running stays a zombie until `up` ends, and
# `kill -0` alone would call it alive.
pid_alive() {
  local state
  state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $state && $state != Z && $state != X ]]
}

# Prints the pid recorded for a component if that process is still alive.
testenv_live_pid() {
  local pidfile=$TESTENV_DIR/run/$1.pid pid
  [[ -s $pidfile ]] || return 1
  pid=$(<"$pidfile")
  pid_alive "$pid" || return 1
  echo "$pid"
}

# Seconds since the epoch with a fraction, for step timings.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

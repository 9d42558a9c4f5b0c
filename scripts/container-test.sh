#!/usr/bin/env bash
# Builds the container images from docker/ as they are and tests them for
# real with Debian's podman: the revision in --version, the server's health
# check, a completion checked by the CLI's own validator, the server's user
# (uid 10001), its stop on SIGTERM within the grace period, and the same
# server/client pair through docker/compose.yaml with podman-compose.
#
#   scripts/container-test.sh           reuse the cached base image and
#                                       ccache (a few minutes)
#   scripts/container-test.sh --fresh   start from an empty state (the base
#                                       image made anew, a full build); also
#                                       how to reclaim the disk: vfs keeps
#                                       every layer as a full copy, and each
#                                       run with changed sources adds GBs
#
# Needs root and `apt-get install podman podman-compose debootstrap runc`.
# Everything it keeps (podman's storage, the debootstrapped base image, the
# build's ccache) lives in $NQUEENS_CONTAINER_STATE
# (/var/tmp/nqueens-container-test), apart from any other podman use on the
# machine. Port 50051 must be free: the server runs on the host network there
# (the image's health check asks it), and compose.yaml publishes it. Prints
# PASS or FAIL per step; exits 1 on any failure.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
state=${NQUEENS_CONTAINER_STATE:-/var/tmp/nqueens-container-test}
# The Debian archive that apt here already uses, for the base image.
mirror=${NQUEENS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
port=50051
server_image=nqueens-server:latest
client_image=nqueens-client:latest
server_name=nqueens-ct-server
compose_project=nqueens-ct
# The server's default --grace, and how much longer it may take to exit
# (README, "Shutdown": within --grace plus about a second).
grace=10
stop_limit=$((grace + 2))

case "${1:-}" in
  "") fresh=false ;;
  --fresh) fresh=true ;;
  *) echo "usage: $0 [--fresh]" >&2; exit 2 ;;
esac

if ((EUID != 0)); then
  echo "container-test: needs root (podman's vfs storage and runc as root)" >&2
  exit 2
fi
for tool in podman podman-compose debootstrap runc; do
  if ! command -v "$tool" >/dev/null; then
    echo "container-test: $tool missing;" \
      "apt-get install -y podman podman-compose debootstrap runc" >&2
    exit 2
  fi
done

failures=0
started=$(date +%s)
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; failures=$((failures + 1)); }
# A step's wall time, for the summary of where the minutes go.
step_start() { step_t0=$(date +%s); }
step_secs() { echo "$(($(date +%s) - step_t0))s"; }

if $fresh; then
  # Containers and storage from an earlier run may still hold mounts.
  rm -rf "$state"
fi
mkdir -p "$state/tmp" "$state/networks" "$state/work"

# Settings these machines need, in files of our own (not /etc/containers) so
# that every podman this script starts, podman-compose's too, reads them:
# vfs storage (no overlay mounts inside this sandbox), runc and cgroupfs (no
# systemd), no default ulimits (raising them is refused).
cat >"$state/storage.conf" <<EOF
[storage]
driver = "vfs"
graphroot = "$state/storage"
runroot = "$state/run"
EOF
cat >"$state/containers.conf" <<EOF
[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "$state/run/libpod"

[network]
network_config_dir = "$state/networks"
EOF
export CONTAINERS_CONF="$state/containers.conf"
export CONTAINERS_STORAGE_CONF="$state/storage.conf"
# buildah keeps RUN --mount=type=cache (the ccache) under $TMPDIR.
export TMPDIR="$state/tmp"

# Bounded podman calls: a hung engine fails the step instead of the run.
# Their stderr goes to a log: without systemd podman complains, on every
# container with a health check, that it cannot make a timer for it.
pm() { timeout 120 podman "$@" 2>>"$state/podman.log"; }

cleanup() {
  timeout 60 podman rm -f -t 0 "$server_name" >/dev/null 2>&1 || true
  (cd "$repo" && timeout 120 podman-compose -p "$compose_project" \
    -f docker/compose.yaml down -t 0) >/dev/null 2>&1 || true
  # podman-compose 1.0.3 leaves the project's network behind.
  timeout 60 podman network rm -f "${compose_project}_default" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# --- The base image: debian:bookworm made offline from Debian's archive. ---
step_start
if pm image exists docker.io/library/debian:bookworm; then
  pass "base image debian:bookworm (cached)"
else
  rootfs="$state/rootfs"
  rm -rf "$rootfs"
  if debootstrap --variant=minbase bookworm "$rootfs" "$mirror" \
    >"$state/debootstrap.log" 2>&1; then
    # The same tree serves as debian:bookworm-slim: the images install what
    # they need on top of it.
    tar -C "$rootfs" -c . |
      timeout 300 podman import - docker.io/library/debian:bookworm >>"$state/debootstrap.log" 2>&1
    pm tag docker.io/library/debian:bookworm docker.io/library/debian:bookworm-slim
    rm -rf "$rootfs"
    pass "base image debian:bookworm from debootstrap ($(step_secs))"
  else
    fail "base image: debootstrap failed, see $state/debootstrap.log"
    exit 1
  fi
fi

# --- The images, built from the Dockerfiles as they are. ---
# .dockerignore keeps .git out of the context; the revision goes in as a
# build argument (cmake/GitRevision.cmake).
revision=$(git -C "$repo" describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
build_image() { # DOCKERFILE TAG
  local log="$state/build-${2%%:*}.log"
  step_start
  # --pull=never: the base image is local, and no registry is reachable.
  # --format docker: the OCI format has no HEALTHCHECK, podman drops it.
  if (cd "$repo" && timeout 3600 nice -n 19 podman build --network host --pull=never \
    --format docker \
    --build-arg NQUEENS_REVISION="$revision" -f "$1" -t "$2" .) >"$log" 2>&1; then
    pass "build $2 ($(step_secs))"
  else
    fail "build $2: see $log"
    tail -n 30 "$log"
    exit 1
  fi
}
build_image docker/Dockerfile.server "$server_image"
build_image docker/Dockerfile.client "$client_image"

for image in "$server_image" "$client_image"; do
  version=$(pm run --rm --network host "$image" --version || true)
  if [[ $version == *"git $revision"* ]]; then
    pass "$image --version: $version"
  else
    fail "$image --version: '$version', want git $revision"
  fi
done

if ss -Hltn "sport = :$port" | grep -q .; then
  fail "port $port is in use on this machine; the server image listens there"
  exit 1
fi

# Runs the client image against the server on the host network.
client() { timeout 120 podman run --rm -i --network host "$client_image" "$@"; }

# Polls CHECK... until it succeeds: at most 60 tries a second apart.
poll() {
  local try
  for ((try = 0; try < 60; try++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  return 1
}

# Completes the sample composition through --server and checks the answer
# with the CLI's local validator, and that it keeps the composition's queens.
check_completion() { # LABEL CLIENT-COMMAND...
  local label=$1 out="$state/work/completed.q"
  shift
  if ! "$@" >"$out" 2>"$state/work/complete.err"; then
    fail "$label: complete failed: $(tail -n 3 "$state/work/complete.err")"
    return
  fi
  if ! client --local validate - <"$out" >"$state/work/validate.out" 2>&1; then
    fail "$label: validate rejects '$(tr '\n' ' ' <"$out")': $(cat "$state/work/validate.out")"
    return
  fi
  # composition-8.q is "1 0 5 8 0 0 6 0" below its comments.
  local -a given answer
  read -r -a given <<<"$(grep -v '^#' "$repo/examples/composition-8.q" | tr '\n' ' ')"
  read -r -a answer <<<"$(tr '\n' ' ' <"$out")"
  local i
  if ((${#answer[@]} != ${#given[@]})); then
    fail "$label: answer '${answer[*]}' is not an 8 x 8 board"
    return
  fi
  for i in "${!given[@]}"; do
    if ((given[i] != 0 && given[i] != answer[i])); then
      fail "$label: answer '${answer[*]}' moves the queen of row $((i + 1))"
      return
    fi
  done
  pass "$label: completed to '${answer[*]}', valid"
}

# --- The server image on its own. ---
step_start
# Loopback only: with the host network, 0.0.0.0 would be every interface.
if ! pm run -d --name "$server_name" --network host "$server_image" \
  --listen "127.0.0.1:$port" >/dev/null; then
  fail "server: podman run"
  exit 1
fi
# The image's own HEALTHCHECK (nqueens health), run by hand: without systemd
# podman has no timer to run it.
if poll pm healthcheck run "$server_name"; then
  pass "server: HEALTHCHECK healthy ($(step_secs))"
else
  fail "server: HEALTHCHECK not healthy within 60 tries"
  timeout 60 podman logs "$server_name" 2>&1 | tail -n 20
fi
health=$(client --server "localhost:$port" health 2>&1 || true)
if [[ $health == SERVING ]]; then
  pass "client image: health says SERVING"
else
  fail "client image: health says '$health'"
fi
check_completion "client image" \
  client --server "localhost:$port" complete /usr/share/nqueens/examples/composition-8.q

# The uid of the process itself, as the kernel has it.
pid=$(pm inspect -f '{{.State.Pid}}' "$server_name")
uid=$(awk '/^Uid:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo none)
comm=$(cat "/proc/$pid/comm" 2>/dev/null || echo none)
if [[ $uid == 10001 && $comm == nqueens-server ]]; then
  pass "server: $comm runs as uid $uid"
else
  fail "server: process '$comm' runs as uid $uid, want nqueens-server as 10001"
fi

# podman stop sends SIGTERM and SIGKILL after its timeout; an exit status of
# 0 (not 137) within --grace plus a little is a clean, timely shutdown.
t0=$(date +%s%N)
pm stop -t "$((stop_limit + 3))" "$server_name" >/dev/null || true
ms=$((($(date +%s%N) - t0) / 1000000))
status=$(pm inspect -f '{{.State.ExitCode}}' "$server_name")
if [[ $status == 0 ]] && ((ms <= stop_limit * 1000)); then
  pass "server: stopped on SIGTERM in ${ms} ms, exit status 0"
else
  fail "server: stop took ${ms} ms (limit ${stop_limit} s), exit status $status"
fi
pm rm -f "$server_name" >/dev/null

# --- The same through docker/compose.yaml, as it is: its own network, where
# the client finds the server by its service name, and port 50051 published.
# podman-compose 1.0.3 ignores depends_on's condition and, without systemd,
# nothing runs health checks: the script starts the server, runs the
# service's health check until it passes, then starts the client.
compose() {
  (cd "$repo" && timeout 300 podman-compose -p "$compose_project" \
    -f docker/compose.yaml "$@")
}
step_start
# --no-build: the images are the ones just built and tested above.
if compose up -d --no-build server >"$state/compose-up.log" 2>&1; then
  server_ctr=$(pm ps -q --filter "label=io.podman.compose.project=$compose_project" \
    --filter "label=com.docker.compose.service=server")
  if [[ -n $server_ctr ]] && poll pm healthcheck run "$server_ctr"; then
    pass "compose: server up and healthy ($(step_secs))"
  else
    fail "compose: server not healthy; see $state/compose-up.log"
  fi
else
  fail "compose: up server failed; see $state/compose-up.log"
fi
# The client service as compose.yaml defines it: its command completes the
# sample board on server:50051. Its answer is in the container's stdout.
if compose up -d --no-build client >>"$state/compose-up.log" 2>&1; then
  client_ctr=$(pm ps -aq --filter "label=io.podman.compose.project=$compose_project" \
    --filter "label=com.docker.compose.service=client")
  if [[ -n $client_ctr ]] && timeout 120 podman wait "$client_ctr" >/dev/null; then
    check_completion "compose: client service" pm logs "$client_ctr"
  else
    fail "compose: client service did not finish"
  fi
else
  fail "compose: up client failed; see $state/compose-up.log"
fi
if compose down -t "$stop_limit" >>"$state/compose-up.log" 2>&1 &&
  [[ -z $(pm ps -aq --filter "label=io.podman.compose.project=$compose_project") ]]; then
  pass "compose: down"
else
  fail "compose: down left containers; see $state/compose-up.log"
fi

echo "container-test: $failures failed, $(($(date +%s) - started)) s in all"
((failures == 0))

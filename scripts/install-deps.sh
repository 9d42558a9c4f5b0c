#!/usr/bin/env bash
# Installs the Debian bookworm packages this project needs, skipping those
# already present (so it is fast and touches nothing when all are there).
#
#   scripts/install-deps.sh            to build and test (compilers, -dev
#                                      packages, Python gRPC for the
#                                      Python client and its tests, clang and
#                                      its libFuzzer runtime for fuzz/)
#   scripts/install-deps.sh --build    only what scripts/build.sh needs (for
#                                      the container images' build stage)
#   scripts/install-deps.sh --runtime  only the shared libraries the binaries
#                                      load (for the slim container images)
#
# Runs apt-get as root, or through sudo when not root.
set -euo pipefail

# What scripts/build.sh needs: the binaries, man pages, completions and site.
build_packages=(
  build-essential cmake ninja-build ccache pkg-config
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libabsl-dev libspdlog-dev
  # The certificates' compression (core and checker).
  zlib1g-dev
  # The server's token digests and TLS file checks.
  libssl-dev
  # The server's Prometheus metrics and the web server that serves them.
  prometheus-cpp-dev libcivetweb-dev
  # The server's JSON-over-HTTP face (server/http/), and the TLS library it
  # speaks TLS with.
  libmicrohttpd-dev libgnutls28-dev
  # Man pages made from the binaries' --help.
  help2man
  # The documentation site that the package installs (cmake/Site.cmake).
  mkdocs mkdocs-material
)
# The rest of a developer's and CI's needs: tests, tools, packaging.
test_packages=(
  libgtest-dev
  # The TLS tests make their certificates with the openssl command.
  openssl
  python3 python3-grpcio python3-protobuf python3-yaml
  # The Python client package (clients/python): installed offline into a
  # virtual environment with Debian's setuptools and wheel; its test also
  # passes numpy boards.
  python3-venv python3-setuptools python3-wheel python3-numpy
  # scripts/fuzz.sh: clang++, and libclang_rt.fuzzer (with clang's ASan and
  # UBSan runtimes), which clang only recommends (via libclang-common-14-dev).
  clang libclang-rt-14-dev
  # The linker the build prefers (CMakeLists.txt: NQUEENS_USE_LLD).
  lld
  # scripts/test.sh's format and tidy stages.
  clang-format clang-tidy
  # The .deb's dependencies (dpkg-shlibdeps) for CPack.
  dpkg-dev
  # tests/packaging: lintian on the .deb, and man (with groff) rendering the
  # man pages.
  lintian man-db
  # tests/http: the playground page's test drives a headless Chromium.
  chromium
  # The end-to-end tests print a hung server's stacks with it.
  gdb
  # tests/node: the API checks' tools from npm (scripts/npm-tools.sh), and
  # the Node that runs them.
  nodejs npm
)
# What `ldd` lists for nqueens-server, by owning package; their own
# dependencies (libssl3, libre2-9, libc-ares2, zlib1g...) come with them.
# The nqueens CLI needs only the C library (client/CMakeLists.txt).
runtime_packages=(
  libgrpc++1.51 libgrpc29 libprotobuf32 libabsl20220623 libspdlog1.10 libfmt9
  libprometheus-cpp-core1.0 libcivetweb1 libmicrohttpd12 libgnutls30
)

usage() {
  echo "usage: $0 [--build | --runtime]"
}

case "${1:-}" in
  "") packages=("${build_packages[@]}" "${test_packages[@]}") ;;
  --build) packages=("${build_packages[@]}") ;;
  --runtime) packages=("${runtime_packages[@]}") ;;
  -h | --help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac

# Installed packages and what they provide: another vendor's nodejs package
# provides npm, and Debian's npm cannot be installed beside it.
declare -A present=()
while read -r name; do
  present[$name]=1
done < <(dpkg-query -W -f='${db:Status-Status} ${Package}, ${Provides}\n' |
  sed -n 's/^installed //p' | tr ',' '\n' | sed 's/ *(.*//; s/^ *//; /^$/d')
missing=()
for package in "${packages[@]}"; do
  [[ -v present[$package] ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

as_root=(env DEBIAN_FRONTEND=noninteractive)
if ((EUID != 0)); then
  if ! command -v sudo >/dev/null; then
    echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
  as_root=(sudo "${as_root[@]}")
fi

echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"

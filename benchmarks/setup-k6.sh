#!/usr/bin/env bash
# Builds k6 from its Go module with the machine's Go toolchain into benchmarks/.bin/k6.
# Skips the build when that binary already reports the pinned version.
#   K6_VERSION  the go.k6.io/k6 module version to build (default below)
set -euo pipefail

K6_VERSION="${K6_VERSION:-v1.8.1}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="$here/.bin"

if [[ -x "$bin/k6" ]] && "$bin/k6" version 2>/dev/null | grep -q "${K6_VERSION}"; then
  echo "k6 ${K6_VERSION} already built: $bin/k6"
  exit 0
fi

command -v go >/dev/null || { echo "setup-k6: go is not installed (k6 is built from source with it)" >&2; exit 1; }

mkdir -p "$bin"
echo "building k6 ${K6_VERSION} with $(go version) (a few minutes on 2 cores)..."
# CGO off: a static binary, no C toolchain needed.
GOBIN="$bin" CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -trimpath" go install "go.k6.io/k6@${K6_VERSION}"
"$bin/k6" version

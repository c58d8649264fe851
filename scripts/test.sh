#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, and runs ctest
# (lit/FileCheck tests and GoogleTest unit tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
build=${TESSERA_BUILD_DIR:-$root/build}
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"

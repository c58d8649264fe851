#!/usr/bin/env bash
# Installs what Tessera needs on a fresh Debian 12 machine (run as root):
# LLVM/MLIR 22 from Debian, CMake, Ninja, ccache, GoogleTest, Python 3 (lit).
# Checks for the preinstalled CUDA toolkit, which our scripts never install:
# the compiler, the interpreter and all CPU tests work without it.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache git python3
  libgtest-dev
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  zlib1g-dev libzstd-dev libxml2-dev libedit-dev libcurl4-openssl-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: run this script as root to install them" >&2
    exit 1
  fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi

for tool in /usr/lib/llvm-22/bin/mlir-tblgen /usr/lib/llvm-22/bin/FileCheck \
            /usr/lib/llvm-22/bin/lit /usr/lib/llvm-22/lib/libMLIR.so; do
  [ -e "$tool" ] || { echo "install-deps: $tool is missing after install" >&2; exit 1; }
done

# CUDA is preinstalled on the build machines; we only check and report.
cuda=${CUDA_HOME:-/usr/local/cuda}
cuda_missing=()
for f in bin/nvcc bin/ptxas include/cuda.h; do
  [ -e "$cuda/$f" ] || cuda_missing+=("$cuda/$f")
done
if [ ${#cuda_missing[@]} -gt 0 ]; then
  echo "install-deps: CUDA toolkit not found (missing: ${cuda_missing[*]})."
  echo "install-deps: the compiler, interpreter and CPU tests do not need it;"
  echo "install-deps: GPU tests, ptxas checks and cuBLAS/cuFFT baselines will be skipped."
else
  echo "install-deps: CUDA toolkit found at $cuda ($("$cuda/bin/nvcc" --version | tail -n 2 | head -n 1))"
fi

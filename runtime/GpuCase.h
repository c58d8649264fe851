//===- GpuCase.h - a kernel run recorded for the GPU host -------*- C++ -*-===//
//
// The GPU host has no MLIR, so GPU tests are prepared here: a case is a
// folder with the kernel's PTX and KernelInfo, its launch grid, its input
// arrays and the expected outputs (float64, from a reference or from the
// interpreter). The GPU runner needs only the runtime to replay it.
//
//   <case>/kernel.ptx, <case>/kernel.json
//   <case>/case.txt:
//     grid X Y Z
//     tolerance T                 relative L2 bound on every output
//     view <type> <d0>x<d1>... in <file>|- out <file>|-
//     scalar <type> <value>
//   <case>/*.bin: inputs in their element type (bf16/f16 as raw bits),
//                 expected outputs as float64
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TEST_GPU_GPUCASE_H
#define TESSERA_TEST_GPU_GPUCASE_H

#include "runtime/KernelInfo.h"
#include "runtime/Runtime.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gpucase {

struct ViewData {
  rt::ScalarType type = rt::ScalarType::f32;
  std::vector<int64_t> shape;
  std::vector<double> input;    // empty: an output only (poisoned first)
  std::vector<double> expected; // empty: not checked
};

struct Arg {
  bool isView = true;
  ViewData view;
  rt::ScalarType scalarType = rt::ScalarType::i64;
  double scalar = 0;
};

struct Case {
  std::string name;
  std::string ptx;
  rt::KernelInfo info;
  std::array<int64_t, 3> grid = {1, 1, 1};
  double tolerance = 1e-5;
  std::vector<Arg> args;
};

/// Element bits of `value` in `type` (round to nearest even).
uint64_t encode(rt::ScalarType type, double value);
double decode(rt::ScalarType type, uint64_t bits);

struct Outcome {
  bool ok = false;
  double error = 0; // largest relative L2 error over the checked outputs
  std::string message;
};

/// Runs `c` on the GPU: inputs uploaded, outputs poisoned (all bits set),
/// one launch, outputs compared with the expected values by relative L2
/// (a NaN or unwritten output never passes).
Outcome run(rt::Runtime &runtime, const Case &c);

/// Writes `c` to folder `dir/c.name` (created). Returns an error message or
/// "".
std::string write(const Case &c, const std::string &dir);
/// Reads the case in folder `path`. Returns an error message or "".
std::string read(const std::string &path, Case &c);

} // namespace tessera::gpucase

#endif // TESSERA_TEST_GPU_GPUCASE_H

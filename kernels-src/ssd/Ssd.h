//===- Ssd.h - Mamba-2 SSD forward: kernels, reference, host API -*- C++
//-*-===//
//
// The state space duality (chunked) forward pass of Mamba-2:
//   dt'_t = clamp(softplus?(dt_t + dt_bias), dt_min, dt_max)
//   h_t   = exp(dt'_t * A) * h_{t-1} + dt'_t * x_t (outer) B_t   (headdim x
//   dstate) y_t   = h_t . C_t + D * x_t,  then y_t *= silu(z_t) when z is given
// per batch and head; head h reads group h / (nheads / ngroups) of B and C.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_KERNELS_SSD_H
#define TESSERA_KERNELS_SSD_H

#include "dsl/Tessera.h"
#include "interpreter/Interpreter.h"

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace tessera::ssd {

struct Shape {
  int64_t batch = 1, seqlen = 1, nheads = 1, headdim = 1, dstate = 1,
          ngroups = 1;
};

/// Which optional inputs and outputs a call has.
struct Options {
  bool hasD = false;
  bool dPerChannel = false; // D is (nheads, headdim) instead of (nheads)
  bool hasZ = false;
  bool hasDtBias = false;
  bool dtSoftplus = false;
  /// dt' is clamped to [dtMin, dtMax]; the defaults clamp nothing, like
  /// mamba_ssm's default dt_limit (0, inf), which it does not apply.
  double dtMin = -std::numeric_limits<double>::infinity();
  double dtMax = std::numeric_limits<double>::infinity();
  bool hasInitialStates = false;
  bool returnFinalStates = false;
  bool hasSeqIdx = false;
};

/// Host tensors for the float64 reference, row-major:
///   x, z (batch, seqlen, nheads, headdim); dt (batch, seqlen, nheads);
///   A, dtBias (nheads); D (nheads) or (nheads, headdim);
///   B, C (batch, seqlen, ngroups, dstate);
///   initialStates, finalStates (batch, nheads, headdim, dstate);
///   seqIdx (batch, seqlen), nondecreasing along each row (packed
///   sequences; the chunked kernels rely on it); y like x.
/// Optional tensors are empty when the option is off.
struct HostInputs {
  std::vector<double> x, dt, A, B, C, D, z, dtBias, initialStates;
  std::vector<int32_t> seqIdx;
};
struct HostOutputs {
  std::vector<double> y, finalStates;
};

/// float64 CPU reference: the plain recurrence, step by step, independent of
/// the chunked algorithm. With seqIdx, the state restarts from zero at every
/// position whose seqIdx differs from the previous position's; the initial
/// state (if any) applies at position 0.
HostOutputs reference(const Shape &shape, const Options &options,
                      const HostInputs &inputs);

/// A compiled variant: element type of x, B, C, z, y and the chunk length.
struct Config {
  dsl::DType dtype = dsl::f32;
  int64_t chunk = 64;
};

/// Adds the three kernels (ssd_chunk_state_*, ssd_state_passing_*,
/// ssd_chunk_scan_*) of the variant a call with `shape` and `options` runs.
void build(dsl::KernelModule &module, const Shape &shape,
           const Options &options, const Config &config);

/// Buffers of one call (the interpreter's host buffers): x, B, C, z and y
/// in `Config::dtype`; dt, A, D, dtBias and the states in f32; seqIdx i32.
/// Optional buffers are null when their option is off.
struct Buffers {
  interp::Buffer *x = nullptr, *dt = nullptr, *A = nullptr, *B = nullptr,
                 *C = nullptr, *D = nullptr, *z = nullptr, *dtBias = nullptr,
                 *initialStates = nullptr, *seqIdx = nullptr;
  interp::Buffer *y = nullptr, *finalStates = nullptr;
};

/// Runs the chunked SSD forward through the interpreter. Validates shapes
/// and options first (clear errors, nothing launched). `launches`, when
/// given, receives the number of kernel launches made.
/// Called around each launch of forwardInterpreted (after = false, then
/// true) with the kernel's full name, its arguments and grid: lets the GPU
/// test generator record every launch as a single-launch case.
using LaunchHook = std::function<void(
    const std::string &kernel, const std::vector<interp::KernelArg> &args,
    const std::array<int64_t, 3> &grid, bool after)>;

interp::Status
forwardInterpreted(const Shape &shape, const Options &options,
                   const Config &config, Buffers &buffers,
                   int *launches = nullptr,
                   interp::Mode mode = interp::Mode::DeviceFaithful,
                   const LaunchHook &hook = nullptr);

} // namespace tessera::ssd

#endif // TESSERA_KERNELS_SSD_H

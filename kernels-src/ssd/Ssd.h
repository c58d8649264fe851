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
#include "kernels-src/ssd/SsdReference.h"

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace tessera::ssd {

/// A compiled variant: element type of x, B, C, z, y, the chunk length and
/// the algorithm: the fused forward (one kernel walking the chunks of each
/// head in order with the state in registers, what the GPU runs; chunk 64)
/// or the chunked one (three kernels, parallel over chunks, the state of
/// every chunk through memory).
struct Config {
  dsl::DType dtype = dsl::f32;
  int64_t chunk = 64;
  bool fused = false;
  /// The fused forward split into this many segments of the sequence
  /// (SsdVariant.h's split forward); 1: one walk over the whole sequence.
  int64_t segments = 1;
};

/// Adds the three kernels (ssd_chunk_state_*, ssd_state_passing_*,
/// ssd_chunk_scan_*) of the variant a call with `shape` and `options` runs.
void build(dsl::KernelModule &module, const Shape &shape,
           const Options &options, const Config &config);

/// The library's element type of a DSL dtype (bf16, f16, else f32).
ElementType elementType(dsl::DType dtype);

/// Adds the fused kernel (fusedKernelName(fusedVariantFor(...))) of a call:
/// grid (ceil(headdim / headdimTile), nheads, batch), arguments x, dt, A, B,
/// C, [dt_bias], [seq_idx], [D], [z], [initial_states], dt_min, dt_max,
/// heads_per_group, y, [final_states].
void buildFused(dsl::KernelModule &module, const Shape &shape,
                const Options &options, dsl::DType dtype);

/// Adds the split forward's kernels of a call (SsdVariant.h,
/// segmentStatesName and the two after it); throws dsl::Error above dstate
/// 128.
void buildSplit(dsl::KernelModule &module, const Shape &shape,
                const Options &options, dsl::DType dtype);

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

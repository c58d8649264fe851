//===- SsdGpu.h - Mamba-2 SSD forward on the GPU ----------------*- C++ -*-===//
//
// The public entry point: the SSD forward of SsdVariant.h on device
// pointers, through the fused kernel compiled ahead of time into a kernel
// library (a folder of PTX files and their kernel descriptions, built by
// `tessera print ssd-fused | tile-compile`; the GPU host has no compiler).
//
//   rt::KernelLibrary lib;
//   if (rt::Status st = lib.open("build/ssd-kernels"); !st) ...
//   ssd::DeviceArgs a;
//   a.x = {xPtr, {B, L, H, P}};            // strides default to row-major
//   ...
//   rt::Status st = ssd::forward(*runtime, lib, shape, options,
//                                ssd::ElementType::bf16, a);
//
// Every argument is checked before anything is launched; errors name the
// tensor and what is wrong with it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_KERNELS_SSD_SSDGPU_H
#define TESSERA_KERNELS_SSD_SSDGPU_H

#include "kernels-src/common/DeviceTensor.h"
#include "kernels-src/ssd/SsdVariant.h"
#include "runtime/KernelLibrary.h"
#include "runtime/Runtime.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::ssd {

using tessera::DeviceTensor;

/// The tensors of one call, laid out as SsdVariant.h's HostInputs: x, z, y
/// (batch, seqlen, nheads, headdim) and B, C (batch, seqlen, ngroups,
/// dstate) in the call's element type; dt (batch, seqlen, nheads), A,
/// dt_bias (nheads), D (nheads) or (nheads, headdim), initial and final
/// states (batch, nheads, headdim, dstate) in f32; seq_idx (batch, seqlen)
/// int32. Tensors whose option is off stay empty (ptr 0, no shape).
/// `workspace` (optional, shape {bytes}, 16-byte aligned) is scratch for
/// the split forward (SsdVariant.h): workspaceBytes() of it lets forward()
/// run a long sequence on a small grid as segments.
struct DeviceArgs {
  DeviceTensor x, dt, A, B, C, D, z, dtBias, initialStates, seqIdx, y,
      finalStates, workspace;
};

using rt::KernelLibrary;

/// Checks a call without touching the GPU: shapes, options, dtypes (by
/// shape only: the element type is the caller's), pointers (non-null for
/// present tensors, null for absent ones, aligned to the element size),
/// strides (non-negative), each tensor's span (within 64-bit addressing:
/// the kernels index in 64 bits, so tensors of more than 2^31 elements
/// are valid), the launch limits (grid y = nheads and z = batch up to
/// 65535). Returns "" or the first problem.
std::string validate(const Shape &shape, const Options &options,
                     ElementType dtype, const DeviceArgs &args);

/// Scratch bytes of the split forward at `segments` (0 for 1): the
/// segments' own final states and decays, and the states they start from.
size_t workspaceBytes(const Shape &shape, const Options &options,
                      ElementType dtype, int64_t segments);

/// The segments forward() splits a call into when left to choose and the
/// workspace has workspaceBytes() for them: the split of ssd::segmentsFor
/// for this GPU (its multiprocessors, and how many programs of the fused
/// kernel fit on one), or 1 where the split cannot run (dstate above 128,
/// the library without the split kernels, tensors whose batch and
/// sequence dimensions do not merge into rows of segments).
int64_t automaticSegments(rt::Runtime &runtime, const KernelLibrary &library,
                          const Shape &shape, const Options &options,
                          ElementType dtype, const DeviceArgs &args);

/// The fused forward on the GPU: validate, then launch the kernels from
/// `library`, asynchronous on the runtime's stream: one launch of the
/// kernel of fusedVariantFor(shape, options, dtype), or with `segments`
/// above 1 the three of the split forward (0: automaticSegments). An
/// explicit split that cannot run is an error. With seq_idx, its rows are
/// first copied to the host and checked to be nondecreasing.
rt::Status forward(rt::Runtime &runtime, const KernelLibrary &library,
                   const Shape &shape, const Options &options,
                   ElementType dtype, const DeviceArgs &args,
                   int64_t segments = 0);

/// How to build the kernel of a call into a library folder (the split
/// forward's module with `split`).
std::string buildCommand(const Shape &shape, const Options &options,
                         ElementType dtype, bool split = false);

} // namespace tessera::ssd

#endif // TESSERA_KERNELS_SSD_SSDGPU_H

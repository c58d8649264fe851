//===- ConvGpu.h - butterfly long convolution on the GPU -------*- C++ -*-===//
//
// The public entry point of the long convolution (ConvPlan.h's function):
//
//   conv::prepare(runtime, shape, k, spectrum);            // once per kernel
//   conv::convolve(runtime, library, shape, dtype, gates, args);
//
// on device pointers, with the compiled kernels read from a kernel library
// folder (rt::KernelLibrary; scripts/build-conv-kernels.sh builds it: the
// GPU host has no compiler). Every argument is checked before anything is
// launched; errors name the tensor and what is wrong with it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_KERNELS_CONV_CONVGPU_H
#define TESSERA_KERNELS_CONV_CONVGPU_H

#include "kernels-src/common/DeviceTensor.h"
#include "kernels-src/conv/ConvPlan.h"
#include "runtime/KernelLibrary.h"

namespace tessera::conv {

struct Gates {
  bool pre = false, post = false;
};

/// One call: u, pre, post, y (batch, channels, seqlen) in the element type,
/// the spectrum (channels, 4, fftSize(seqlen)) f32 from `prepare`, and,
/// where workspaceBytes(shape, gates) is not 0 (three passes from M = 8192,
/// lengths run on padded copies), a workspace of that many bytes, 16-byte
/// aligned. Only the batch and channel strides of u, the gates and y may differ
/// from row-major: each sequence is contiguous.
struct ConvArgs {
  DeviceTensor u, spectrum, pre, post, y;
  rt::DevicePtr workspace = 0;
  size_t workspaceSize = 0;
};

/// Device workspace convolve needs: 0 when one kernel does it all on the
/// tensors as given; for three passes two work buffers of (batch, channels,
/// 2, fftSize(seqlen)) two-byte elements (the inner pass reads one and
/// writes the other), then a scale per (batch, channel) in f32 rounded up
/// to 16 bytes (bf16 uses it; the layout is the same for both types); for
/// a length the kernels do not take as it is (odd, or above 4096 and not a
/// power of two), zero-padded copies of u, the gates given and y, of
/// paddedLength samples, after them. Without `gates`, room for both.
size_t workspaceBytes(const Shape &shape, Gates gates = {true, true});

/// The kernel's spectrum: k (channels, seqlen) f32 on the device is copied
/// to the host, transformed in float64 (prepareSpectrum) and written to
/// `spectrum` (channels, 4, fftSize(seqlen)) f32. Synchronous.
rt::Status prepare(rt::Runtime &runtime, const Shape &shape,
                   const DeviceTensor &k, const DeviceTensor &spectrum);

/// Checks a call without touching the GPU (shapes, pointers, alignment,
/// strides, each tensor's span within 64-bit addressing, the workspace);
/// "" or the first problem.
/// Lengths: 2..65536. One kernel up to 4096, three passes above; odd
/// lengths, and lengths above 4096 that are not powers of two, run on
/// zero-padded copies (conv_copy_rows).
std::string validate(const Shape &shape, ElementType dtype, Gates gates,
                     const ConvArgs &args);

/// y = post * (causal conv of (pre * u) with k)[:seqlen]: validate, then
/// the plan's kernels from `library`, asynchronous on the runtime's stream.
rt::Status convolve(rt::Runtime &runtime, const rt::KernelLibrary &library,
                    const Shape &shape, ElementType dtype, Gates gates,
                    const ConvArgs &args);

/// How to build the kernels of a call into a library folder.
std::string buildCommand(int64_t seqlen, ElementType dtype, Gates gates);

} // namespace tessera::conv

#endif // TESSERA_KERNELS_CONV_CONVGPU_H

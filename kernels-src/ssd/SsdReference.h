//===- SsdReference.h - float64 reference of the Mamba-2 SSD ---*- C++ -*-===//
//
// The plain recurrence, step by step, in float64 on the host: what every
// SSD kernel (interpreted or on the GPU) is checked against. No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_KERNELS_SSD_SSDREFERENCE_H
#define TESSERA_KERNELS_SSD_SSDREFERENCE_H

#include "kernels-src/ssd/SsdVariant.h"

#include <cstdint>
#include <vector>

namespace tessera::ssd {

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

} // namespace tessera::ssd

#endif // TESSERA_KERNELS_SSD_SSDREFERENCE_H

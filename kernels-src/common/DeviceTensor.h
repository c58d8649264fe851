//===- DeviceTensor.h - tensors in device memory for the entry points -*- C++
//-*-===//
//
// What the GPU entry points of the shipped kernels (ssd::forward,
// conv::convolve) take: a device pointer with a shape and strides, and the
// checks every one of them gets before anything is launched.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_KERNELS_COMMON_DEVICETENSOR_H
#define TESSERA_KERNELS_COMMON_DEVICETENSOR_H

#include "runtime/Runtime.h"

#include <sstream>
#include <string>
#include <vector>

namespace tessera {

/// Elements at ptr + sum(index[d] * strides[d]); empty strides mean
/// row-major (contiguous). An absent optional tensor is all empty.
struct DeviceTensor {
  rt::DevicePtr ptr = 0;
  std::vector<int64_t> shape, strides;

  /// The strides, row-major when none were given.
  std::vector<int64_t> effectiveStrides() const {
    if (!strides.empty())
      return strides;
    std::vector<int64_t> s(shape.size(), 1);
    for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
      s[d] = s[d + 1] * shape[d + 1];
    return s;
  }
  rt::Arg view() const { return rt::ViewArg{ptr, shape, effectiveStrides()}; }
};

inline std::string shapeText(const std::vector<int64_t> &s) {
  std::ostringstream out;
  out << "(";
  for (size_t i = 0; i < s.size(); ++i)
    out << (i ? ", " : "") << s[i];
  return out.str() + ")";
}

/// One tensor: present iff `wanted`, of `shape`, aligned to `bytes`, with
/// non-negative strides (as many as dimensions). "" or the problem.
inline std::string checkDeviceTensor(const char *name, const DeviceTensor &t,
                                     bool wanted, int64_t bytes,
                                     const std::vector<int64_t> &shape) {
  const std::string n(name);
  if (!wanted)
    return t.ptr || !t.shape.empty() ? n + " was given but its option is off"
                                     : "";
  if (!t.ptr)
    return n + " is required (null pointer)";
  if (t.ptr % uint64_t(bytes) != 0)
    return n + " is misaligned: its address must be a multiple of " +
           std::to_string(bytes) + " bytes";
  if (t.shape != shape)
    return n + " must have shape " + shapeText(shape) + ", got " +
           shapeText(t.shape);
  if (!t.strides.empty()) {
    if (t.strides.size() != shape.size())
      return n + " has " + std::to_string(t.strides.size()) + " strides for " +
             std::to_string(shape.size()) + " dimensions";
    for (int64_t s : t.strides)
      if (s < 0)
        return n + " has a negative stride";
  }
  return "";
}

} // namespace tessera

#endif // TESSERA_KERNELS_COMMON_DEVICETENSOR_H

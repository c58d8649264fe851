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

/// One past the last byte a tensor of `shape` with `strides` (row-major
/// when empty) and `bytes`-byte elements spans from its pointer, or -1 when
/// that does not fit in an int64: the kernels index in 64 bits, and a
/// product that wrapped would address memory outside the tensor.
inline int64_t extentBytes(const std::vector<int64_t> &shape,
                           const std::vector<int64_t> &strides, int64_t bytes) {
  for (int64_t size : shape)
    if (size < 1)
      return 0;       // nothing to address
  int64_t last = 0;   // element offset of the last element
  int64_t stride = 1; // row-major stride of dimension d
  for (size_t i = shape.size(); i-- > 0;) {
    int64_t step = 0;
    const int64_t s = strides.empty() ? stride : strides[i];
    if (__builtin_mul_overflow(shape[i] - 1, s, &step) ||
        __builtin_add_overflow(last, step, &last))
      return -1;
    if (strides.empty() && i > 0 &&
        __builtin_mul_overflow(stride, shape[i], &stride))
      return -1;
  }
  int64_t end = 0;
  if (__builtin_add_overflow(last, int64_t(1), &end) ||
      __builtin_mul_overflow(end, bytes, &end))
    return -1;
  return end;
}

/// Whether `bytes` from `ptr` stay within 64-bit addressing (one past the
/// last byte is an address too).
inline bool spanFits(rt::DevicePtr ptr, uint64_t bytes) {
  return bytes <= ~rt::DevicePtr(0) - ptr;
}

/// One tensor: present iff `wanted`, of `shape`, aligned to `bytes`, with
/// non-negative strides (as many as dimensions), and spanning no more
/// memory than 64-bit addressing reaches from its pointer (one past its
/// last byte is an address too). "" or the problem.
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
  const int64_t end = extentBytes(shape, t.strides, bytes);
  if (end < 0 || !spanFits(t.ptr, uint64_t(end)))
    return n + " spans more memory than 64-bit addressing reaches (shape " +
           shapeText(shape) +
           (t.strides.empty() ? "" : ", strides " + shapeText(t.strides)) +
           ", " + std::to_string(bytes) + "-byte elements)";
  return "";
}

} // namespace tessera

#endif // TESSERA_KERNELS_COMMON_DEVICETENSOR_H

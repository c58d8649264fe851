//===- Ptx.h - what the runtime reads from PTX text -------------*- C++ -*-===//
//
// Private to the runtime (exposed for its unit tests): a light scan of PTX
// text for its ISA version, target and entry points with their .param
// sizes, so that a KernelInfo that does not match its PTX is reported before
// a launch reads garbage, and JIT failures get a hint (sm_90a PTX on a
// device that is not sm_90, a PTX ISA newer than the driver).
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_PTX_H
#define TESSERA_RUNTIME_PTX_H

#include "runtime/KernelInfo.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::rt::detail {

struct PtxEntry {
  std::string name;
  /// False when some .param could not be sized (then nothing is checked).
  bool paramsKnown = true;
  std::vector<int> paramSizes; // bytes of each .param, in order
};

struct PtxSummary {
  std::string version; // ".version 8.0" -> "8.0"
  std::string target;  // ".target sm_90a" -> "sm_90a"
  std::vector<PtxEntry> entries;

  const PtxEntry *find(const std::string &name) const;
  /// "a, b, c" (or "none").
  std::string entryNames() const;
};

/// PTX text with // and /* */ comments replaced by spaces (strings kept).
std::string stripPtxComments(const std::string &ptx);

PtxSummary summarizePtx(const std::string &ptx);

/// "sm_90a" -> arch 90, suffix "a"; "sm_80" -> 80, "". False when `target`
/// is not of the form sm_<digits>[suffix].
bool parseSmTarget(const std::string &target, int &arch, std::string &suffix);

/// The byte size of each .param of the ABI of `info` (see KernelInfo.h),
/// tensor map addresses included; 0 for a scalar type that the ABI does not
/// define.
std::vector<int> abiParamSizes(const KernelInfo &info);

/// Empty when the .param list of `entry` matches the ABI of `info`, else a
/// message that says where they differ.
std::string checkParamsMatch(const KernelInfo &info, const PtxEntry &entry);

} // namespace tessera::rt::detail

#endif // TESSERA_RUNTIME_PTX_H

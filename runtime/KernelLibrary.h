//===- KernelLibrary.h - compiled kernels read from a folder ---*- C++ -*-===//
//
// The GPU host has no compiler: kernels are compiled ahead of time into a
// folder of <name>.ptx files with their descriptions (<name>.json, as
// tile-compile --info writes them), which the entry points of the shipped
// kernels (ssd::forward, conv::convolve) look their kernels up in.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_KERNELLIBRARY_H
#define TESSERA_RUNTIME_KERNELLIBRARY_H

#include "runtime/KernelInfo.h"
#include "runtime/Runtime.h"

#include <map>
#include <string>

namespace tessera::rt {

class KernelLibrary {
public:
  /// Reads every <name>.json (one or more kernel descriptions) and its PTX.
  Status open(const std::string &folder);
  /// The PTX and description of `kernel`, or an error naming the folder.
  Status find(const std::string &kernel, const std::string *&ptx,
              const KernelInfo *&info) const;
  size_t size() const { return kernels.size(); }

private:
  std::string folder;
  std::map<std::string, std::pair<std::string, KernelInfo>> kernels;
};

} // namespace tessera::rt

#endif // TESSERA_RUNTIME_KERNELLIBRARY_H

//===- KernelLibrary.cpp - compiled kernels read from a folder ------------===//

#include "runtime/KernelLibrary.h"

#include <dirent.h>
#include <fstream>
#include <sstream>
#include <vector>

namespace tessera::rt {
namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

Status KernelLibrary::open(const std::string &dir) {
  folder = dir;
  kernels.clear();
  DIR *d = opendir(dir.c_str());
  if (!d)
    return Status::error("cannot open the kernel library folder '" + dir + "'");
  std::vector<std::string> names;
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0)
      names.push_back(name.substr(0, name.size() - 5));
  }
  closedir(d);
  for (const std::string &base : names) {
    std::string error;
    // A description file may hold several kernels, one JSON object each.
    std::string text = readFile(dir + "/" + base + ".json");
    std::string ptx = readFile(dir + "/" + base + ".ptx");
    if (ptx.empty())
      return Status::error(dir + "/" + base + ".json has no PTX next to it");
    size_t at = 0;
    while ((at = text.find('{', at)) != std::string::npos) {
      int depth = 0;
      size_t end = at;
      for (; end < text.size(); ++end) {
        depth += text[end] == '{' ? 1 : text[end] == '}' ? -1 : 0;
        if (depth == 0)
          break;
      }
      auto info = fromJson(text.substr(at, end + 1 - at), &error);
      if (!info)
        return Status::error("bad kernel description in " + dir + "/" + base +
                             ".json: " + error);
      kernels[info->name] = {ptx, *info};
      at = end + 1;
    }
  }
  return Status::success();
}

Status KernelLibrary::find(const std::string &kernel, const std::string *&ptx,
                           const KernelInfo *&info) const {
  auto it = kernels.find(kernel);
  if (it == kernels.end())
    return Status::error("kernel " + kernel +
                         " is not in the kernel library '" + folder + "' (" +
                         std::to_string(kernels.size()) + " kernels)");
  ptx = &it->second.first;
  info = &it->second.second;
  return Status::success();
}

} // namespace tessera::rt

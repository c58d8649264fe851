//===- tessera-tune.cpp - the autotuner's cache, listed and cleared -------===//
//
//   tessera-tune list  [--cache FILE]
//   tessera-tune clear [--cache FILE] [--kernel NAME]
//   tessera-tune path
//
// FILE defaults to defaultCachePath() (runtime/Autotuner.h). Needs no GPU
// and no driver: only the cache file is read or rewritten. A corrupt cache
// is reported on stderr and listed as empty (the autotuner treats it so).
//
//===----------------------------------------------------------------------===//

#include "runtime/Autotuner.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tessera::rt;

namespace {

int usage(FILE *out) {
  std::fprintf(out,
               "usage: tessera-tune list  [--cache FILE]\n"
               "       tessera-tune clear [--cache FILE] [--kernel NAME]\n"
               "       tessera-tune path\n"
               "The cache defaults to $TESSERA_CACHE_DIR/autotune.json, else "
               "$XDG_CACHE_HOME/tessera/autotune.json,\nelse "
               "$HOME/.cache/tessera/autotune.json (now: %s).\n",
               defaultCachePath().c_str());
  return out == stderr ? 2 : 0;
}

void printTable(const std::vector<CacheEntry> &entries) {
  std::vector<std::vector<std::string>> rows = {
      {"kernel", "bucket", "device", "config", "ms", "date"}};
  for (const CacheEntry &e : entries) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.4f", e.ms);
    rows.push_back({e.kernel, e.bucket, e.device, e.config, ms, e.date});
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto &row : rows)
    for (size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  for (const auto &row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      std::string cell = row[c];
      bool last = c + 1 == row.size();
      if (c == 4) // numbers right-aligned
        cell.insert(0, width[c] - cell.size(), ' ');
      else if (!last)
        cell.append(width[c] - cell.size(), ' ');
      line += cell + (last ? "" : "  ");
    }
    std::printf("%s\n", line.c_str());
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage(stderr);
  std::string command = argv[1], cachePath, kernel;
  bool hasKernel = false;
  if (command == "-h" || command == "--help" || command == "help")
    return usage(stdout);
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--cache" || a == "--kernel") && i + 1 < argc) {
      (a == "--cache" ? cachePath : kernel) = argv[++i];
      hasKernel |= a == "--kernel";
    } else {
      std::fprintf(stderr, "tessera-tune: unexpected argument '%s'\n",
                   a.c_str());
      return usage(stderr);
    }
  }
  if (cachePath.empty())
    cachePath = defaultCachePath();
  TuneCache cache(cachePath);

  if (command == "path" && !hasKernel) {
    std::printf("%s\n", cache.path().c_str());
    return 0;
  }
  if (command == "list" && !hasKernel) {
    std::string warning;
    std::vector<CacheEntry> entries = cache.read(&warning);
    if (!warning.empty())
      std::fprintf(stderr, "warning: %s\n", warning.c_str());
    std::printf("autotune cache %s: %zu entr%s\n", cache.path().c_str(),
                entries.size(), entries.size() == 1 ? "y" : "ies");
    if (!entries.empty())
      printTable(entries);
    return 0;
  }
  if (command == "clear") {
    if (hasKernel) {
      if (kernel.empty()) {
        std::fprintf(stderr, "tessera-tune: --kernel needs a name\n");
        return 2;
      }
      size_t removed = 0;
      std::string warning;
      Status s = cache.clear(kernel, removed, &warning);
      if (!warning.empty())
        std::fprintf(stderr, "warning: %s\n", warning.c_str());
      if (!s) {
        std::fprintf(stderr, "tessera-tune: %s\n", s.message.c_str());
        return 1;
      }
      std::printf("removed %zu entr%s of kernel '%s' from %s\n", removed,
                  removed == 1 ? "y" : "ies", kernel.c_str(),
                  cache.path().c_str());
      return 0;
    }
    if (access(cache.path().c_str(), F_OK) != 0) {
      std::printf("no autotune cache at %s\n", cache.path().c_str());
      return 0;
    }
    std::string warning;
    size_t count = cache.read(&warning).size();
    if (Status s = cache.clear(); !s) {
      std::fprintf(stderr, "tessera-tune: %s\n", s.message.c_str());
      return 1;
    }
    if (warning.empty())
      std::printf("removed %s (%zu entr%s)\n", cache.path().c_str(), count,
                  count == 1 ? "y" : "ies");
    else
      std::printf("removed %s (it was unreadable)\n", cache.path().c_str());
    return 0;
  }
  std::fprintf(stderr, "tessera-tune: unknown command '%s'%s\n",
               command.c_str(),
               hasKernel ? " (or --kernel, which only clear takes)" : "");
  return usage(stderr);
}

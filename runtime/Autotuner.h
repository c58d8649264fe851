//===- Autotuner.h - choosing a kernel's configuration by timing -*- C++
//-*-===//
//
// A kernel is compiled in several configurations (tile shape, warps,
// pipeline stages, latency hints); which is fastest depends on the shape
// and the GPU, and is cheaper to measure than to model. The autotuner times
// every candidate on the real arguments with CUDA events, keeps the fastest
// per (kernel, shape bucket, device) in an on-disk cache, and reuses that
// choice in later runs without timing anything.
//
// The cache is a text file, one JSON object per line:
//   {"kernel": "gemm_bf16_f32", "bucket": "8192x8192x8192",
//    "device": "NVIDIA H200 (sm_90)", "config": "128x256x64.w8.s4",
//    "ms": 1.432, "date": "2026-11-30T12:00:00Z"}
// It is rewritten whole, through a temporary file in the same directory
// that is then renamed over it, so a crashed or concurrent run never leaves
// a half-written file; a file that does not parse is reported and treated
// as empty. The cache needs no driver: TuneCache reads and edits it alone.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_AUTOTUNER_H
#define TESSERA_RUNTIME_AUTOTUNER_H

#include "runtime/KernelInfo.h"
#include "runtime/Runtime.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::rt {

/// One configuration of a kernel: its compiled form and the grid it runs on
/// for the arguments being tuned (the grid depends on the tile).
struct TuneCandidate {
  std::string config; // unique among the candidates: "128x256x64.w8.s4.hints"
  std::string ptx;
  KernelInfo info;
  std::array<int64_t, 3> grid = {1, 1, 1};
};

/// One remembered choice.
struct CacheEntry {
  std::string kernel; // the logical kernel ("gemm_bf16_f32"), not a config
  std::string bucket; // shapeBucket of its problem size
  std::string device; // deviceKey of the GPU it was measured on
  std::string config; // the winner
  double ms = 0;      // the winner's median time when it was tuned
  std::string date;   // when, UTC: "2026-11-30T12:00:00Z"
};

/// How one candidate fared.
struct CandidateTiming {
  std::string config;
  bool ok = false;
  double ms = 0;     // median, when ok
  std::string error; // why it was skipped, when not ok
};

/// What select did.
struct TuneReport {
  bool fromCache = false; // chosen without timing
  std::string config;     // the choice
  double ms = 0;          // its median: measured now, or when it was cached
  std::string date;       // when it was measured (cache hits)
  std::vector<CandidateTiming> candidates; // every candidate, when tuned
  std::vector<std::string> warnings; // unreadable cache, failed cache write
};

/// Each dimension rounded up to a power of two, joined with 'x':
/// {8000, 8192, 100} -> "8192x8192x128". Nearby shapes almost always share
/// the best configuration, so one measurement serves them all instead of
/// re-tuning every new size (dimensions below 1 give "0").
std::string shapeBucket(const std::vector<int64_t> &dims);

/// "NVIDIA H200 (sm_90)": what a cached choice was measured on, so that a
/// cache shared between machines (a home directory) is not reused on
/// another GPU.
std::string deviceKey(const std::string &deviceName, int computeCapability);

/// $TESSERA_CACHE_DIR/autotune.json if set, else
/// $XDG_CACHE_HOME/tessera/autotune.json, else
/// $HOME/.cache/tessera/autotune.json. Creates nothing: directories are
/// made when the cache is first written.
std::string defaultCachePath();

/// The cache file on its own (no driver needed): each call reads the file
/// afresh, so runs in other processes are seen.
class TuneCache {
public:
  explicit TuneCache(std::string path = defaultCachePath());
  const std::string &path() const { return path_; }

  /// Every entry, in file order. A missing file is empty; an unreadable or
  /// malformed one is empty too, and `warning` (when given) says why.
  std::vector<CacheEntry> read(std::string *warning = nullptr) const;

  /// Adds `entry`, replacing the one with the same (kernel, bucket,
  /// device); makes the directories and rewrites the file atomically.
  /// Entries written meanwhile by other processes are kept (the file is
  /// re-read under an advisory lock of its directory). `warning` as in read.
  Status store(const CacheEntry &entry, std::string *warning = nullptr);

  /// Removes the file (a missing file is not an error).
  Status clear();
  /// Removes the entries of `kernel`; `removed` receives their number. The
  /// file goes when nothing is left.
  Status clear(const std::string &kernel, size_t &removed,
               std::string *warning = nullptr);

private:
  std::string path_;
};

struct TuneOptions {
  int warmup = 2; // untimed launches per candidate (JIT, TMA encodes, clocks)
  int iters = 5;  // timed launches per candidate; the median is kept
};

/// Chooses among a kernel's configurations. Thread-compatible, like Runtime.
class Autotuner {
public:
  explicit Autotuner(Runtime &rt, std::string cachePath = defaultCachePath(),
                     TuneOptions options = {});

  const std::string &cachePath() const { return cache_.path(); }
  /// The device part of this tuner's cache keys.
  const std::string &device() const { return device_; }
  void setOptions(const TuneOptions &options) { options_ = options; }

  /// Sets `best` to the index of the configuration to run for (`kernel`,
  /// `bucket`) on this device. A cached choice that is among `candidates`
  /// is returned without launching anything, if `args` pass its launch's
  /// host-side checks (a bucket may hold shapes it cannot run, such as rows
  /// TMA cannot describe: those are tuned without touching the cache).
  /// Otherwise every candidate is launched on `args` (warm-up, then timed
  /// with CUDA events; outputs are overwritten, so `args` must be safe to
  /// run every candidate on), those whose launch fails are skipped (their
  /// errors in the report), and the fastest median wins and is cached.
  /// Errors: no or duplicate candidates, bad options, or every candidate
  /// failing (each failure listed); `best` is then left as it was. A cache
  /// that cannot be read or written is a warning in the report, not an
  /// error.
  Status select(const std::string &kernel, const std::string &bucket,
                const std::vector<TuneCandidate> &candidates,
                const std::vector<Arg> &args, size_t &best,
                TuneReport *report = nullptr);

  /// The cache's entries (all devices).
  std::vector<CacheEntry> list() const;
  /// Forgets every cached choice, or those of one kernel.
  Status clear();
  Status clear(const std::string &kernel);

private:
  Runtime &rt_;
  TuneCache cache_;
  TuneOptions options_;
  std::string device_;
  bool warned_ = false; // about an unreadable cache: once per tuner
  // Choices made or read in this process, by kernel/bucket; the file is not
  // re-read for them.
  std::map<std::pair<std::string, std::string>, CacheEntry> memo_;
};

} // namespace tessera::rt

#endif // TESSERA_RUNTIME_AUTOTUNER_H

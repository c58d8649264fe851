//===- Autotuner.cpp - choosing a kernel's configuration by timing --------===//

#include "runtime/Autotuner.h"
#include "runtime/Json.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <optional>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessera::rt {

std::string shapeBucket(const std::vector<int64_t> &dims) {
  std::string out;
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = dims[i], p = 1;
    if (d < 1)
      p = 0;
    else if (d > (int64_t(1) << 62))
      p = d; // no power of two above it fits
    else
      while (p < d)
        p <<= 1;
    out += (i ? "x" : "") + std::to_string(p);
  }
  return out;
}

std::string deviceKey(const std::string &deviceName, int computeCapability) {
  return deviceName + " (sm_" + std::to_string(computeCapability) + ")";
}

std::string defaultCachePath() {
  auto env = [](const char *name) -> std::string {
    const char *v = std::getenv(name);
    return v ? v : "";
  };
  if (std::string dir = env("TESSERA_CACHE_DIR"); !dir.empty())
    return dir + "/autotune.json";
  if (std::string dir = env("XDG_CACHE_HOME"); !dir.empty())
    return dir + "/tessera/autotune.json";
  std::string home = env("HOME");
  if (home.empty())
    if (const passwd *pw = getpwuid(getuid()); pw && pw->pw_dir)
      home = pw->pw_dir;
  if (home.empty()) // no home at all (a bare container): still one per user
    return "/tmp/tessera-cache-" + std::to_string(getuid()) + "/autotune.json";
  return home + "/.cache/tessera/autotune.json";
}

//===----------------------------------------------------------------------===//
// The file: one flat JSON object per line
//===----------------------------------------------------------------------===//

namespace {

std::string toLine(const CacheEntry &e) {
  std::string out = "{\"kernel\": ";
  json::writeString(out, e.kernel);
  out += ", \"bucket\": ";
  json::writeString(out, e.bucket);
  out += ", \"device\": ";
  json::writeString(out, e.device);
  out += ", \"config\": ";
  json::writeString(out, e.config);
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.6g", std::isfinite(e.ms) ? e.ms : 0.0);
  out += ", \"ms\": ";
  out += ms;
  out += ", \"date\": ";
  json::writeString(out, e.date);
  return out + "}\n";
}

/// Parses the whole file; "" or what is wrong, with its line.
std::string parseCache(const std::string &text,
                       std::vector<CacheEntry> &entries) {
  entries.clear();
  size_t start = 0;
  for (int lineNo = 1; start < text.size(); ++lineNo) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    json::Value object;
    std::string problem;
    CacheEntry e;
    const bool parsed = json::parse(line, object, problem);
    if (parsed && object.type != json::Value::Type::Object) {
      problem =
          std::string("expected an object, got ") + json::typeName(object.type);
    } else if (parsed) {
      // Unknown keys are ignored: a newer writer may add some.
      auto find = [&](const char *key, json::Value::Type type) {
        for (const auto &[k, v] : object.object)
          if (k == key && v.type == type)
            return &v;
        return static_cast<const json::Value *>(nullptr);
      };
      for (auto [key, field] :
           {std::pair{"kernel", &e.kernel}, std::pair{"bucket", &e.bucket},
            std::pair{"device", &e.device}, std::pair{"config", &e.config},
            std::pair{"date", &e.date}}) {
        const json::Value *v = find(key, json::Value::Type::String);
        if (!v) {
          problem = std::string("no string \"") + key + "\"";
          break;
        }
        *field = v->string;
      }
      const json::Value *ms = find("ms", json::Value::Type::Number);
      if (problem.empty() && !ms)
        problem = "no number \"ms\"";
      else if (problem.empty())
        e.ms = ms->number;
      if (problem.empty() && (e.kernel.empty() || e.config.empty()))
        problem = "empty \"kernel\" or \"config\"";
    }
    if (!problem.empty())
      return "line " + std::to_string(lineNo) + ": " + problem;
    entries.push_back(std::move(e));
  }
  return "";
}

bool sameKey(const CacheEntry &a, const CacheEntry &b) {
  return a.kernel == b.kernel && a.bucket == b.bucket && a.device == b.device;
}

std::string errnoText(int err) { return std::strerror(err); }

std::string parentDir(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

/// mkdir -p.
Status makeDirs(const std::string &dir) {
  if (dir.empty() || dir == "." || dir == "/")
    return Status::success();
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0)
    return S_ISDIR(st.st_mode)
               ? Status::success()
               : Status::error(dir + " exists and is not a directory");
  if (Status s = makeDirs(parentDir(dir)); !s)
    return s;
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    return Status::error("cannot create directory " + dir + ": " +
                         errnoText(errno));
  return Status::success();
}

/// Reads `path`: nullopt when it does not exist; "" in `error` or why it
/// cannot be read.
std::optional<std::string> readText(const std::string &path,
                                    std::string &error) {
  error.clear();
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    // A path under a file (ENOTDIR) cannot exist either.
    if (errno != ENOENT && errno != ENOTDIR)
      error = errnoText(errno);
    return std::nullopt;
  }
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    text.append(buf, n);
  if (std::ferror(f))
    error = "read error";
  std::fclose(f);
  if (!error.empty())
    return std::nullopt;
  return text;
}

/// Writes `text` to a new file next to `path`, then renames it over `path`:
/// readers see the old file or the new one, never part of one.
Status writeAtomically(const std::string &path, const std::string &text) {
  static std::atomic<unsigned> counter{0};
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 16; ++attempt) {
    tmp = path + ".tmp." + std::to_string(getpid()) + "." +
          std::to_string(++counter);
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST)
      break;
  }
  if (fd < 0)
    return Status::error("cannot create " + tmp + ": " + errnoText(errno));
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return Status::error("cannot write " + tmp + ": " + errnoText(err));
    }
    done += static_cast<size_t>(n);
  }
  // On disk before the rename, so a crash cannot leave an empty file there.
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Status::error("cannot write " + tmp + ": " + errnoText(err));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Status::error("cannot rename " + tmp + " to " + path + ": " +
                         errnoText(err));
  }
  return Status::success();
}

/// An advisory lock on the cache's directory while its file is re-read and
/// rewritten, so that two processes storing at once both keep their entry.
/// Best effort: where flock does not work the write is still atomic.
class DirLock {
public:
  explicit DirLock(const std::string &dir) {
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ >= 0)
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  ~DirLock() {
    if (fd_ >= 0)
      ::close(fd_); // releases the lock
  }
  DirLock(const DirLock &) = delete;
  DirLock &operator=(const DirLock &) = delete;

private:
  int fd_ = -1;
};

std::string serialize(const std::vector<CacheEntry> &entries) {
  std::string text;
  for (const CacheEntry &e : entries)
    text += toLine(e);
  return text;
}

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

//===----------------------------------------------------------------------===//
// TuneCache
//===----------------------------------------------------------------------===//

TuneCache::TuneCache(std::string path) : path_(std::move(path)) {}

std::vector<CacheEntry> TuneCache::read(std::string *warning) const {
  if (warning)
    warning->clear();
  std::vector<CacheEntry> entries;
  std::string error;
  std::optional<std::string> text = readText(path_, error);
  if (!error.empty()) {
    if (warning)
      *warning = "autotune cache " + path_ + " cannot be read (" + error +
                 "); treated as empty";
    return {};
  }
  if (!text)
    return {};
  if (std::string problem = parseCache(*text, entries); !problem.empty()) {
    if (warning)
      *warning = "autotune cache " + path_ + " is corrupt (" + problem +
                 "); treated as empty and rewritten on the next store";
    return {};
  }
  return entries;
}

Status TuneCache::store(const CacheEntry &entry, std::string *warning) {
  if (warning)
    warning->clear();
  std::string dir = parentDir(path_);
  if (Status s = makeDirs(dir); !s)
    return Status::error("cannot write the autotune cache " + path_ + ": " +
                         s.message);
  DirLock lock(dir);
  std::vector<CacheEntry> entries = read(warning);
  auto it =
      std::find_if(entries.begin(), entries.end(),
                   [&](const CacheEntry &e) { return sameKey(e, entry); });
  if (it != entries.end())
    *it = entry;
  else
    entries.push_back(entry);
  return writeAtomically(path_, serialize(entries));
}

Status TuneCache::clear() {
  if (::unlink(path_.c_str()) != 0 && errno != ENOENT)
    return Status::error("cannot remove the autotune cache " + path_ + ": " +
                         errnoText(errno));
  return Status::success();
}

Status TuneCache::clear(const std::string &kernel, size_t &removed,
                        std::string *warning) {
  removed = 0;
  if (warning)
    warning->clear();
  struct stat st;
  if (::stat(path_.c_str(), &st) != 0 && errno == ENOENT)
    return Status::success();
  DirLock lock(parentDir(path_));
  std::vector<CacheEntry> entries = read(warning);
  std::vector<CacheEntry> kept;
  for (CacheEntry &e : entries)
    if (e.kernel != kernel)
      kept.push_back(std::move(e));
  removed = entries.size() - kept.size();
  if (kept.empty())
    return clear();
  if (removed == 0)
    return Status::success();
  return writeAtomically(path_, serialize(kept));
}

//===----------------------------------------------------------------------===//
// Autotuner
//===----------------------------------------------------------------------===//

Autotuner::Autotuner(Runtime &rt, std::string cachePath, TuneOptions options)
    : rt_(rt), cache_(std::move(cachePath)), options_(options),
      device_(deviceKey(rt.deviceName(), rt.computeCapability())) {}

Status Autotuner::select(const std::string &kernel, const std::string &bucket,
                         const std::vector<TuneCandidate> &candidates,
                         const std::vector<Arg> &args, size_t &best,
                         TuneReport *report) {
  TuneReport local;
  TuneReport &r = report ? *report : local;
  r = TuneReport();
  if (kernel.empty())
    return Status::error("autotune: empty kernel name");
  if (candidates.empty())
    return Status::error("autotune '" + kernel + "' (" + bucket +
                         "): no candidates");
  for (size_t i = 0; i < candidates.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (candidates[i].config == candidates[j].config)
        return Status::error("autotune '" + kernel + "': candidates " +
                             std::to_string(j) + " and " + std::to_string(i) +
                             " have the same config '" + candidates[i].config +
                             "'");
  if (options_.warmup < 0 || options_.iters < 1)
    return Status::error("autotune: needs warmup >= 0 and iters >= 1 (got " +
                         std::to_string(options_.warmup) + " and " +
                         std::to_string(options_.iters) + ")");
  auto indexOf = [&](const std::string &config) -> std::optional<size_t> {
    for (size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].config == config)
        return i;
    return std::nullopt;
  };

  // A remembered choice, if it is still one of the candidates.
  auto key = std::make_pair(kernel, bucket);
  std::optional<CacheEntry> hit;
  if (auto it = memo_.find(key); it != memo_.end()) {
    hit = it->second;
  } else {
    std::string warning;
    for (CacheEntry &e : cache_.read(&warning))
      if (e.kernel == kernel && e.bucket == bucket && e.device == device_)
        hit = std::move(e);
    if (!warning.empty() && !warned_) {
      r.warnings.push_back(warning);
      warned_ = true;
    }
  }
  // A bucket holds shapes that the cached choice may not run: rows of a
  // size TMA cannot describe, say. Those are tuned without touching the
  // cache, which keeps the bucket's choice for the shapes it fits.
  bool cacheResult = true;
  if (hit)
    if (std::optional<size_t> i = indexOf(hit->config)) {
      std::vector<TensorMapArgs> maps;
      Status fits = tensorMapArgs(candidates[*i].info, args, maps);
      if (fits) {
        memo_[key] = *hit;
        best = *i;
        r.fromCache = true;
        r.config = hit->config;
        r.ms = hit->ms;
        r.date = hit->date;
        return Status::success();
      }
      r.warnings.push_back("the cached choice '" + hit->config +
                           "' cannot run these arguments (" + fits.message +
                           "); tuned again, not cached");
      cacheResult = false;
    }

  // Time them all on the real arguments.
  std::optional<size_t> winner;
  for (const TuneCandidate &c : candidates) {
    CandidateTiming t;
    t.config = c.config;
    Status launchError;
    std::vector<double> millis;
    Status s = rt_.time(
        [&] {
          Status l = rt_.launch(c.ptx, c.info, c.grid, args, /*sync=*/false);
          if (!l && launchError)
            launchError = l;
          return l;
        },
        options_.warmup, options_.iters, millis);
    if (s && !millis.empty()) {
      t.ok = true;
      t.ms = median(millis);
      size_t i = r.candidates.size();
      if (!winner || t.ms < r.candidates[*winner].ms)
        winner = i;
    } else {
      // The launch's own message (a TMA stride rule, a JIT log) rather than
      // time's wrapping of it.
      t.error = !launchError ? launchError.message : s.message;
    }
    r.candidates.push_back(std::move(t));
  }
  if (!winner) {
    std::string message = "autotune '" + kernel + "' (" + bucket + ") on " +
                          device_ + ": every candidate failed:";
    for (const CandidateTiming &t : r.candidates)
      message += "\n  " + t.config + ": " + t.error;
    return Status::error(message);
  }

  best = *winner;
  CacheEntry entry{kernel,
                   bucket,
                   device_,
                   candidates[*winner].config,
                   r.candidates[*winner].ms,
                   utcNow()};
  r.config = entry.config;
  r.ms = entry.ms;
  r.date = entry.date;
  if (!cacheResult)
    return Status::success();
  memo_[key] = entry;
  std::string warning;
  Status stored = cache_.store(entry, &warning);
  if (!warning.empty() && !warned_) {
    r.warnings.push_back(warning);
    warned_ = true;
  }
  if (!stored)
    r.warnings.push_back(stored.message + " (the choice is not cached)");
  return Status::success();
}

std::vector<CacheEntry> Autotuner::list() const { return cache_.read(); }

Status Autotuner::clear() {
  memo_.clear();
  return cache_.clear();
}

Status Autotuner::clear(const std::string &kernel) {
  for (auto it = memo_.begin(); it != memo_.end();)
    it = it->first.first == kernel ? memo_.erase(it) : std::next(it);
  size_t removed = 0;
  return cache_.clear(kernel, removed);
}

} // namespace tessera::rt

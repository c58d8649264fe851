//===- AutotunerTest.cpp - the autotuner and its cache, without a GPU -----===//
//
// Candidates are launched on the fake libcuda (FakeCuda.cpp, loaded through
// TESSERA_LIBCUDA), whose event clock each launch advances by a per-kernel
// amount, so a test decides which candidate is fastest; its launch counter
// tells whether a choice came from the cache.
//
//===----------------------------------------------------------------------===//

#include "runtime/Autotuner.h"
#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace tessera::rt;
namespace fs = std::filesystem;

namespace {

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "  message: " << (haystack)                                           \
      << "\n  expected to contain: " << (needle)

class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> old_;
};

std::string readFile(const fs::path &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeFile(const fs::path &path, const std::string &text) {
  std::ofstream(path) << text;
}

/// The PTX of an empty kernel `name` taking `views` rank-2 views and
/// `tensorMaps` trailing tensor map addresses.
std::string viewPtx(const std::string &name, int views, int tensorMaps = 0) {
  std::string params;
  int n = 0;
  auto add = [&](const std::string &decl) {
    params += (n ? ",\n\t" : "\t") + decl + " " + name + "_param_" +
              std::to_string(n);
    ++n;
  };
  for (int v = 0; v < views; ++v) {
    add(".param .u64 .ptr .global .align 16");
    for (int i = 0; i < 4; ++i) // two sizes, two strides
      add(".param .u64");
  }
  for (int t = 0; t < tensorMaps; ++t)
    add(".param .u64");
  return ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry " +
         name + "(\n" + params + "\n)\n{\n\tret;\n}\n";
}

/// A candidate copying a rank-2 f32 view: kernel `entry`, configuration
/// `config`.
TuneCandidate candidate(const std::string &config, const std::string &entry) {
  TuneCandidate c;
  c.config = config;
  c.info.name = entry;
  c.info.target = "sm_80";
  c.info.numWarps = 4;
  for (const char *name : {"x", "y"}) {
    ArgInfo a;
    a.name = name;
    a.kind = ArgInfo::Kind::View;
    a.type = ScalarType::f32;
    a.rank = 2;
    c.info.args.push_back(a);
  }
  c.ptx = viewPtx(entry, 2);
  c.grid = {2, 1, 1};
  return c;
}

/// The same, reading x through a TMA tensor map: needs 16-byte rows.
TuneCandidate tmaCandidate(const std::string &config,
                           const std::string &entry) {
  TuneCandidate c = candidate(config, entry);
  c.info.tma = {{0, {4, 4}, 0}};
  c.ptx = viewPtx(entry, 2, 1);
  return c;
}

class AutotunerTest : public ::testing::Test {
protected:
  void SetUp() override {
    env_.emplace("TESSERA_LIBCUDA", TESSERA_FAKE_CUDA);
    handle_ = dlopen(TESSERA_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
    reset_ = reinterpret_cast<void (*)()>(dlsym(handle_, "fake_cuda_reset"));
    set_ = reinterpret_cast<void (*)(const char *, long long)>(
        dlsym(handle_, "fake_cuda_set"));
    get_ = reinterpret_cast<long long (*)(const char *)>(
        dlsym(handle_, "fake_cuda_get"));
    setName_ = reinterpret_cast<void (*)(const char *)>(
        dlsym(handle_, "fake_cuda_set_device_name"));
    ASSERT_TRUE(reset_ && set_ && get_ && setName_);
    reset_();

    char tmpl[] = "/tmp/tessera-autotune-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    cache_ = (dir_ / "autotune.json").string();

    Runtime &rt = runtime();
    // 4 x 5 f32: rows of 20 bytes, which TMA cannot describe.
    ASSERT_TRUE(rt.alloc(4 * 5 * 4, x_).ok);
    ASSERT_TRUE(rt.alloc(4 * 5 * 4, y_).ok);
    args_ = {ViewArg{x_, {4, 5}, {5, 1}}, ViewArg{y_, {4, 5}, {5, 1}}};
  }
  void TearDown() override {
    runtimes_.clear(); // before the fake's state is reset under them
    if (handle_)
      dlclose(handle_);
    env_.reset();
    std::error_code ec;
    if (!dir_.empty())
      fs::remove_all(dir_, ec);
  }

  /// A runtime on the fake device as it is configured now.
  Runtime &runtime() {
    std::unique_ptr<Runtime> rt;
    Status s = Runtime::create(rt);
    if (!s)
      throw std::runtime_error(s.message);
    runtimes_.push_back(std::move(rt));
    return *runtimes_.back();
  }
  Runtime &rt() { return *runtimes_.front(); }

  /// Three candidates; "b" is the fastest.
  std::vector<TuneCandidate> three() {
    set("launch_us:k_a", 300);
    set("launch_us:k_b", 100);
    set("launch_us:k_c", 200);
    return {candidate("a", "k_a"), candidate("b", "k_b"),
            candidate("c", "k_c")};
  }

  void set(const char *key, long long value) { set_(key, value); }
  void set(const std::string &key, long long value) {
    set_(key.c_str(), value);
  }
  long long get(const char *key) { return get_(key); }

  std::vector<std::string> dirListing() const {
    std::vector<std::string> names;
    for (const auto &e : fs::directory_iterator(dir_))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  std::optional<ScopedEnv> env_;
  void *handle_ = nullptr;
  void (*reset_)() = nullptr;
  void (*set_)(const char *, long long) = nullptr;
  long long (*get_)(const char *) = nullptr;
  void (*setName_)(const char *) = nullptr;
  std::vector<std::unique_ptr<Runtime>> runtimes_;
  fs::path dir_;
  std::string cache_;
  DevicePtr x_ = 0, y_ = 0;
  std::vector<Arg> args_;
};

//===----------------------------------------------------------------------===//
// Keys and paths
//===----------------------------------------------------------------------===//

TEST(ShapeBucketTest, RoundsUpToPowersOfTwo) {
  EXPECT_EQ(shapeBucket({8192, 8192, 8192}), "8192x8192x8192");
  EXPECT_EQ(shapeBucket({8000, 4097, 100}), "8192x8192x128");
  EXPECT_EQ(shapeBucket({1, 2, 3}), "1x2x4");
  EXPECT_EQ(shapeBucket({4096}), "4096");
  EXPECT_EQ(shapeBucket({0, -5}), "0x0");
  EXPECT_EQ(shapeBucket({}), "");
  EXPECT_EQ(shapeBucket({(int64_t(1) << 62) + 1}),
            std::to_string((int64_t(1) << 62) + 1));
  // Nearby sizes share a bucket; the next power of two does not.
  EXPECT_EQ(shapeBucket({1000, 1000}), shapeBucket({1024, 600}));
  EXPECT_NE(shapeBucket({1024}), shapeBucket({1025}));
}

TEST(DeviceKeyTest, NameAndComputeCapability) {
  EXPECT_EQ(deviceKey("NVIDIA H200", 90), "NVIDIA H200 (sm_90)");
}

TEST(DefaultCachePathTest, Environment) {
  ScopedEnv home("HOME", "/home/u");
  {
    ScopedEnv dir("TESSERA_CACHE_DIR", "/c/t");
    ScopedEnv xdg("XDG_CACHE_HOME", "/x");
    EXPECT_EQ(defaultCachePath(), "/c/t/autotune.json");
  }
  {
    ScopedEnv dir("TESSERA_CACHE_DIR", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", "/x");
    EXPECT_EQ(defaultCachePath(), "/x/tessera/autotune.json");
  }
  {
    ScopedEnv dir("TESSERA_CACHE_DIR", "");
    ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
    EXPECT_EQ(defaultCachePath(), "/home/u/.cache/tessera/autotune.json");
  }
}

//===----------------------------------------------------------------------===//
// The cache file alone
//===----------------------------------------------------------------------===//

class TuneCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tessera-tunecache-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_F(TuneCacheTest, RoundTripOfOddStrings) {
  // Nested directories are made on the first store.
  TuneCache cache((dir_ / "a" / "b" / "autotune.json").string());
  EXPECT_TRUE(cache.read().empty());
  CacheEntry e{"k \"quoted\" \\ back\nline\x01",
               "8x8",
               "GPU \xc3\xa9 (sm_90)",
               "128x128x64.w4",
               0.125,
               "2026-11-30T00:00:00Z"};
  ASSERT_TRUE(cache.store(e).ok);
  std::string warning = "stale";
  std::vector<CacheEntry> back = cache.read(&warning);
  EXPECT_EQ(warning, "");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].kernel, e.kernel);
  EXPECT_EQ(back[0].bucket, e.bucket);
  EXPECT_EQ(back[0].device, e.device);
  EXPECT_EQ(back[0].config, e.config);
  EXPECT_DOUBLE_EQ(back[0].ms, 0.125);
  EXPECT_EQ(back[0].date, e.date);
  // One line per entry.
  std::string text = readFile(cache.path());
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
}

TEST_F(TuneCacheTest, StoreReplacesTheSameKeyOnly) {
  TuneCache cache((dir_ / "autotune.json").string());
  ASSERT_TRUE(cache.store({"k", "64", "d", "x", 2, "t"}).ok);
  ASSERT_TRUE(cache.store({"k", "128", "d", "x", 2, "t"}).ok);
  ASSERT_TRUE(cache.store({"k", "64", "d2", "x", 2, "t"}).ok);
  ASSERT_TRUE(cache.store({"k", "64", "d", "y", 1, "t"}).ok);
  std::vector<CacheEntry> all = cache.read();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].config, "y"); // replaced in place
  EXPECT_DOUBLE_EQ(all[0].ms, 1);
  EXPECT_EQ(all[1].bucket, "128");
  EXPECT_EQ(all[2].device, "d2");
}

TEST_F(TuneCacheTest, ReadsHandWrittenJson) {
  fs::path p = dir_ / "autotune.json";
  writeFile(p,
            "\n  { \"config\" : \"c\\u00e9\\ud83d\\ude00\", \"kernel\":\"k\","
            "\"bucket\":\"1\",\"device\":\"d\",\"ms\":1.5e-1,"
            "\"date\":\"t\", \"future\": 3}  \r\n\n");
  std::string warning;
  std::vector<CacheEntry> all = TuneCache(p.string()).read(&warning);
  EXPECT_EQ(warning, "");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].config, "c\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_DOUBLE_EQ(all[0].ms, 0.15);
}

TEST_F(TuneCacheTest, CorruptFilesAreEmptyWithAWarning) {
  fs::path p = dir_ / "autotune.json";
  TuneCache cache(p.string());
  const std::pair<const char *, const char *> cases[] = {
      {"garbage", "line 1: malformed JSON at line 1, column 1: expected a "
                  "value"},
      {"{\"kernel\": \"k\"",
       "line 1: malformed JSON at line 1, column 15: expected ',' or '}'"},
      {"{\"kernel\": \"k\", \"bucket\": \"b\", \"device\": \"d\", "
       "\"config\": \"c\", \"date\": \"t\"}",
       "no number \"ms\""},
      {"{\"kernel\": \"k\", \"bucket\": \"b\", \"device\": \"d\", "
       "\"config\": \"c\", \"ms\": [1], \"date\": \"t\"}",
       "line 1: no number \"ms\""},
      {"{\"kernel\": \"k\", \"bucket\": \"b\", \"device\": \"d\", "
       "\"config\": \"c\", \"ms\": 1, \"date\": \"t\"} trailing",
       "unexpected text"},
      {"\n{}\n", "line 2: no string \"kernel\""},
      {"{\"kernel\": \"unterminated}", "column 12: unterminated string"},
      {"\x7f\x45\x4c\x46\x02", "line 1"}};
  for (auto [text, why] : cases) {
    SCOPED_TRACE(text);
    writeFile(p, text);
    std::string warning;
    EXPECT_TRUE(cache.read(&warning).empty());
    EXPECT_CONTAINS(warning, "is corrupt");
    EXPECT_CONTAINS(warning, p.string());
    EXPECT_CONTAINS(warning, why);
  }
  // A store replaces it with a good file.
  std::string warning;
  ASSERT_TRUE(cache.store({"k", "1", "d", "c", 1, "t"}, &warning).ok);
  EXPECT_CONTAINS(warning, "is corrupt");
  EXPECT_EQ(cache.read(&warning).size(), 1u);
  EXPECT_EQ(warning, "");
}

TEST_F(TuneCacheTest, UnreadableFileIsEmptyWithAWarning) {
  // A directory where the file should be cannot be read as one.
  fs::create_directory(dir_ / "autotune.json");
  std::string warning;
  EXPECT_TRUE(
      TuneCache((dir_ / "autotune.json").string()).read(&warning).empty());
  EXPECT_CONTAINS(warning, "cannot be read");
}

TEST_F(TuneCacheTest, ClearAndClearOneKernel) {
  TuneCache cache((dir_ / "autotune.json").string());
  EXPECT_TRUE(cache.clear().ok); // nothing there
  size_t removed = 7;
  EXPECT_TRUE(cache.clear("k", removed).ok);
  EXPECT_EQ(removed, 0u);
  ASSERT_TRUE(cache.store({"k", "1", "d", "c", 1, "t"}).ok);
  ASSERT_TRUE(cache.store({"k", "2", "d", "c", 1, "t"}).ok);
  ASSERT_TRUE(cache.store({"other", "1", "d", "c", 1, "t"}).ok);
  EXPECT_TRUE(cache.clear("nobody", removed).ok);
  EXPECT_EQ(removed, 0u);
  EXPECT_TRUE(cache.clear("k", removed).ok);
  EXPECT_EQ(removed, 2u);
  std::vector<CacheEntry> left = cache.read();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].kernel, "other");
  EXPECT_TRUE(cache.clear("other", removed).ok);
  EXPECT_EQ(removed, 1u);
  EXPECT_FALSE(fs::exists(cache.path())); // nothing left: no file
  ASSERT_TRUE(cache.store({"k", "1", "d", "c", 1, "t"}).ok);
  EXPECT_TRUE(cache.clear().ok);
  EXPECT_FALSE(fs::exists(cache.path()));
  EXPECT_TRUE(fs::is_empty(dir_)); // and no temporary files
}

TEST_F(TuneCacheTest, UnwritableDirectory) {
  writeFile(dir_ / "file", "x");
  TuneCache cache((dir_ / "file" / "autotune.json").string());
  Status s = cache.store({"k", "1", "d", "c", 1, "t"});
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "is not a directory");
}

//===----------------------------------------------------------------------===//
// Selecting
//===----------------------------------------------------------------------===//

TEST_F(AutotunerTest, TunesOnceThenUsesTheCache) {
  std::vector<TuneCandidate> candidates = three();
  {
    Autotuner tuner(rt(), cache_);
    EXPECT_EQ(tuner.device(), "Tessera Fake GPU (sm_90)");
    size_t best = 99;
    TuneReport report;
    Status s = tuner.select("copy", "4x8", candidates, args_, best, &report);
    ASSERT_TRUE(s.ok) << s.message;
    EXPECT_EQ(best, 1u);
    EXPECT_FALSE(report.fromCache);
    EXPECT_EQ(report.config, "b");
    EXPECT_TRUE(report.warnings.empty());
    // Every candidate: 2 warm-up and 5 timed launches, on the real args.
    EXPECT_EQ(get("launches"), 3 * 7);
    EXPECT_EQ(get("grid_x"), 2);
    ASSERT_EQ(report.candidates.size(), 3u);
    const double expected[] = {0.8, 0.6, 0.7}; // 0.5 ms per event pair + cost
    for (size_t i = 0; i < 3; ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(report.candidates[i].config, candidates[i].config);
      EXPECT_TRUE(report.candidates[i].ok);
      EXPECT_NEAR(report.candidates[i].ms, expected[i], 1e-6);
    }
    EXPECT_NEAR(report.ms, 0.6, 1e-6);
    EXPECT_EQ(report.date.size(), 20u); // 2026-11-30T12:00:00Z
    EXPECT_EQ(report.date.back(), 'Z');

    std::vector<CacheEntry> entries = tuner.list();
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].kernel, "copy");
    EXPECT_EQ(entries[0].bucket, "4x8");
    EXPECT_EQ(entries[0].device, "Tessera Fake GPU (sm_90)");
    EXPECT_EQ(entries[0].config, "b");
    EXPECT_NEAR(entries[0].ms, 0.6, 1e-6);
    EXPECT_EQ(entries[0].date, report.date);

    // The same tuner again: remembered, nothing launched.
    best = 99;
    ASSERT_TRUE(tuner.select("copy", "4x8", candidates, args_, best, &report));
    EXPECT_EQ(best, 1u);
    EXPECT_TRUE(report.fromCache);
    EXPECT_EQ(get("launches"), 3 * 7);
  }
  // A later run: a new tuner on the same file, even with the candidates in
  // another order, launches nothing.
  std::swap(candidates[0], candidates[1]);
  Autotuner again(runtime(), cache_);
  size_t best = 99;
  TuneReport report;
  Status s = again.select("copy", "4x8", candidates, args_, best, &report);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(best, 0u);
  EXPECT_TRUE(report.fromCache);
  EXPECT_EQ(report.config, "b");
  EXPECT_NEAR(report.ms, 0.6, 1e-6);
  EXPECT_TRUE(report.candidates.empty());
  EXPECT_EQ(get("launches"), 3 * 7);
  EXPECT_EQ(dirListing(), std::vector<std::string>{"autotune.json"});
}

TEST_F(AutotunerTest, TheFastestWins) {
  set("launch_us:k_a", 50);
  set("launch_us:k_b", 10);
  std::vector<TuneCandidate> c = {candidate("a", "k_a"), candidate("b", "k_b")};
  size_t best = 0;
  Autotuner tuner(rt(), cache_);
  ASSERT_TRUE(tuner.select("copy", "1", c, args_, best).ok);
  EXPECT_EQ(best, 1u);
  // Other buckets are tuned separately.
  set("launch_us:k_b", 90);
  ASSERT_TRUE(tuner.select("copy", "2", c, args_, best).ok);
  EXPECT_EQ(best, 0u);
  EXPECT_EQ(tuner.list().size(), 2u);
}

TEST_F(AutotunerTest, Options) {
  Autotuner tuner(rt(), cache_, {0, 3});
  size_t best = 0;
  ASSERT_TRUE(tuner.select("copy", "1", three(), args_, best).ok);
  EXPECT_EQ(get("launches"), 3 * 3);
  tuner.setOptions({1, 0});
  Status s = tuner.select("copy", "2", three(), args_, best);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "iters >= 1");
}

TEST_F(AutotunerTest, FailingCandidatesAreSkippedAndReported) {
  set("launch_us:k_tma", 0); // would be fastest
  set("launch_us:k_bad", 0);
  std::vector<TuneCandidate> c = three();
  c.insert(c.begin(), tmaCandidate("tma", "k_tma"));
  TuneCandidate bad = candidate("bad", "k_bad");
  bad.ptx += "SYNTAX_ERROR\n";
  c.push_back(bad);
  TuneCandidate oom = candidate("oom", "k_oom");
  set("launch_error:k_oom", 701); // CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
  c.push_back(oom);

  Autotuner tuner(rt(), cache_);
  size_t best = 99;
  TuneReport report;
  Status s = tuner.select("copy", "4x8", c, args_, best, &report);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(c[best].config, "b");
  ASSERT_EQ(report.candidates.size(), 6u);
  const CandidateTiming &tma = report.candidates[0];
  EXPECT_FALSE(tma.ok);
  EXPECT_CONTAINS(tma.error, "argument 'x' (TMA)");
  EXPECT_CONTAINS(tma.error, "20 bytes, not a multiple of 16");
  EXPECT_EQ(tma.error.find("time:"), std::string::npos); // the launch's own
  EXPECT_FALSE(report.candidates[4].ok);
  EXPECT_CONTAINS(report.candidates[4].error, "JIT compilation");
  EXPECT_FALSE(report.candidates[5].ok);
  EXPECT_CONTAINS(report.candidates[5].error,
                  "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES");
  for (size_t i = 1; i < 4; ++i)
    EXPECT_TRUE(report.candidates[i].ok) << i;
  EXPECT_EQ(tuner.list().at(0).config, "b");
}

TEST_F(AutotunerTest, EveryCandidateFailing) {
  std::vector<TuneCandidate> c = {tmaCandidate("tma", "k_tma"),
                                  candidate("bad", "k_bad")};
  c[1].ptx += "SYNTAX_ERROR\n";
  Autotuner tuner(rt(), cache_);
  size_t best = 42;
  TuneReport report;
  Status s = tuner.select("copy", "4x8", c, args_, best, &report);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "autotune 'copy' (4x8) on Tessera Fake GPU "
                             "(sm_90): every candidate failed:");
  EXPECT_CONTAINS(s.message, "\n  tma: kernel 'k_tma': argument 'x' (TMA)");
  EXPECT_CONTAINS(s.message, "\n  bad: JIT compilation");
  EXPECT_EQ(best, 42u);
  EXPECT_EQ(report.candidates.size(), 2u);
  EXPECT_FALSE(fs::exists(cache_)); // nothing cached
}

TEST_F(AutotunerTest, BadCandidateLists) {
  Autotuner tuner(rt(), cache_);
  size_t best = 0;
  Status s = tuner.select("copy", "1", {}, args_, best);
  EXPECT_CONTAINS(s.message, "no candidates");
  s = tuner.select("copy", "1", {candidate("a", "k_a"), candidate("a", "k_b")},
                   args_, best);
  EXPECT_CONTAINS(s.message, "candidates 0 and 1 have the same config 'a'");
  s = tuner.select("", "1", {candidate("a", "k_a")}, args_, best);
  EXPECT_CONTAINS(s.message, "empty kernel name");
  EXPECT_EQ(get("launches"), 0);
}

TEST_F(AutotunerTest, CachedChoiceNoLongerACandidate) {
  TuneCache(cache_).store(
      {"copy", "4x8", "Tessera Fake GPU (sm_90)", "gone", 0.1, "t"});
  Autotuner tuner(rt(), cache_);
  size_t best = 0;
  TuneReport report;
  ASSERT_TRUE(tuner.select("copy", "4x8", three(), args_, best, &report).ok);
  EXPECT_FALSE(report.fromCache);
  EXPECT_EQ(best, 1u);
  std::vector<CacheEntry> entries = tuner.list();
  ASSERT_EQ(entries.size(), 1u); // replaced
  EXPECT_EQ(entries[0].config, "b");
}

TEST_F(AutotunerTest, CachedChoiceThatCannotRunTheseArgs) {
  // Tuned on 16-byte rows, where the TMA candidate is fastest.
  DevicePtr x = 0, y = 0;
  ASSERT_TRUE(rt().alloc(4 * 8 * 4, x).ok);
  ASSERT_TRUE(rt().alloc(4 * 8 * 4, y).ok);
  std::vector<Arg> aligned = {ViewArg{x, {4, 8}, {8, 1}},
                              ViewArg{y, {4, 8}, {8, 1}}};
  std::vector<TuneCandidate> c = three();
  c.push_back(tmaCandidate("tma", "k_tma"));
  set("launch_us:k_tma", 10);
  Autotuner tuner(rt(), cache_);
  size_t best = 0;
  TuneReport report;
  ASSERT_TRUE(tuner.select("copy", "4x8", c, aligned, best, &report).ok);
  EXPECT_EQ(report.config, "tma");

  // A shape of the same bucket with 20-byte rows: tuned again among those
  // that run it, and the bucket's choice stays.
  long long launches = get("launches");
  Status s = tuner.select("copy", "4x8", c, args_, best, &report);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_FALSE(report.fromCache);
  EXPECT_EQ(c[best].config, "b");
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_CONTAINS(report.warnings[0], "the cached choice 'tma' cannot run "
                                      "these arguments (kernel 'k_tma': "
                                      "argument 'x' (TMA)");
  EXPECT_CONTAINS(report.warnings[0], "tuned again, not cached");
  EXPECT_EQ(get("launches"), launches + 3 * 7);
  std::vector<CacheEntry> entries = tuner.list();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].config, "tma");
  // And still from the cache for the shapes it fits.
  ASSERT_TRUE(tuner.select("copy", "4x8", c, aligned, best, &report).ok);
  EXPECT_TRUE(report.fromCache);
  EXPECT_EQ(report.config, "tma");
}

TEST_F(AutotunerTest, CorruptCacheIsReportedOnceAndRewritten) {
  writeFile(cache_, "{\"kernel\": \"copy\", truncated");
  Autotuner tuner(rt(), cache_);
  size_t best = 0;
  TuneReport report;
  ASSERT_TRUE(tuner.select("copy", "4x8", three(), args_, best, &report).ok);
  EXPECT_FALSE(report.fromCache);
  EXPECT_EQ(best, 1u);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_CONTAINS(report.warnings[0], "is corrupt");
  EXPECT_CONTAINS(report.warnings[0], cache_);
  // Rewritten: good now, and nothing more is said.
  std::string warning;
  EXPECT_EQ(TuneCache(cache_).read(&warning).size(), 1u);
  EXPECT_EQ(warning, "");
  ASSERT_TRUE(tuner.select("copy", "8x8", three(), args_, best, &report).ok);
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_EQ(tuner.list().size(), 2u);
}

TEST_F(AutotunerTest, UnwritableCacheIsAWarningNotAnError) {
  writeFile(dir_ / "file", "x");
  Autotuner tuner(rt(), (dir_ / "file" / "autotune.json").string());
  size_t best = 0;
  TuneReport report;
  Status s = tuner.select("copy", "4x8", three(), args_, best, &report);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(best, 1u);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_CONTAINS(report.warnings[0], "is not a directory");
  EXPECT_CONTAINS(report.warnings[0], "not cached");
  // Still remembered in this process.
  ASSERT_TRUE(tuner.select("copy", "4x8", three(), args_, best, &report).ok);
  EXPECT_TRUE(report.fromCache);
}

TEST_F(AutotunerTest, EntriesAreKeyedByDevice) {
  size_t best = 0;
  std::vector<TuneCandidate> c = three();
  {
    Autotuner tuner(rt(), cache_);
    ASSERT_TRUE(tuner.select("copy", "4x8", c, args_, best).ok);
  }
  EXPECT_EQ(get("launches"), 21);

  // Another compute capability: tuned again, where "c" is fastest.
  set("cc_major", 10);
  set("launch_us:k_c", 10);
  Runtime &blackwell = runtime();
  ASSERT_EQ(blackwell.computeCapability(), 100);
  Autotuner other(blackwell, cache_);
  TuneReport report;
  ASSERT_TRUE(other.select("copy", "4x8", c, args_, best, &report).ok);
  EXPECT_FALSE(report.fromCache);
  EXPECT_EQ(get("launches"), 42);

  // Another device name, same capability: tuned again too.
  set("cc_major", 9);
  setName_("Another GPU");
  Autotuner named(runtime(), cache_);
  ASSERT_TRUE(named.select("copy", "4x8", c, args_, best, &report).ok);
  EXPECT_FALSE(report.fromCache);
  EXPECT_EQ(get("launches"), 63);

  std::vector<CacheEntry> entries = named.list();
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].device, "Tessera Fake GPU (sm_90)");
  EXPECT_EQ(entries[0].config, "b");
  EXPECT_EQ(entries[1].device, "Tessera Fake GPU (sm_100)");
  EXPECT_EQ(entries[1].config, "c");
  EXPECT_EQ(entries[2].device, "Another GPU (sm_90)");

  // Each device still finds its own.
  Autotuner first(rt(), cache_);
  ASSERT_TRUE(first.select("copy", "4x8", c, args_, best, &report).ok);
  EXPECT_TRUE(report.fromCache);
  EXPECT_EQ(best, 1u);
  EXPECT_EQ(get("launches"), 63);
}

TEST_F(AutotunerTest, TwoTunersOnOneFileKeepBothEntries) {
  Autotuner a(rt(), cache_), b(rt(), cache_);
  size_t best = 0;
  // b has not read the file since a wrote it; its store must not drop a's.
  ASSERT_TRUE(a.select("one", "1", three(), args_, best).ok);
  ASSERT_TRUE(b.select("two", "1", three(), args_, best).ok);
  std::vector<CacheEntry> entries = a.list();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].kernel, "one");
  EXPECT_EQ(entries[1].kernel, "two");
}

TEST_F(AutotunerTest, ListAndClear) {
  Autotuner tuner(rt(), cache_);
  size_t best = 0;
  ASSERT_TRUE(tuner.select("one", "1", three(), args_, best).ok);
  ASSERT_TRUE(tuner.select("one", "2", three(), args_, best).ok);
  ASSERT_TRUE(tuner.select("two", "1", three(), args_, best).ok);
  EXPECT_EQ(tuner.list().size(), 3u);
  long long launches = get("launches");

  ASSERT_TRUE(tuner.clear("one").ok);
  std::vector<CacheEntry> left = tuner.list();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].kernel, "two");
  // Forgotten in memory too: "one" is tuned again, "two" is not.
  TuneReport report;
  ASSERT_TRUE(tuner.select("two", "1", three(), args_, best, &report).ok);
  EXPECT_TRUE(report.fromCache);
  ASSERT_TRUE(tuner.select("one", "1", three(), args_, best, &report).ok);
  EXPECT_FALSE(report.fromCache);
  EXPECT_EQ(get("launches"), launches + 21);

  ASSERT_TRUE(tuner.clear().ok);
  EXPECT_TRUE(tuner.list().empty());
  EXPECT_FALSE(fs::exists(cache_));
  ASSERT_TRUE(tuner.select("two", "1", three(), args_, best, &report).ok);
  EXPECT_FALSE(report.fromCache);
}

TEST_F(AutotunerTest, DefaultPathAndNoTemporaryFiles) {
  ScopedEnv dir("TESSERA_CACHE_DIR", (dir_ / "nested" / "dir").c_str());
  Autotuner tuner(rt());
  EXPECT_EQ(tuner.cachePath(), (dir_ / "nested/dir/autotune.json").string());
  size_t best = 0;
  for (const char *bucket : {"1", "2", "4"})
    ASSERT_TRUE(tuner.select("copy", bucket, three(), args_, best).ok);
  std::vector<std::string> files;
  for (const auto &e : fs::directory_iterator(dir_ / "nested" / "dir"))
    files.push_back(e.path().filename().string());
  EXPECT_EQ(files, std::vector<std::string>{"autotune.json"});
  struct stat st;
  ASSERT_EQ(stat(tuner.cachePath().c_str(), &st), 0);
  EXPECT_NE(st.st_mode & S_IRUSR, 0u);
  EXPECT_EQ(TuneCache(tuner.cachePath()).read().size(), 3u);
}

} // namespace

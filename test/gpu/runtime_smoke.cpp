//===- runtime_smoke.cpp - the runtime against a real driver and GPU ------===//
//
// Loads a hand-written PTX module, runs it on 1M elements and checks the
// results, then walks the error paths on the real driver (JIT error log,
// sm_90a PTX, bad arguments, launch limits, a kernel fault). Prints one
// PASS/FAIL line per check and exits non-zero on any failure; without a
// driver it prints "SKIP: no CUDA driver" and exits 0.
//
// Built with -static-libstdc++ -static-libgcc on the build machine, run on
// the GPU host.
//
//===----------------------------------------------------------------------===//

#include "runtime/KernelInfo.h"
#include "runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace tessera::rt;

namespace {

// Two entry points with the ABI of KernelInfo.h:
//   scale2(x: view f32 rank 1, y: view f32 rank 1):
//       y[i * ys] = 2 * x[i * xs] for i < x.size
//   affine(x: view f32 rank 1, y: view f32 rank 1, alpha: f32, beta: i32):
//       y[i * ys] = alpha * x[i * xs] + beta for i < x.size
const char *kPtx = R"(.version 8.0
.target sm_80
.address_size 64

.visible .entry scale2(
	.param .u64 .ptr .global .align 16 scale2_param_0,
	.param .u64 scale2_param_1,
	.param .u64 scale2_param_2,
	.param .u64 .ptr .global .align 16 scale2_param_3,
	.param .u64 scale2_param_4,
	.param .u64 scale2_param_5
)
.maxntid 1024, 1, 1
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .f32 	%f<3>;
	.reg .b64 	%rd<16>;

	ld.param.u64 	%rd1, [scale2_param_0];
	ld.param.u64 	%rd2, [scale2_param_1];
	ld.param.u64 	%rd3, [scale2_param_2];
	ld.param.u64 	%rd4, [scale2_param_3];
	ld.param.u64 	%rd5, [scale2_param_5];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mul.wide.u32 	%rd6, %r1, %r2;
	cvt.u64.u32 	%rd7, %r3;
	add.s64 	%rd8, %rd6, %rd7;
	setp.ge.s64 	%p1, %rd8, %rd2;
	@%p1 bra 	$L_scale2_done;
	cvta.to.global.u64 	%rd9, %rd1;
	mul.lo.s64 	%rd10, %rd8, %rd3;
	shl.b64 	%rd11, %rd10, 2;
	add.s64 	%rd12, %rd9, %rd11;
	ld.global.f32 	%f1, [%rd12];
	add.f32 	%f2, %f1, %f1;
	cvta.to.global.u64 	%rd13, %rd4;
	mul.lo.s64 	%rd14, %rd8, %rd5;
	shl.b64 	%rd15, %rd14, 2;
	add.s64 	%rd14, %rd13, %rd15;
	st.global.f32 	[%rd14], %f2;
$L_scale2_done:
	ret;
}

.visible .entry affine(
	.param .u64 .ptr .global .align 16 affine_param_0,
	.param .u64 affine_param_1,
	.param .u64 affine_param_2,
	.param .u64 .ptr .global .align 16 affine_param_3,
	.param .u64 affine_param_4,
	.param .u64 affine_param_5,
	.param .f32 affine_param_6,
	.param .u32 affine_param_7
)
.maxntid 1024, 1, 1
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<5>;
	.reg .f32 	%f<5>;
	.reg .b64 	%rd<16>;

	ld.param.u64 	%rd1, [affine_param_0];
	ld.param.u64 	%rd2, [affine_param_1];
	ld.param.u64 	%rd3, [affine_param_2];
	ld.param.u64 	%rd4, [affine_param_3];
	ld.param.u64 	%rd5, [affine_param_5];
	ld.param.f32 	%f3, [affine_param_6];
	ld.param.u32 	%r4, [affine_param_7];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mul.wide.u32 	%rd6, %r1, %r2;
	cvt.u64.u32 	%rd7, %r3;
	add.s64 	%rd8, %rd6, %rd7;
	setp.ge.s64 	%p1, %rd8, %rd2;
	@%p1 bra 	$L_affine_done;
	cvta.to.global.u64 	%rd9, %rd1;
	mul.lo.s64 	%rd10, %rd8, %rd3;
	shl.b64 	%rd11, %rd10, 2;
	add.s64 	%rd12, %rd9, %rd11;
	ld.global.f32 	%f1, [%rd12];
	cvt.rn.f32.s32 	%f4, %r4;
	fma.rn.f32 	%f2, %f1, %f3, %f4;
	cvta.to.global.u64 	%rd13, %rd4;
	mul.lo.s64 	%rd14, %rd8, %rd5;
	shl.b64 	%rd15, %rd14, 2;
	add.s64 	%rd14, %rd13, %rd15;
	st.global.f32 	[%rd14], %f2;
$L_affine_done:
	ret;
}
)";

KernelInfo scale2Info() {
  KernelInfo info;
  info.name = "scale2";
  info.target = "sm_80";
  info.numWarps = 8;
  ArgInfo x;
  x.name = "x";
  x.kind = ArgInfo::Kind::View;
  x.type = ScalarType::f32;
  x.rank = 1;
  x.align = 16;
  ArgInfo y = x;
  y.name = "y";
  info.args = {x, y};
  return info;
}

KernelInfo affineInfo() {
  KernelInfo info = scale2Info();
  info.name = "affine";
  ArgInfo alpha;
  alpha.name = "alpha";
  alpha.kind = ArgInfo::Kind::Scalar;
  alpha.type = ScalarType::f32;
  ArgInfo beta = alpha;
  beta.name = "beta";
  beta.type = ScalarType::i32;
  info.args.push_back(alpha);
  info.args.push_back(beta);
  return info;
}

ViewArg view1(DevicePtr data, int64_t size, int64_t stride) {
  ViewArg v;
  v.data = data;
  v.sizes = {size};
  v.strides = {stride};
  return v;
}

int passed = 0, failed = 0;

void report(bool ok, const std::string &what, const std::string &detail = "") {
  if (ok)
    ++passed;
  else
    ++failed;
  std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
  if (!detail.empty())
    std::printf("    %s\n", detail.c_str());
  std::fflush(stdout);
}

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

/// An error path: `s` must fail with a message containing every `parts`.
void expectError(const Status &s, const std::string &what,
                 const std::vector<std::string> &parts) {
  if (s.ok) {
    report(false, what, "succeeded, expected an error");
    return;
  }
  std::string missing;
  for (const std::string &p : parts)
    if (!contains(s.message, p))
      missing += " \"" + p + "\"";
  report(missing.empty(), what,
         missing.empty() ? "message: " + s.message
                         : "message lacks" + missing + ": " + s.message);
}

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

} // namespace

int main() {
  // The driver's JIT cache (~/.nv/ComputeCache) serves a PTX it has
  // compiled before without running ptxas, and then the info log is empty:
  // a second run on the same machine would fail the log check below.
  ::setenv("CUDA_CACHE_DISABLE", "1", /*overwrite=*/0);
  std::unique_ptr<Runtime> rt;
  Status s = Runtime::create(rt);
  if (!s.ok) {
    if (contains(s.message, "no CUDA driver") ||
        contains(s.message, "no CUDA GPU")) {
      std::printf("SKIP: %s\n    %s\n",
                  contains(s.message, "no CUDA driver") ? "no CUDA driver"
                                                        : "no CUDA GPU",
                  s.message.c_str());
      return 0;
    }
    std::printf("FAIL: Runtime::create: %s\n", s.message.c_str());
    return 1;
  }
  int cc = rt->computeCapability();
  std::printf("device: %s, compute capability %d.%d, %d bytes of shared "
              "memory per block (opt-in)\n",
              rt->deviceName().c_str(), cc / 10, cc % 10,
              rt->maxSharedBytesPerBlock());

  const KernelInfo scale = scale2Info(), affine = affineInfo();

  // Loading, the JIT info log and the module cache.
  std::string log;
  s = rt->load(kPtx, scale, &log);
  report(s.ok, "load the PTX (JIT)", s.message);
  if (!s.ok)
    return 1;
  std::printf("JIT info log:\n%s\n", log.c_str());
  report(contains(log, "registers"), "the JIT info log reports registers");
  s = rt->load(std::string(kPtx), affine);
  report(s.ok && rt->cachedModules() == 1,
         "second entry of the same PTX comes from the cache",
         s.message + " cachedModules=" + std::to_string(rt->cachedModules()));

  // 1M elements.
  const int64_t n = 1 << 20;
  std::vector<float> hx(n), hy(n);
  for (int64_t i = 0; i < n; ++i)
    hx[i] = static_cast<float>(i % 4099) * 0.25f - 500.0f;
  DevicePtr x = 0, y = 0;
  s = rt->alloc(n * sizeof(float), x);
  if (s.ok)
    s = rt->alloc(n * sizeof(float), y);
  report(s.ok, "alloc 2 x 4 MB", s.message);
  if (!s.ok)
    return 1;
  std::vector<float> poison(n, std::nanf(""));
  auto resetY = [&] {
    return rt->copyToDevice(y, poison.data(), n * sizeof(float));
  };
  s = rt->copyToDevice(x, hx.data(), n * sizeof(float));
  if (s.ok)
    s = resetY();
  report(s.ok, "copy to device", s.message);

  // y = 2 x, contiguous.
  int64_t threads = scale.numWarps * 32;
  s = rt->launch(kPtx, scale, {cdiv(n, threads), 1, 1},
                 {view1(x, n, 1), view1(y, n, 1)});
  report(s.ok, "launch scale2 on 1M elements", s.message);
  s = rt->copyToHost(hy.data(), y, n * sizeof(float));
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i)
    if (!(hy[i] == 2.0f * hx[i]))
      ++bad;
  report(s.ok && bad == 0, "scale2 results: y == 2 x everywhere",
         s.message + " mismatches=" + std::to_string(bad));

  // Strides: y[i] = 2 x[2i] for i < n/2; the rest of y stays poisoned.
  resetY();
  s = rt->launch(kPtx, scale, {cdiv(n / 2, threads), 1, 1},
                 {view1(x, n / 2, 2), view1(y, n / 2, 1)});
  rt->copyToHost(hy.data(), y, n * sizeof(float));
  bad = 0;
  for (int64_t i = 0; i < n; ++i)
    if (i < n / 2 ? !(hy[i] == 2.0f * hx[2 * i]) : !std::isnan(hy[i]))
      ++bad;
  report(s.ok && bad == 0, "scale2 with stride 2 (and bounds)",
         s.message + " mismatches=" + std::to_string(bad));

  // f32 and i32 scalar parameters.
  resetY();
  s = rt->launch(kPtx, affine, {cdiv(n, threads), 1, 1},
                 {view1(x, n, 1), view1(y, n, 1), 0.5, int64_t(-3)});
  rt->copyToHost(hy.data(), y, n * sizeof(float));
  bad = 0;
  for (int64_t i = 0; i < n; ++i)
    if (!(std::fabs(hy[i] - (0.5f * hx[i] - 3.0f)) <=
          1e-6f * (1 + std::fabs(hx[i]))))
      ++bad;
  report(s.ok && bad == 0, "affine (f32 and i32 scalars): y == 0.5 x - 3",
         s.message + " mismatches=" + std::to_string(bad));

  // Timing with events.
  std::vector<double> ms;
  s = rt->time(
      [&] {
        return rt->launch(kPtx, scale, {cdiv(n, threads), 1, 1},
                          {view1(x, n, 1), view1(y, n, 1)}, false);
      },
      10, 50, ms);
  if (s.ok && !ms.empty()) {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    double median = sorted[sorted.size() / 2];
    std::printf("scale2, 1M f32: median %.4f ms over %zu runs, %.1f GB/s\n",
                median, ms.size(), 8.0 * n / (median * 1e-3) / 1e9);
  }
  report(s.ok && ms.size() == 50 && ms[0] > 0, "time() with CUDA events",
         s.message);

  // Dynamic shared memory beyond the default 48 KB (cuFuncSetAttribute).
  KernelInfo big = scale;
  big.sharedBytes = std::min(100 * 1024, rt->maxSharedBytesPerBlock());
  s = rt->launch(kPtx, big, {cdiv(n, threads), 1, 1},
                 {view1(x, n, 1), view1(y, n, 1)});
  report(s.ok,
         "launch with " + std::to_string(big.sharedBytes) +
             " bytes of dynamic shared memory",
         s.message);
  big.sharedBytes = rt->maxSharedBytesPerBlock() + 1;
  expectError(
      rt->launch(kPtx, big, {1, 1, 1}, {view1(x, n, 1), view1(y, n, 1)}),
      "shared memory beyond the device limit", {"exceeds the device limit"});

  // JIT failures.
  std::string syntax = kPtx;
  syntax.replace(syntax.find("add.f32"), 7, "add.f33");
  s = rt->load(syntax, scale);
  expectError(s, "PTX with a syntax error: the JIT error log is shown",
              {"cuModuleLoadDataEx", "JIT error log:\n"});
  report(!s.ok && !contains(s.message, "JIT error log:\n(empty)") &&
             contains(s.message, "f33"),
         "the JIT error log names the bad instruction");

  std::string sm90a = kPtx;
  sm90a.replace(sm90a.find(".target sm_80"), 13, ".target sm_90a");
  s = rt->load(sm90a, scale);
  if (cc == 90)
    report(s.ok, "sm_90a PTX loads on this sm_90 device", s.message);
  else
    expectError(s, "sm_90a PTX on a device that is not sm_90",
                {"sm_90a", "JIT error log:\n"});

  expectError(rt->load(std::string(kPtx) + "\n.garbage\n", scale),
              "PTX with a bad directive", {"JIT error log:\n"});

  // Bad kernels and arguments.
  KernelInfo missing = scale;
  missing.name = "scale3";
  expectError(rt->load(kPtx, missing), "kernel not in the module",
              {"'scale3' not found", "scale2, affine"});
  KernelInfo wrong = scale;
  wrong.args.pop_back();
  expectError(rt->load(kPtx, wrong), "KernelInfo that does not match the PTX",
              {"does not match its PTX entry point"});
  expectError(
      rt->launch(kPtx, scale, {1, 1, 1}, {view1(0, n, 1), view1(y, n, 1)}),
      "null pointer argument", {"argument 0 'x'", "null pointer"});
  expectError(rt->launch(kPtx, scale, {1, 1, 1},
                         {view1(x + 4, n - 1, 1), view1(y, n, 1)}),
              "misaligned pointer argument", {"misaligned"});
  expectError(rt->launch(kPtx, scale, {1, 1, 1}, {view1(x, n, 1)}),
              "wrong argument count", {"takes 2 arguments"});
  expectError(
      rt->launch(kPtx, scale, {1, 1, 1}, {view1(x, -1, 1), view1(y, n, 1)}),
      "negative size", {"negative size"});
  expectError(
      rt->launch(kPtx, affine, {1, 1, 1},
                 {view1(x, n, 1), view1(y, n, 1), 0.5, int64_t(1) << 40}),
      "i32 scalar out of range", {"i32 range"});
  expectError(
      rt->launch(kPtx, scale, {1, 70000, 1}, {view1(x, n, 1), view1(y, n, 1)}),
      "grid too large", {"grid.y = 70000"});
  expectError(rt->launch(kPtx, scale, {int64_t(1) << 31, 1, 1},
                         {view1(x, n, 1), view1(y, n, 1)}),
              "grid.x too large", {"grid.x"});
  report(rt->cachedModules() == (cc == 90 ? 2u : 1u),
         "failed loads are not cached",
         "cachedModules=" + std::to_string(rt->cachedModules()));

  s = rt->free(x);
  if (s.ok)
    s = rt->free(y);
  report(s.ok, "free", s.message);

  // Last, as it leaves the context unusable: a kernel that faults.
  DevicePtr wild = 0xdead00000000ull;
  s = rt->launch(kPtx, scale, {cdiv(n, threads), 1, 1},
                 {view1(wild, n, 1), view1(wild, n, 1)});
  expectError(s, "a faulting kernel is reported",
              {"kernel 'scale2'", "CUDA_ERROR_"});
  if (!s.ok)
    expectError(rt->synchronize(), "later calls fail clearly", {"CUDA_ERROR_"});

  std::printf("runtime-smoke: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

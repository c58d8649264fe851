//===- ConvGpuTest.cpp - the long convolution's GPU entry points ----------===//
//
// conv::validate on every kind of bad argument, conv::prepare and
// conv::convolve end to end against the fake driver (FakeCuda.cpp): the
// spectrum written to device memory, the plan's kernels (compiled here)
// found in the library and launched on their grids.
//
//===----------------------------------------------------------------------===//

#include "kernels-src/conv/ConvGpu.h"
#include "kernels-src/conv/Conv.h"
#include "lowering/Compile.h"
#include "test/unit/FakeDriver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace tessera;

namespace {

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "  message: " << (haystack)                                           \
      << "\n  expected to contain: " << (needle)

conv::ConvArgs goodArgs(const conv::Shape &s, conv::Gates g,
                        rt::DevicePtr base = 0x100000) {
  const int64_t B = s.batch, H = s.channels, L = s.seqlen;
  rt::DevicePtr next = base;
  auto t = [&](std::vector<int64_t> shape) {
    DeviceTensor d{next, shape, {}};
    next += 0x10000000;
    return d;
  };
  conv::ConvArgs a;
  a.u = t({B, H, L});
  a.spectrum = t({H, 4, conv::fftSize(L)});
  a.y = t({B, H, L});
  if (g.pre)
    a.pre = t({B, H, L});
  if (g.post)
    a.post = t({B, H, L});
  a.workspaceSize = conv::workspaceBytes(s, g);
  if (a.workspaceSize)
    a.workspace = next;
  return a;
}

TEST(ConvValidate, AcceptsWellFormedCalls) {
  for (int64_t L : {256, 1000, 1001, 16384, 40000, 65536})
    for (bool gated : {false, true}) {
      conv::Shape s{2, 3, L};
      conv::Gates g{gated, gated};
      EXPECT_EQ(conv::validate(s, conv::ElementType::bf16, g, goodArgs(s, g)),
                "")
          << L;
    }
}

TEST(ConvValidate, RejectsBadCalls) {
  const conv::Gates none;
  auto check = [&](conv::Shape s, auto edit, const char *needle) {
    SCOPED_TRACE(needle);
    conv::ConvArgs a = goodArgs(s, none);
    edit(a);
    EXPECT_CONTAINS(conv::validate(s, conv::ElementType::f16, none, a), needle);
  };
  auto keep = [](conv::ConvArgs &) {};
  // Lengths the kernels do not take as they are run on zero-padded copies
  // of u (and the gates) and y in the workspace: 1001 -> 1002 samples (2004
  // bytes, 2016 with alignment, two of them without gates); 40000 -> 65536
  // after the three passes' two work buffers (2 x 2 x 65536 x 2 bytes) and
  // the bf16 forward's scale per sequence (4 bytes, 16 with alignment).
  check(
      {1, 1, 1001}, [](conv::ConvArgs &a) { a.workspace = 0; },
      "this length runs on zero-padded copies and needs a workspace of 4032 "
      "bytes");
  check(
      {1, 1, 40000}, [](conv::ConvArgs &a) { a.workspace = 0; },
      "this length runs in three passes on zero-padded copies and needs a "
      "workspace of 786448 bytes");
  EXPECT_EQ(conv::workspaceBytes({1, 1, 1001}, {true, true}), 4 * 2016);
  EXPECT_EQ(conv::workspaceBytes({1, 1, 1001}, {true, false}), 3 * 2016);
  EXPECT_EQ(conv::workspaceBytes({1, 1, 1001}), 4 * 2016);
  EXPECT_EQ(conv::workspaceBytes({1, 1, 1024}), 0);
  check(
      {1, 1, 1001}, [](conv::ConvArgs &a) { a.workspace += 8; },
      "the workspace must be 16-byte aligned");
  check({1, 1, 131072}, keep, "seqlen must be in [2, 65536], got 131072");
  check({0, 1, 256}, keep, "batch and channels must be >= 1");
  check({1, 70000, 256}, keep, "at most 65535");
  check(
      {2, 3, 256}, [](conv::ConvArgs &a) { a.u.ptr = 0; },
      "u is required (null pointer)");
  check(
      {2, 3, 256}, [](conv::ConvArgs &a) { a.y.ptr += 1; },
      "y is misaligned: its address must be a multiple of 2 bytes");
  check(
      {2, 3, 256},
      [](conv::ConvArgs &a) {
        a.spectrum.shape = {3, 4, 128};
      },
      "spectrum must have shape (3, 4, 512), got (3, 4, 128)");
  check(
      {2, 3, 256}, [](conv::ConvArgs &a) { a.pre = a.u; },
      "pre was given but its option is off");
  check(
      {2, 3, 256},
      [](conv::ConvArgs &a) {
        a.u.strides = {768, 256, 2};
      },
      "u must be contiguous along the sequence");
  check(
      {2, 3, 65536}, [](conv::ConvArgs &a) { a.workspace = 0; },
      // Two buffers of 2 x 3 rows, re and im, 65536 two-byte elements each,
      // and six f32 scales (32 bytes with alignment).
      "this length runs in three passes and needs a workspace of 3145760 "
      "bytes");
  // Strides or an address whose span wraps 64-bit addressing: the kernels
  // would read outside the tensor.
  check(
      {2, 3, 256},
      [](conv::ConvArgs &a) {
        a.u.strides = {int64_t(1) << 62, 256, 1};
      },
      "u spans more memory than 64-bit addressing reaches (shape (2, 3, "
      "256), strides (4611686018427387904, 256, 1), 2-byte elements)");
  check(
      {2, 3, 256}, [](conv::ConvArgs &a) { a.y.ptr = ~rt::DevicePtr(0) - 15; },
      "y spans more memory than 64-bit addressing reaches");
  // y's 3072 bytes end one byte below the top of the address space (one
  // past its end is still an address): fine; one element higher wraps.
  {
    conv::ConvArgs a = goodArgs({2, 3, 256}, none);
    a.y.ptr = ~rt::DevicePtr(0) - 3073;
    EXPECT_EQ(conv::validate({2, 3, 256}, conv::ElementType::f16, none, a), "");
    a.y.ptr += 2;
    EXPECT_CONTAINS(
        conv::validate({2, 3, 256}, conv::ElementType::f16, none, a),
        "y spans more memory");
  }
  check(
      {1, 1, 1001},
      [](conv::ConvArgs &a) { a.workspace = ~rt::DevicePtr(0) - 15; },
      "the workspace spans more memory than 64-bit addressing reaches");
}

TEST(DeviceTensorExtent, BytesSpannedOrOverflow) {
  // Row-major: the last element's offset plus one, in bytes.
  EXPECT_EQ(extentBytes({2, 3, 4}, {}, 2), 48);
  // Strided: (2 - 1) 100 + (3 - 1) 10 + (4 - 1) 1 + 1 = 124 elements.
  EXPECT_EQ(extentBytes({2, 3, 4}, {100, 10, 1}, 4), 496);
  // Broadcast (stride 0) dimensions span nothing.
  EXPECT_EQ(extentBytes({5, 7}, {0, 1}, 4), 28);
  EXPECT_EQ(extentBytes({0, 7}, {}, 4), 0);
  // More than 2^31 elements are fine (the kernels index in 64 bits)...
  EXPECT_EQ(extentBytes({8, 1 << 20, 80, 64}, {}, 2),
            int64_t(8) * (1 << 20) * 80 * 64 * 2);
  // ...a span past 2^63 bytes is not, whichever product wraps.
  EXPECT_EQ(extentBytes({int64_t(1) << 32, int64_t(1) << 32}, {}, 1), -1);
  EXPECT_EQ(extentBytes({3, 2}, {int64_t(1) << 62, 1}, 1), -1);
  EXPECT_EQ(extentBytes({int64_t(1) << 61, 1}, {}, 8), -1);
  // The sum of in-range steps wraps; the largest span that fits.
  EXPECT_EQ(extentBytes({2, 2}, {int64_t(1) << 62, int64_t(1) << 62}, 1), -1);
  EXPECT_EQ(extentBytes({INT64_MAX}, {}, 1), INT64_MAX);
  EXPECT_EQ(extentBytes({INT64_MAX}, {}, 2), -1);
}

/// The fake driver, and a library of the plan's kernels compiled here.
class ConvFakeDriverTest : public unit::FakeDriverTest {
protected:
  /// A library folder holding the plan's kernels for `seqlen` (bf16, no
  /// gates) and, with `copies`, the padding and cropping copies.
  rt::KernelLibrary libraryFor(int64_t seqlen, const std::string &folder,
                               bool copies = true) {
    dsl::KernelModule module;
    conv::build(module, seqlen, conv::Config{dsl::bf16, false, false, false});
    if (copies)
      conv::buildCopyRows(module, dsl::bf16);
    std::string error;
    auto compiled = lowering::compileToPtx(module.module(),
                                           lowering::CompileOptions{}, &error);
    EXPECT_TRUE(mlir::succeeded(compiled)) << error;
    auto dir = std::filesystem::temp_directory_path() / folder;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "k.ptx") << compiled->ptx;
    std::ofstream json(dir / "k.json");
    for (const rt::KernelInfo &info : compiled->kernels)
      json << rt::toJson(info) << "\n";
    json.close();
    rt::KernelLibrary lib;
    EXPECT_TRUE(lib.open(dir.string()).ok);
    return lib;
  }
};

TEST_F(ConvFakeDriverTest, PrepareWritesTheSpectrum) {
  const conv::Shape s{1, 2, 100};
  const int64_t M = conv::fftSize(s.seqlen);
  std::vector<float> k(size_t(2 * 100));
  for (size_t i = 0; i < k.size(); ++i)
    k[i] = float(std::sin(0.1 * double(i)));
  rt::DevicePtr kp = 0, sp = 0;
  ASSERT_TRUE(runtime->alloc(k.size() * 4, kp).ok);
  ASSERT_TRUE(runtime->alloc(size_t(2 * 4 * M) * 4, sp).ok);
  ASSERT_TRUE(runtime->copyToDevice(kp, k.data(), k.size() * 4).ok);
  rt::Status st = conv::prepare(*runtime, s, DeviceTensor{kp, {2, 100}, {}},
                                DeviceTensor{sp, {2, 4, M}, {}});
  ASSERT_TRUE(st.ok) << st.message;
  std::vector<float> got(size_t(2 * 4 * M));
  ASSERT_TRUE(runtime->copyToHost(got.data(), sp, got.size() * 4).ok);
  std::vector<double> want =
      conv::prepareSpectrum(2, 100, std::vector<double>(k.begin(), k.end()));
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-5 * (1 + std::abs(want[i]))) << i;

  st = conv::prepare(*runtime, s, DeviceTensor{kp, {2, 99}, {}},
                     DeviceTensor{sp, {2, 4, M}, {}});
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "k must have shape (2, 100), got (2, 99)");
}

TEST_F(ConvFakeDriverTest, ConvolveLaunchesThePlan) {
  // One kernel up to 4096: one program per 16 batch rows of a channel.
  conv::Shape s{33, 5, 1024};
  rt::KernelLibrary fused = libraryFor(1024, "tessera-conv-fused");
  rt::Status st = conv::convolve(*runtime, fused, s, conv::ElementType::bf16,
                                 {}, goodArgs(s, {}));
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(get("launches"), 1);
  EXPECT_EQ(get("grid_x"), 5);
  EXPECT_EQ(get("grid_y"), 3); // ceil(33 / 16)
  s.seqlen = 256; // on the kernel of 512, no copies: even lengths are read
                  // as they are
  rt::KernelLibrary fused512 = libraryFor(512, "tessera-conv-fused512");
  st = conv::convolve(*runtime, fused512, s, conv::ElementType::bf16, {},
                      goodArgs(s, {}));
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(get("launches"), 2);
  EXPECT_EQ(get("grid_x"), 5);
  EXPECT_EQ(get("grid_y"), 3);
  s.batch = 35;

  // Three passes beyond; the last launch is the inverse outer pass, one
  // program per column block of each batch row and channel.
  s.seqlen = 32768;
  rt::KernelLibrary passes = libraryFor(32768, "tessera-conv-passes");
  const conv::Plan p = conv::plan(32768);
  const conv::ConvArgs passArgs = goodArgs(s, {});
  st = conv::convolve(*runtime, passes, s, conv::ElementType::bf16, {},
                      passArgs);
  ASSERT_TRUE(st.ok) << st.message;
  // conv_bound first in bf16 (conv::forwardInF16).
  EXPECT_EQ(get("launches"), 6);
  EXPECT_EQ(get("grid_x"), p.M / p.outer / conv::columnBlock(p));
  EXPECT_EQ(get("grid_y"), 5);
  EXPECT_EQ(get("grid_z"), 35);
  // The inverse's last view is the scale of each sequence, (35, 5, 1) f32
  // after the two work buffers of 35 x 5 x 2 x 32768 two-byte elements: a
  // pointer, three sizes, three strides, after `work` (11) and `y` (9).
  auto count =
      reinterpret_cast<int (*)()>(dlsym(handle, "fake_cuda_param_count"));
  auto param = reinterpret_cast<unsigned long long (*)(int)>(
      dlsym(handle, "fake_cuda_param"));
  ASSERT_NE(count, nullptr);
  ASSERT_NE(param, nullptr);
  ASSERT_EQ(count(), 11 + 9 + 7);
  EXPECT_EQ(param(20), passArgs.workspace + 2ull * 35 * 5 * 2 * p.M * 2);
  const unsigned long long scaleView[] = {35, 5, 1, 5, 1, 1};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(param(21 + i), scaleView[i]) << "scales view field " << i;

  // A variant the library lacks, and bad arguments: nothing launched.
  st = conv::convolve(*runtime, passes, s, conv::ElementType::bf16,
                      {true, true}, goodArgs(s, {true, true}));
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "is not in the kernel library");
  EXPECT_CONTAINS(st.message, "--seqlen 32768 --gates pre,post");
  conv::ConvArgs bad = goodArgs(s, {});
  bad.workspace = 0;
  st = conv::convolve(*runtime, passes, s, conv::ElementType::bf16, {}, bad);
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "needs a workspace");
  EXPECT_EQ(get("launches"), 6);
}

TEST_F(ConvFakeDriverTest, OtherLengthsRunOnPaddedCopies) {
  auto param = reinterpret_cast<unsigned long long (*)(int)>(
      dlsym(handle, "fake_cuda_param"));
  ASSERT_NE(param, nullptr);
  // The last launch crops y: conv_copy_rows(src, dst), each view a pointer,
  // 3 sizes and 3 strides. Its source is the padded copy after u's (no
  // gates), after the work buffers, of `padded` samples; its destination
  // is y itself.
  auto expectCrop = [&](const conv::ConvArgs &a, size_t workBytes,
                        size_t copyBytes, int64_t padded, int64_t L) {
    EXPECT_EQ(param(0), a.workspace + workBytes + copyBytes);
    EXPECT_EQ(param(3), padded);
    EXPECT_EQ(param(7), a.y.ptr);
    EXPECT_EQ(param(10), L);
  };
  // An odd length runs the plan of its M on an even copy: the copy of u,
  // the fused kernel, then y cropped back (grid: 1024 samples a program).
  conv::Shape s{3, 5, 1001};
  rt::KernelLibrary fused = libraryFor(1024, "tessera-conv-pad-fused");
  conv::ConvArgs args = goodArgs(s, {});
  rt::Status st =
      conv::convolve(*runtime, fused, s, conv::ElementType::bf16, {}, args);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(get("launches"), 3);
  EXPECT_EQ(get("grid_x"), 1);
  EXPECT_EQ(get("grid_y"), 5);
  EXPECT_EQ(get("grid_z"), 3);
  // 3 x 5 x 1002 two-byte samples, rounded up to 16 bytes.
  expectCrop(args, 0, 30064, 1002, 1001);

  // Above 4096 a length that is not a power of two runs the three passes
  // of M on copies of length M.
  s.seqlen = 20000;
  rt::KernelLibrary passes = libraryFor(32768, "tessera-conv-pad-passes");
  args = goodArgs(s, {});
  st = conv::convolve(*runtime, passes, s, conv::ElementType::bf16, {}, args);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(get("launches"), 3 + 6);
  EXPECT_EQ(get("grid_x"), 20); // ceil(20000 / 1024)
  // After two work buffers of 3 x 5 x 2 x 32768 two-byte elements and the
  // 3 x 5 f32 sequence scales, rounded up to 16 bytes.
  expectCrop(args, 2 * 3 * 5 * 2 * 32768 * 2 + 64, 3 * 5 * 32768 * 2, 32768,
             20000);

  // Without the copies in the library: how to build them, nothing launched.
  rt::KernelLibrary bare =
      libraryFor(1024, "tessera-conv-pad-bare", /*copies=*/false);
  s.seqlen = 1001;
  st = conv::convolve(*runtime, bare, s, conv::ElementType::bf16, {},
                      goodArgs(s, {}));
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "conv_copy_rows_bf16");
  EXPECT_CONTAINS(st.message, "tessera print conv-copy --dtype bf16 | "
                              "tile-compile - --target sm_90a -o "
                              "conv_copy_rows_bf16.ptx");
  EXPECT_EQ(get("launches"), 9);

  // With the copies but not the plan's kernels (the 1K library at 20000):
  // found missing before the copies launch.
  s.seqlen = 20000;
  st = conv::convolve(*runtime, fused, s, conv::ElementType::bf16, {},
                      goodArgs(s, {}));
  EXPECT_FALSE(st.ok);
  EXPECT_CONTAINS(st.message, "conv_outer_fwd_bf16_M32768");
  // With the library's flags, into the files the library looks for.
  EXPECT_CONTAINS(st.message,
                  "tessera print conv --dtype bf16 --seqlen 20000 --gates "
                  "none | tile-compile - --target sm_90a --num-warps 4 "
                  "--no-hoist-invariants --pair-truncations --fma "
                  "--step-descriptors --merge-barriers -o "
                  "conv_outer_fwd_bf16_M32768_o32_r16_c128_abi4_64_16_rc.ptx "
                  "--info "
                  "conv_outer_fwd_bf16_M32768_o32_r16_c128_abi4_64_16_rc.json");
  // A fused plan's module is named after its one kernel.
  EXPECT_EQ(conv::buildCommand(1000, conv::ElementType::f16, {true, true}),
            "tessera print conv --dtype f16 --seqlen 1000 --gates pre,post | "
            "tile-compile - --target sm_90a --num-warps 4 "
            "--late-loads-in-iteration --stmatrix --pair-truncations --fma "
            "--step-descriptors --merge-barriers -o "
            "conv_fused_f16_M1024_64_16_rc_pre_post.ptx --info "
            "conv_fused_f16_M1024_64_16_rc_pre_post.json");
  EXPECT_EQ(get("launches"), 9);
}

} // namespace

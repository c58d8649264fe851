//===- KernelsTest.cpp - example kernels through the interpreter -----------===//
//
// The GEMM and softmax kernels run through the device-faithful interpreter
// against float64 references: fresh random inputs (seed printed), sizes that
// are not tile multiples, outputs poisoned and checked all overwritten.
//
//===----------------------------------------------------------------------===//

#include "kernels-src/common/Check.h"
#include "kernels-src/gemm/Gemm.h"
#include "kernels-src/softmax/Softmax.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessera;
using interp::Buffer;
using interp::DType;
using interp::ViewArg;

namespace {

struct GemmCase {
  dsl::DType in, out;
  int64_t m, n, k;
  double bound;
};

void PrintTo(const GemmCase &c, std::ostream *os) {
  *os << dsl::name(c.in) << "->" << dsl::name(c.out) << " " << c.m << "x"
      << c.n << "x" << c.k;
}

class GemmInterpreter : public ::testing::TestWithParam<GemmCase> {};

TEST_P(GemmInterpreter, MatchesFloat64Reference) {
  const GemmCase &tc = GetParam();
  uint64_t seed = check::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);

  gemm::Config cfg{tc.in, tc.out, 32, 32, 16};
  dsl::KernelModule module;
  gemm::build(module, cfg);

  Buffer a(check::toInterp(tc.in), {tc.m, tc.k}), b(check::toInterp(tc.in), {tc.k, tc.n}),
      c(check::toInterp(tc.out), {tc.m, tc.n});
  std::vector<double> av = check::fillUniform(a, rng);
  std::vector<double> bv = check::fillUniform(b, rng);
  c.poison();
  interp::LaunchConfig launch;
  launch.grid = gemm::grid(cfg, tc.m, tc.n);
  interp::Status st = interp::run(module.module(), cfg.kernelName(),
                                  {ViewArg{&a}, ViewArg{&b}, ViewArg{&c}},
                                  launch);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(check::countPoisoned(c), 0);
  double err = check::relativeL2(check::values(c),
                                 gemm::reference(av, bv, tc.m, tc.n, tc.k));
  EXPECT_LT(err, tc.bound);
  RecordProperty("rel_l2", std::to_string(err));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, GemmInterpreter,
    ::testing::Values(
        // Output rounding dominates: 2^-9 for bf16, 2^-12 for f16.
        GemmCase{dsl::bf16, dsl::f32, 70, 45, 50, 1e-5},
        GemmCase{dsl::bf16, dsl::bf16, 33, 97, 40, 1e-2},
        GemmCase{dsl::f16, dsl::f16, 64, 64, 64, 2e-3},
        GemmCase{dsl::f16, dsl::f32, 1, 100, 17, 1e-5},
        // f32 inputs multiply as tf32 (10-bit mantissa).
        GemmCase{dsl::f32, dsl::f32, 47, 31, 75, 2e-3}),
    [](const ::testing::TestParamInfo<GemmCase> &info) {
      const GemmCase &c = info.param;
      return std::string(dsl::name(c.in)) + "_" + dsl::name(c.out) + "_" +
             std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
             std::to_string(c.k);
    });

TEST(GemmInterpreter, Tf32RoundingIsVisible) {
  // f32 inputs through the default tf32 path differ from exact f32 products
  // by about 2^-11 relative; the bound above would hide a missing rounding.
  uint64_t seed = check::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  gemm::Config cfg{dsl::f32, dsl::f32, 32, 32, 16};
  dsl::KernelModule module;
  gemm::build(module, cfg);
  int64_t m = 32, n = 32, k = 64;
  Buffer a(DType::f32, {m, k}), b(DType::f32, {k, n}), c(DType::f32, {m, n});
  auto av = check::fillUniform(a, rng), bv = check::fillUniform(b, rng);
  c.poison();
  interp::LaunchConfig launch;
  launch.grid = gemm::grid(cfg, m, n);
  ASSERT_TRUE(interp::run(module.module(), cfg.kernelName(),
                          {ViewArg{&a}, ViewArg{&b}, ViewArg{&c}}, launch)
                  .ok);
  double err = check::relativeL2(check::values(c),
                                 gemm::reference(av, bv, m, n, k));
  EXPECT_GT(err, 1e-5);
  EXPECT_LT(err, 2e-3);
}

struct SoftmaxCase {
  dsl::DType dtype;
  int64_t rows, cols;
  double bound;
};

void PrintTo(const SoftmaxCase &c, std::ostream *os) {
  *os << dsl::name(c.dtype) << " " << c.rows << "x" << c.cols;
}

class SoftmaxInterpreter : public ::testing::TestWithParam<SoftmaxCase> {};

TEST_P(SoftmaxInterpreter, MatchesFloat64Reference) {
  const SoftmaxCase &tc = GetParam();
  uint64_t seed = check::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);

  softmax::Config cfg{tc.dtype, 4, softmax::blockColsFor(tc.cols)};
  dsl::KernelModule module;
  softmax::build(module, cfg);
  Buffer x(check::toInterp(tc.dtype), {tc.rows, tc.cols}),
      y(check::toInterp(tc.dtype), {tc.rows, tc.cols});
  std::vector<double> xv = check::fillUniform(x, rng, -4.0, 4.0);
  y.poison();
  interp::LaunchConfig launch;
  launch.grid = softmax::grid(cfg, tc.rows);
  interp::Status st = interp::run(module.module(), cfg.kernelName(),
                                  {ViewArg{&x}, ViewArg{&y}}, launch);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(check::countPoisoned(y), 0);
  double err = check::relativeL2(check::values(y),
                                 softmax::reference(xv, tc.rows, tc.cols));
  EXPECT_LT(err, tc.bound);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SoftmaxInterpreter,
    ::testing::Values(SoftmaxCase{dsl::f32, 13, 100, 1e-6},
                      SoftmaxCase{dsl::f32, 4, 128, 1e-6},
                      SoftmaxCase{dsl::bf16, 9, 33, 1e-2},
                      SoftmaxCase{dsl::f16, 7, 250, 2e-3}),
    [](const ::testing::TestParamInfo<SoftmaxCase> &info) {
      const SoftmaxCase &c = info.param;
      return std::string(dsl::name(c.dtype)) + "_" + std::to_string(c.rows) +
             "x" + std::to_string(c.cols);
    });

TEST(SoftmaxInterpreter, LargeInputsDoNotOverflow) {
  softmax::Config cfg{dsl::f32, 4, 64};
  dsl::KernelModule module;
  softmax::build(module, cfg);
  Buffer x(DType::f32, {4, 50}), y(DType::f32, {4, 50});
  for (int64_t i = 0; i < x.numElements(); ++i)
    x.set(i, 1000.0 + (i % 50));
  y.poison();
  interp::LaunchConfig launch;
  launch.grid = softmax::grid(cfg, 4);
  ASSERT_TRUE(interp::run(module.module(), cfg.kernelName(),
                          {ViewArg{&x}, ViewArg{&y}}, launch)
                  .ok);
  double err = check::relativeL2(check::values(y),
                                 softmax::reference(check::values(x), 4, 50));
  EXPECT_LT(err, 1e-6);
}

} // namespace

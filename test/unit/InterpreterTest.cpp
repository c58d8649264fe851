//===- InterpreterTest.cpp - the reference interpreter of tile IR --------===//

#include "interpreter/Interpreter.h"

#include "dialect/TileDialect.h"
#include "dialect/TileOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

using namespace tessera::interp;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() {
    mlir::DialectRegistry registry;
    tessera::tile::registerTileKernelDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// Parses `source` (failing the test on a parse error).
  mlir::ModuleOp parse(const std::string &source) {
    module = mlir::parseSourceString<mlir::ModuleOp>(
        source, mlir::ParserConfig(&ctx), "kernel.mlir");
    EXPECT_TRUE(module) << "failed to parse:\n" << source;
    return module ? module.get() : mlir::ModuleOp();
  }

  Status run(const std::string &source, const std::string &kernel,
             std::vector<KernelArg> args, Mode mode = Mode::DeviceFaithful,
             std::array<int64_t, 3> grid = {1, 1, 1}) {
    mlir::ModuleOp m = parse(source);
    if (!m)
      return Status::error("parse error");
    LaunchConfig config;
    config.grid = grid;
    config.mode = mode;
    return tessera::interp::run(m, kernel, args, config);
  }

  static ViewArg view(Buffer &b) { return ViewArg{&b, {}, {}, 0}; }

  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

Buffer filled(DType dt, std::vector<int64_t> shape,
              const std::vector<double> &values) {
  Buffer b(dt, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i)
    b.set(static_cast<int64_t>(i), values[i]);
  return b;
}

/// Deterministic pseudo-random values in [-1, 1).
struct Lcg {
  uint64_t state;
  double next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) * 0x1p-52 - 1.0;
  }
};

bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

//===----------------------------------------------------------------------===//
// Per-op rounding
//===----------------------------------------------------------------------===//

const char *kBF16AddSub = R"mlir(
tile.kernel @addsub(%x: !tile.view<?xbf16>, %y: !tile.view<?xbf16>,
                    %o: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0] : !tile.view<?xbf16> -> tensor<4xbf16>
  %b = tile.load %y[%c0] : !tile.view<?xbf16> -> tensor<4xbf16>
  %s = arith.addf %a, %b : tensor<4xbf16>
  %d = arith.subf %s, %a : tensor<4xbf16>
  %e = arith.extf %d : tensor<4xbf16> to tensor<4xf32>
  tile.store %e, %o[%c0] : tensor<4xf32> -> !tile.view<?xf32>
  tile.return
}
)mlir";

TEST_F(InterpreterTest, BF16ResultsRoundedPerOp) {
  Buffer x = filled(DType::bf16, {4}, {1, 1, 1, 1});
  Buffer y = filled(DType::bf16, {4}, {0x1p-9, 0x1p-8, 3 * 0x1p-8, 3 * 0x1p-9});
  Buffer o(DType::f32, {4});
  Status st = run(kBF16AddSub, "addsub", {view(x), view(y), view(o)});
  ASSERT_TRUE(st) << st.message;
  // (1 + y) is rounded to bf16 before the subtraction.
  EXPECT_EQ(o.get(0), 0.0);    // 1 + 2^-9 -> 1
  EXPECT_EQ(o.get(1), 0.0);    // 1 + 2^-8 -> 1 (tie to even)
  EXPECT_EQ(o.get(2), 0x1p-6); // 1 + 3*2^-8 -> 1 + 2^-6 (tie to even)
  EXPECT_EQ(o.get(3), 0x1p-7); // 1 + 3*2^-9 -> 1 + 2^-7

  Status st64 =
      run(kBF16AddSub, "addsub", {view(x), view(y), view(o)}, Mode::Float64);
  ASSERT_TRUE(st64) << st64.message;
  EXPECT_EQ(o.get(0), 0x1p-9);
  EXPECT_EQ(o.get(1), 0x1p-8);
  EXPECT_EQ(o.get(2), 3 * 0x1p-8);
  EXPECT_EQ(o.get(3), 3 * 0x1p-9);
}

TEST_F(InterpreterTest, F16ResultsRoundedPerOp) {
  const char *src = R"mlir(
tile.kernel @sq(%x: !tile.view<?xf16>, %o: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0] : !tile.view<?xf16> -> tensor<4xf16>
  %s = arith.mulf %a, %a : tensor<4xf16>
  %d = arith.divf %s, %a : tensor<4xf16>
  %e = arith.extf %d : tensor<4xf16> to tensor<4xf32>
  tile.store %e, %o[%c0] : tensor<4xf32> -> !tile.view<?xf32>
}
)mlir";
  const std::vector<double> in = {300, 3, 0.1, 1e-4};
  Buffer x = filled(DType::f16, {4}, in);
  Buffer o(DType::f32, {4});
  Status st = run(src, "sq", {view(x), view(o)});
  ASSERT_TRUE(st) << st.message;
  for (int i = 0; i < 4; ++i) {
    double xh = roundToF16(in[i]);
    double expect = roundToF16(roundToF16(xh * xh) / xh);
    EXPECT_TRUE(same(o.get(i), expect)) << i << ": " << o.get(i);
  }
  EXPECT_EQ(o.get(0), kInf); // 90000 overflows f16
  EXPECT_EQ(o.get(3), 0.0);  // 1e-8 underflows to zero
  st = run(src, "sq", {view(x), view(o)}, Mode::Float64);
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(o.get(0), 300.0);
  EXPECT_EQ(o.get(3), roundToF32(roundToF16(1e-4)));
}

TEST_F(InterpreterTest, ScalarOpsRoundToTheirType) {
  const char *src = R"mlir(
tile.kernel @scalar(%o: !tile.view<?xf32>, %alpha: f32) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : bf16
  %tiny = arith.constant 0.001953125 : bf16
  %s = arith.addf %one, %tiny : bf16
  %t = arith.truncf %alpha : f32 to bf16
  %u = arith.addf %s, %t : bf16
  %w = arith.extf %u : bf16 to f32
  %v = tile.splat %w : f32 -> tensor<2xf32>
  tile.store %v, %o[%c0] : tensor<2xf32> -> !tile.view<?xf32>
}
)mlir";
  Buffer o(DType::f32, {2});
  Status st = run(src, "scalar", {view(o), 0.25});
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(o.get(0), 1.25); // 1 + 2^-9 rounds to 1 in bf16
  EXPECT_EQ(o.get(1), 1.25);
  st = run(src, "scalar", {view(o), 0.25}, Mode::Float64);
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(o.get(0), 1.25 + 0x1p-9);
}

TEST_F(InterpreterTest, MathInF32ThenRounded) {
  const char *src = R"mlir(
tile.kernel @m(%x: !tile.view<?xbf16>, %y: !tile.view<?xf32>,
               %o: !tile.view<?xbf16>, %p: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0] : !tile.view<?xbf16> -> tensor<4xbf16>
  %e = math.exp %a : tensor<4xbf16>
  tile.store %e, %o[%c0] : tensor<4xbf16> -> !tile.view<?xbf16>
  %b = tile.load %y[%c0] : !tile.view<?xf32> -> tensor<4xf32>
  %f = math.exp2 %b : tensor<4xf32>
  %g = math.tanh %f : tensor<4xf32>
  %h = math.rsqrt %g : tensor<4xf32>
  tile.store %h, %p[%c0] : tensor<4xf32> -> !tile.view<?xf32>
}
)mlir";
  const std::vector<double> in = {0.1, -1.3, 2.7, 0.0078125};
  Buffer x = filled(DType::bf16, {4}, in), y = filled(DType::f32, {4}, in);
  Buffer o(DType::bf16, {4}), p(DType::f32, {4});
  Status st = run(src, "m", {view(x), view(y), view(o), view(p)});
  ASSERT_TRUE(st) << st.message;
  for (int i = 0; i < 4; ++i) {
    float xb = static_cast<float>(roundToBF16(in[i]));
    EXPECT_EQ(o.get(i), roundToBF16(std::exp(xb)));
    float xf = static_cast<float>(in[i]);
    float expect = 1.0f / std::sqrt(std::tanh(std::exp2(xf)));
    EXPECT_EQ(p.get(i), static_cast<double>(expect));
  }
}

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

const char *kCopy2D = R"mlir(
tile.kernel @copy(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %i = tile.program_id y : index
  %j = tile.program_id x : index
  %t = tile.load %x[%i, %j] padding(-1.5) : !tile.view<?x?xf32> -> tensor<4x4xf32>
  tile.store %t, %y[%i, %j] : tensor<4x4xf32> -> !tile.view<?x?xf32>
}
)mlir";

TEST_F(InterpreterTest, LoadMasksWithPadding) {
  Buffer x(DType::f32, {5, 7});
  for (int64_t k = 0; k < 35; ++k)
    x.set(k, static_cast<double>(k));
  Buffer y(DType::f32, {8, 8});
  y.poison();
  Status st =
      run(kCopy2D, "copy", {view(x), view(y)}, Mode::DeviceFaithful, {2, 2, 1});
  ASSERT_TRUE(st) << st.message;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      ASSERT_FALSE(y.isPoison(r * 8 + c));
      double expect = (r < 5 && c < 7) ? r * 7 + c : -1.5;
      EXPECT_EQ(y.get(r * 8 + c), expect) << r << "," << c;
    }
}

TEST_F(InterpreterTest, StoreMasksToViewSizes) {
  Buffer x(DType::f32, {5, 7});
  for (int64_t k = 0; k < 35; ++k)
    x.set(k, static_cast<double>(k));
  // The output view is 5x7 inside an 8x8 buffer: nothing else is written.
  Buffer y(DType::f32, {8, 8});
  y.poison();
  ViewArg out{&y, {5, 7}, {8, 1}, 0};
  Status st =
      run(kCopy2D, "copy", {view(x), out}, Mode::DeviceFaithful, {2, 2, 1});
  ASSERT_TRUE(st) << st.message;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      if (r < 5 && c < 7)
        EXPECT_EQ(y.get(r * 8 + c), r * 7 + c);
      else
        EXPECT_TRUE(y.isPoison(r * 8 + c)) << r << "," << c;
    }
}

TEST_F(InterpreterTest, SyncThreadsOrdersAStoreAndItsReload) {
  // What tile-order-global-memory puts between a store and the load that
  // reads it back: the program's ops run in order here, so the load sees
  // the store (the reload doubles what was stored, then writes y).
  const char *src = R"(
tile.kernel @reload(%x: !tile.view<?xf32>, %w: !tile.view<?xf32>, %y: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<8xf32>
  tile.store %t, %w[%c0] : tensor<8xf32> -> !tile.view<?xf32>
  tile.sync_threads
  %u = tile.load %w[%c0] : !tile.view<?xf32> -> tensor<8xf32>
  %v = arith.addf %u, %u : tensor<8xf32>
  tile.store %v, %y[%c0] : tensor<8xf32> -> !tile.view<?xf32>
  tile.return
}
)";
  Buffer x = filled(DType::f32, {8}, {1, 2, 3, 4, 5, 6, 7, 8});
  Buffer w(DType::f32, {8}), y(DType::f32, {8});
  w.poison();
  y.poison();
  Status st = run(src, "reload", {view(x), view(w), view(y)});
  ASSERT_TRUE(st) << st.message;
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(y.get(i), 2.0 * double(i + 1));
}

TEST_F(InterpreterTest, NegativeAndFarTileIndicesReadPadding) {
  const char *src = R"mlir(
tile.kernel @far(%x: !tile.view<?xi32>, %o: !tile.view<?xi32>) {
  %m1 = arith.constant -1 : index
  %big = arith.constant 4611686018427387904 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.load %x[%m1] padding(7.0) : !tile.view<?xi32> -> tensor<4xi32>
  %b = tile.load %x[%big] padding(-2.0) : !tile.view<?xi32> -> tensor<4xi32>
  tile.store %a, %o[%c0] : tensor<4xi32> -> !tile.view<?xi32>
  tile.store %b, %o[%c1] : tensor<4xi32> -> !tile.view<?xi32>
  tile.store %a, %o[%big] : tensor<4xi32> -> !tile.view<?xi32>
  tile.store %a, %o[%m1] : tensor<4xi32> -> !tile.view<?xi32>
}
)mlir";
  Buffer x(DType::i32, {4}), o(DType::i32, {8});
  Status st = run(src, "far", {view(x), view(o)});
  ASSERT_TRUE(st) << st.message;
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(o.getInt(i), 7);
    EXPECT_EQ(o.getInt(4 + i), -2);
  }
}

TEST_F(InterpreterTest, StridedTransposedView) {
  const char *src = R"mlir(
tile.kernel @t(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<8x4xf32>
  tile.store %t, %y[%c0, %c0] : tensor<8x4xf32> -> !tile.view<?x?xf32>
}
)mlir";
  Buffer b(DType::f32, {3, 5});
  for (int64_t k = 0; k < 15; ++k)
    b.set(k, static_cast<double>(k) + 0.5);
  Buffer y(DType::f32, {5, 3});
  y.poison();
  ViewArg transposed{&b, {5, 3}, {1, 5}, 0};
  Status st = run(src, "t", {transposed, view(y)});
  ASSERT_TRUE(st) << st.message;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(y.get(i * 3 + j), b.get(j * 5 + i)) << i << "," << j;

  // A view with an element offset: rows 1..2 of b, written transposed.
  Buffer z(DType::f32, {5, 2});
  z.poison();
  ViewArg rows{&b, {2, 5}, {5, 1}, 5};
  const char *src2 = R"mlir(
tile.kernel @t2(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<2x8xf32>
  %p = tile.permute %t [1, 0] : tensor<2x8xf32> -> tensor<8x2xf32>
  tile.store %p, %y[%c0, %c0] : tensor<8x2xf32> -> !tile.view<?x?xf32>
}
)mlir";
  st = run(src2, "t2", {rows, view(z)});
  ASSERT_TRUE(st) << st.message;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 2; ++j)
      EXPECT_EQ(z.get(i * 2 + j), b.get((1 + j) * 5 + i));
}

TEST_F(InterpreterTest, ViewDefaults) {
  Buffer b(DType::f32, {8, 8});
  for (int64_t k = 0; k < 64; ++k)
    b.set(k, static_cast<double>(k));
  // Sizes without strides: a 5x7 corner of the 8x8 buffer (its strides).
  Buffer y(DType::f32, {8, 8});
  y.poison();
  Status st = run(kCopy2D, "copy", {ViewArg{&b, {5, 7}, {}, 0}, view(y)},
                  Mode::DeviceFaithful, {2, 2, 1});
  ASSERT_TRUE(st) << st.message;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c)
      EXPECT_EQ(y.get(r * 8 + c), (r < 5 && c < 7) ? r * 8 + c : -1.5);
  // Sizes of another rank than the buffer: row-major strides of the sizes.
  Buffer flat(DType::f32, {12});
  for (int64_t k = 0; k < 12; ++k)
    flat.set(k, static_cast<double>(k));
  y.poison();
  st = run(kCopy2D, "copy", {ViewArg{&flat, {3, 4}, {}, 0}, view(y)},
           Mode::DeviceFaithful, {2, 2, 1});
  ASSERT_TRUE(st) << st.message;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c)
      EXPECT_EQ(y.get(r * 8 + c), (r < 3 && c < 4) ? r * 4 + c : -1.5);
}

TEST_F(InterpreterTest, BoolViewsAndTF32Tiles) {
  const char *src = R"mlir(
tile.kernel @k(%m: !tile.view<?xi1>, %x: !tile.view<?xf32>,
               %o: !tile.view<?xf32>, %n: !tile.view<?xi1>) {
  %c0 = arith.constant 0 : index
  %mask = tile.load %m[%c0] : !tile.view<?xi1> -> tensor<4xi1>
  %a = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<4xf32>
  %t = arith.truncf %a : tensor<4xf32> to tensor<4xtf32>
  %e = arith.extf %t : tensor<4xtf32> to tensor<4xf32>
  %z = arith.constant dense<-1.0> : tensor<4xf32>
  %s = arith.select %mask, %e, %z : tensor<4xi1>, tensor<4xf32>
  tile.store %s, %o[%c0] : tensor<4xf32> -> !tile.view<?xf32>
  %true = arith.constant dense<true> : tensor<4xi1>
  %not = arith.xori %mask, %true : tensor<4xi1>
  tile.store %not, %n[%c0] : tensor<4xi1> -> !tile.view<?xi1>
}
)mlir";
  Buffer m = filled(DType::i1, {4}, {1, 0, 1, 1});
  Buffer x = filled(DType::f32, {4},
                    {1 + 0x1p-11, 5, 1 + 3 * 0x1p-11, 1 + 0x1p-11 + 0x1p-20});
  Buffer o(DType::f32, {4}), n(DType::i1, {4});
  Status st = run(src, "k", {view(m), view(x), view(o), view(n)});
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(o.get(0), 1.0); // truncf to tf32 is RNE (ties to even)
  EXPECT_EQ(o.get(1), -1.0);
  EXPECT_EQ(o.get(2), 1 + 0x1p-9);
  EXPECT_EQ(o.get(3), 1 + 0x1p-10);
  const int64_t expectNot[] = {0, 1, 0, 0};
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(n.getInt(i), expectNot[i]) << i;
}

TEST_F(InterpreterTest, OutOfBoundsAddressIsAnError) {
  const char *src = R"mlir(
tile.kernel @oob(%x: !tile.view<?xf32>, %o: !tile.view<?xf32>) {
  %pid = tile.program_id x : index
  %t = tile.load %x[%pid] : !tile.view<?xf32> -> tensor<4xf32>
  tile.store %t, %o[%pid] : tensor<4xf32> -> !tile.view<?xf32>
}
)mlir";
  // The view claims 8 elements, the buffer holds 6: program 1 reads past it.
  Buffer x(DType::f32, {6}), o(DType::f32, {8});
  Status st = run(src, "oob", {ViewArg{&x, {8}, {1}, 0}, view(o)},
                  Mode::DeviceFaithful, {2, 1, 1});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("tile.load"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("loc(\"kernel.mlir\":4:"), std::string::npos)
      << st.message;
  EXPECT_NE(st.message.find("element [6]"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("address 6"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("buffer of 6 elements"), std::string::npos)
      << st.message;
  EXPECT_NE(st.message.find("program (1, 0, 0)"), std::string::npos)
      << st.message;

  // Stores are checked the same way, and so are negative offsets.
  Buffer x8(DType::f32, {8});
  st = run(src, "oob", {view(x8), ViewArg{&o, {8}, {1}, -1}});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("tile.store"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("address -1"), std::string::npos) << st.message;
  // Huge strides do not overflow silently.
  st = run(src, "oob", {ViewArg{&x8, {8}, {int64_t(1) << 62}, 0}, view(o)});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("outside the buffer"), std::string::npos)
      << st.message;
}

//===----------------------------------------------------------------------===//
// Reduce and scan
//===----------------------------------------------------------------------===//

std::string shapeStr(const std::vector<int64_t> &shape, const char *elem) {
  std::string s;
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + elem;
}

std::string viewStr(size_t rank, const char *elem) {
  std::string s = "!tile.view<";
  for (size_t i = 0; i < rank; ++i)
    s += "?x";
  return s + elem + ">";
}

/// A kernel that loads a whole tile, reduces or scans it and stores it.
std::string reduceKernel(const std::vector<int64_t> &shape, const char *elem,
                         const std::string &kind, int64_t axis, bool scan,
                         bool reverse) {
  std::vector<int64_t> rshape = shape;
  if (!scan)
    rshape[axis] = 1;
  const std::string in = "tensor<" + shapeStr(shape, elem) + ">";
  const std::string out = "tensor<" + shapeStr(rshape, elem) + ">";
  const std::string v = viewStr(shape.size(), elem);
  std::string idx;
  for (size_t i = 0; i < shape.size(); ++i)
    idx += i ? ", %c0" : "%c0";
  std::string s = "tile.kernel @k(%x: " + v + ", %o: " + v + ") {\n";
  s += "  %c0 = arith.constant 0 : index\n";
  s += "  %t = tile.load %x[" + idx + "] : " + v + " -> " + in + "\n";
  if (scan)
    s += "  %r = tile.scan " + kind + " %t axis " + std::to_string(axis) +
         (reverse ? " reverse" : "") + " : " + in + "\n";
  else
    s += "  %r = tile.reduce " + kind + " %t axis " + std::to_string(axis) +
         " : " + in + " -> " + out + "\n";
  s += "  tile.store %r, %o[" + idx + "] : " + out + " -> " + v + "\n}\n";
  return s;
}

TEST_F(InterpreterTest, ReduceAndScanEveryAxisAndKind) {
  const std::vector<std::vector<int64_t>> shapes = {{4, 8}, {2, 4, 8}};
  const std::vector<std::string> kinds = {"sum", "prod", "max", "min"};
  for (const char *elem : {"f32", "i32"}) {
    const DType dt = std::string(elem) == "f32" ? DType::f32 : DType::i32;
    for (const auto &shape : shapes) {
      const int64_t rank = static_cast<int64_t>(shape.size());
      int64_t numel = 1;
      for (int64_t d : shape)
        numel *= d;
      std::vector<int64_t> strides(rank, 1);
      for (int64_t d = rank - 2; d >= 0; --d)
        strides[d] = strides[d + 1] * shape[d + 1];
      Buffer x(dt, shape);
      std::vector<double> xv(numel);
      for (int64_t k = 0; k < numel; ++k) {
        static const double vals[] = {-2, -1, 1, 2, 3};
        xv[k] = vals[(k * 7 + 3) % 5];
        x.set(k, xv[k]);
      }
      for (const std::string &kind : kinds)
        for (int64_t axis = 0; axis < rank; ++axis)
          for (int mode = 0; mode < 3; ++mode) { // reduce, scan, reverse scan
            const bool scan = mode > 0, reverse = mode == 2;
            std::vector<int64_t> oshape = shape;
            if (!scan)
              oshape[axis] = 1;
            Buffer o(dt, oshape);
            o.poison();
            std::string src =
                reduceKernel(shape, elem, kind, axis, scan, reverse);
            Status st = run(src, "k", {view(x), view(o)});
            ASSERT_TRUE(st) << st.message << "\n" << src;
            auto combine = [&](double a, double b) {
              if (kind == "sum")
                return a + b;
              if (kind == "prod")
                return a * b;
              if (kind == "max")
                return std::max(a, b);
              return std::min(a, b);
            };
            // Reference: walk every element, combining along `axis`.
            std::vector<double> expect(o.numElements());
            std::vector<int64_t> ostrides(rank, 1);
            for (int64_t d = rank - 2; d >= 0; --d)
              ostrides[d] = ostrides[d + 1] * oshape[d + 1];
            const int64_t n = shape[axis];
            for (int64_t k = 0; k < numel; ++k) {
              // Coordinates of k.
              std::vector<int64_t> c(rank);
              for (int64_t d = 0, rem = k; d < rank; ++d) {
                c[d] = rem / strides[d];
                rem %= strides[d];
              }
              if (c[axis] != 0)
                continue; // one line per (coords with axis = 0)
              double acc = 0;
              for (int64_t step = 0; step < n; ++step) {
                int64_t pos = reverse ? n - 1 - step : step;
                double v = xv[k + pos * strides[axis]];
                acc = step == 0 ? v : combine(acc, v);
                if (scan) {
                  int64_t lin = 0;
                  for (int64_t d = 0; d < rank; ++d)
                    lin += (d == axis ? pos : c[d]) * ostrides[d];
                  expect[lin] = acc;
                }
              }
              if (!scan) {
                int64_t lin = 0;
                for (int64_t d = 0; d < rank; ++d)
                  lin += (d == axis ? 0 : c[d]) * ostrides[d];
                expect[lin] = acc;
              }
            }
            for (int64_t k = 0; k < o.numElements(); ++k)
              ASSERT_EQ(o.get(k), expect[k])
                  << elem << " " << kind << " axis " << axis << " mode " << mode
                  << " rank " << rank << " element " << k;
          }
    }
  }
}

TEST_F(InterpreterTest, ReduceRoundsAfterEveryStep) {
  const char *src = R"mlir(
tile.kernel @r(%x: !tile.view<?xbf16>, %o: !tile.view<?xbf16>,
               %s: !tile.view<?xbf16>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xbf16> -> tensor<4xbf16>
  %r = tile.reduce sum %t axis 0 : tensor<4xbf16> -> tensor<1xbf16>
  tile.store %r, %o[%c0] : tensor<1xbf16> -> !tile.view<?xbf16>
  %c = tile.scan sum %t axis 0 : tensor<4xbf16>
  tile.store %c, %s[%c0] : tensor<4xbf16> -> !tile.view<?xbf16>
}
)mlir";
  Buffer x = filled(DType::bf16, {4}, {1, 0x1p-8, 0x1p-8, 0x1p-8});
  Buffer o(DType::bf16, {1}), s(DType::bf16, {4});
  Status st = run(src, "r", {view(x), view(o), view(s)});
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(o.get(0), 1.0); // every 1 + 2^-8 ties back to 1
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(s.get(i), 1.0);
  // Float64 mode: exact sums, rounded only by the f64 output buffer.
  Buffer o64(DType::f64, {1}), s64(DType::f64, {4});
  st = run(src, "r", {view(x), view(o64), view(s64)}, Mode::Float64);
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(o64.get(0), 1 + 3 * 0x1p-8);
  EXPECT_EQ(s64.get(2), 1 + 2 * 0x1p-8);
}

TEST_F(InterpreterTest, FloatMaxMinPropagateNaN) {
  const char *src = R"mlir(
tile.kernel @r(%x: !tile.view<?xf32>, %o: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<4xf32>
  %mx = tile.reduce max %t axis 0 : tensor<4xf32> -> tensor<1xf32>
  %mn = tile.reduce min %t axis 0 : tensor<4xf32> -> tensor<1xf32>
  tile.store %mx, %o[%c0] : tensor<1xf32> -> !tile.view<?xf32>
  tile.store %mn, %o[%c1] : tensor<1xf32> -> !tile.view<?xf32>
}
)mlir";
  Buffer x = filled(DType::f32, {4}, {1, kNaN, 3, 2});
  Buffer o(DType::f32, {2});
  Status st = run(src, "r", {view(x), view(o)});
  ASSERT_TRUE(st) << st.message;
  EXPECT_TRUE(std::isnan(o.get(0)));
  EXPECT_TRUE(std::isnan(o.get(1)));
}

//===----------------------------------------------------------------------===//
// mma
//===----------------------------------------------------------------------===//

const char *kMmaBF16 = R"mlir(
tile.kernel @mma(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>,
                 %c: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x32xbf16>
  %tb = tile.load %b[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x16xbf16>
  %tc = tile.load %c[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x16xf32>
  %d = tile.mma %ta, %tb, %tc : tensor<16x32xbf16>, tensor<32x16xbf16>, tensor<16x16xf32>
  tile.store %d, %c[%c0, %c0] : tensor<16x16xf32> -> !tile.view<?x?xf32>
}
)mlir";

TEST_F(InterpreterTest, MmaBF16FaithfulVersusFloat64) {
  const int M = 16, N = 16, K = 32;
  Lcg rng{42};
  Buffer a(DType::bf16, {M, K}), b(DType::bf16, {K, N});
  std::vector<double> c0(M * N);
  for (int64_t k = 0; k < a.numElements(); ++k)
    a.set(k, rng.next());
  for (int64_t k = 0; k < b.numElements(); ++k)
    b.set(k, rng.next());
  for (double &v : c0)
    v = roundToF32(rng.next() * 100);
  Buffer c = filled(DType::f32, {M, N}, c0);
  Buffer c64 = filled(DType::f64, {M, N}, c0);
  Status st = run(kMmaBF16, "mma", {view(a), view(b), view(c)});
  ASSERT_TRUE(st) << st.message;
  st = run(kMmaBF16, "mma", {view(a), view(b), view(c64)}, Mode::Float64);
  ASSERT_TRUE(st) << st.message;
  int differ = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = static_cast<float>(c0[i * N + j]);
      double exact = c0[i * N + j];
      for (int k = 0; k < K; ++k) {
        double p = a.get(i * K + k) * b.get(k * N + j);
        acc = static_cast<float>(static_cast<double>(acc) + p);
        exact += p;
      }
      EXPECT_EQ(c.get(i * N + j), static_cast<double>(acc)) << i << "," << j;
      EXPECT_EQ(c64.get(i * N + j), exact) << i << "," << j;
      differ += c.get(i * N + j) != c64.get(i * N + j);
    }
  EXPECT_GT(differ, 0) << "f32 accumulation should differ from float64";
}

TEST_F(InterpreterTest, MmaF32InputsRoundToTF32) {
  auto kernel = [](const std::string &name, const std::string &precision) {
    return "tile.kernel @" + name +
           R"mlir((%a: !tile.view<?x?xf32>, %b: !tile.view<?x?xf32>,
                 %c: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x8xf32>
  %tb = tile.load %b[%c0, %c0] : !tile.view<?x?xf32> -> tensor<8x8xf32>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.mma %ta, %tb, %z )mlir" +
           precision +
           R"mlir( : tensor<16x8xf32>, tensor<8x8xf32>, tensor<16x8xf32>
  tile.store %d, %c[%c0, %c0] : tensor<16x8xf32> -> !tile.view<?x?xf32>
}
)mlir";
  };
  const std::string src = kernel("tf", "") + kernel("tf32", "precision(tf32)") +
                          kernel("x3", "precision(tf32x3)") +
                          kernel("ieee", "precision(ieee)");
  // A holds 1 + 2^-11: a tie in tf32. cvt.rna rounds it away from zero.
  const double v = 1 + 0x1p-11;
  Buffer a(DType::f32, {16, 8}), b(DType::f32, {8, 8});
  for (int64_t k = 0; k < a.numElements(); ++k)
    a.set(k, k % 2 ? v : -v);
  for (int i = 0; i < 8; ++i)
    b.set(i * 8 + i, 1.0);
  auto check = [&](const std::string &name, Mode mode, double expect) {
    Buffer c(DType::f32, {16, 8});
    c.poison();
    Status st = run(src, name, {view(a), view(b), view(c)}, mode);
    ASSERT_TRUE(st) << st.message;
    for (int64_t k = 0; k < c.numElements(); ++k)
      ASSERT_EQ(c.get(k), k % 2 ? expect : -expect) << name << " " << k;
  };
  check("tf", Mode::DeviceFaithful, 1 + 0x1p-10);
  check("tf32", Mode::DeviceFaithful, 1 + 0x1p-10);
  check("x3", Mode::DeviceFaithful, v);
  check("ieee", Mode::DeviceFaithful, v);
  check("tf", Mode::Float64, v);
}

//===----------------------------------------------------------------------===//
// A tiled GEMM with masking, against a sequential f32-accumulation reference
//===----------------------------------------------------------------------===//

const char *kGemm = R"mlir(
tile.kernel @gemm(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>,
                  %c: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %i = tile.program_id y : index
  %j = tile.program_id x : index
  %k = tile.dim %a[1] : !tile.view<?x?xbf16>
  %nk = arith.ceildivsi %k, %c16 : index
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %acc = scf.for %kk = %c0 to %nk step %c1 iter_args(%acc0 = %zero) -> (tensor<32x32xf32>) {
    %ta = tile.load %a[%i, %kk] : !tile.view<?x?xbf16> -> tensor<32x16xbf16>
    %tb = tile.load %b[%kk, %j] : !tile.view<?x?xbf16> -> tensor<16x32xbf16>
    %d = tile.mma %ta, %tb, %acc0 : tensor<32x16xbf16>, tensor<16x32xbf16>, tensor<32x32xf32>
    scf.yield %d : tensor<32x32xf32>
  }
  tile.store %acc, %c[%i, %j] : tensor<32x32xf32> -> !tile.view<?x?xf32>
}
)mlir";

TEST_F(InterpreterTest, TiledGemmWithMasking) {
  const int M = 70, N = 45, K = 37;
  Lcg rng{7};
  Buffer a(DType::bf16, {M, K}), b(DType::bf16, {K, N}), c(DType::f32, {M, N});
  for (int64_t k = 0; k < a.numElements(); ++k)
    a.set(k, rng.next());
  for (int64_t k = 0; k < b.numElements(); ++k)
    b.set(k, rng.next());
  c.poison();
  Status st = run(kGemm, "gemm", {view(a), view(b), view(c)},
                  Mode::DeviceFaithful, {2, 3, 1});
  ASSERT_TRUE(st) << st.message;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc = static_cast<float>(static_cast<double>(acc) +
                                 a.get(i * K + k) * b.get(k * N + j));
      ASSERT_FALSE(c.isPoison(i * N + j));
      ASSERT_EQ(c.get(i * N + j), static_cast<double>(acc)) << i << "," << j;
    }
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, ForLoopCarriesATile) {
  const char *src = R"mlir(
tile.kernel @sum(%x: !tile.view<?xf32>, %o: !tile.view<?xf32>,
                 %lo: i32, %hi: i32, %io: !tile.view<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = tile.dim %x[0] : !tile.view<?xf32>
  %nt = arith.ceildivsi %n, %c4 : index
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %acc = scf.for %k = %c0 to %nt step %c1 iter_args(%a = %zero) -> (tensor<4xf32>) {
    %t = tile.load %x[%k] : !tile.view<?xf32> -> tensor<4xf32>
    %s = arith.addf %a, %t : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  %r = tile.reduce sum %acc axis 0 : tensor<4xf32> -> tensor<1xf32>
  tile.store %r, %o[%c0] : tensor<1xf32> -> !tile.view<?xf32>
  %z32 = arith.constant 0 : i32
  %two = arith.constant 2 : i32
  %isum = scf.for %i = %lo to %hi step %two iter_args(%s = %z32) -> (i32) : i32 {
    %s2 = arith.addi %s, %i : i32
    scf.yield %s2 : i32
  }
  %v = tile.splat %isum : i32 -> tensor<1xi32>
  tile.store %v, %io[%c0] : tensor<1xi32> -> !tile.view<?xi32>
}
)mlir";
  Buffer x(DType::f32, {10});
  double expect = 0;
  for (int k = 0; k < 10; ++k) {
    x.set(k, k + 1.0);
    expect += k + 1.0;
  }
  Buffer o(DType::f32, {1}), io(DType::i32, {1});
  Status st =
      run(src, "sum", {view(x), view(o), int64_t{-3}, int64_t{8}, view(io)});
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(o.get(0), expect);
  EXPECT_EQ(io.getInt(0), -3 + -1 + 1 + 3 + 5 + 7);
  // An empty loop yields its initial values.
  st = run(src, "sum", {view(x), view(o), int64_t{8}, int64_t{8}, view(io)});
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(io.getInt(0), 0);
}

TEST_F(InterpreterTest, IfWithResults) {
  const char *src = R"mlir(
tile.kernel @sel(%o: !tile.view<?xf32>) {
  %pid = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %pid, %c0 : index
  %t = scf.if %first -> (tensor<4xf32>) {
    %a = arith.constant dense<1.0> : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    %b = arith.constant dense<[2.0, 3.0, 4.0, 5.0]> : tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  }
  tile.store %t, %o[%pid] : tensor<4xf32> -> !tile.view<?xf32>
  scf.if %first {
    %nine = arith.constant dense<9.0> : tensor<4xf32>
    %c2 = arith.constant 2 : index
    tile.store %nine, %o[%c2] : tensor<4xf32> -> !tile.view<?xf32>
  }
}
)mlir";
  Buffer o(DType::f32, {12});
  Status st = run(src, "sel", {view(o)}, Mode::DeviceFaithful, {2, 1, 1});
  ASSERT_TRUE(st) << st.message;
  const double expect[] = {1, 1, 1, 1, 2, 3, 4, 5, 9, 9, 9, 9};
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(o.get(i), expect[i]) << i;
}

TEST_F(InterpreterTest, WhileLoopAndExecuteRegion) {
  const char *src = R"mlir(
tile.kernel @w(%o: !tile.view<?xi64>, %n: i64) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %r = scf.while (%i = %one) : (i64) -> i64 {
    %go = arith.cmpi slt, %i, %n : i64
    scf.condition(%go) %i : i64
  } do {
  ^bb0(%j: i64):
    %d = arith.addi %j, %j : i64
    scf.yield %d : i64
  }
  %r2 = scf.execute_region -> i64 {
    %d = arith.addi %r, %one : i64
    scf.yield %d : i64
  }
  %v = tile.splat %r2 : i64 -> tensor<1xi64>
  tile.store %v, %o[%c0] : tensor<1xi64> -> !tile.view<?xi64>
}
)mlir";
  Buffer o(DType::i64, {1});
  Status st = run(src, "w", {view(o), int64_t{100}});
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(o.getInt(0), 129);
}

TEST_F(InterpreterTest, GridProgramIds) {
  const char *src = R"mlir(
tile.kernel @ids(%o: !tile.view<?xi32>) {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %z = tile.program_id z : index
  %nx = tile.num_programs x : index
  %ny = tile.num_programs y : index
  %nz = tile.num_programs z : index
  %t1 = arith.muli %z, %ny : index
  %t2 = arith.addi %t1, %y : index
  %t3 = arith.muli %t2, %nx : index
  %lin = arith.addi %t3, %x : index
  %c10 = arith.constant 10 : index
  %c100 = arith.constant 100 : index
  %c1000 = arith.constant 1000 : index
  %v1 = arith.muli %y, %c10 : index
  %v2 = arith.muli %z, %c100 : index
  %v3 = arith.muli %nz, %c1000 : index
  %v4 = arith.addi %x, %v1 : index
  %v5 = arith.addi %v4, %v2 : index
  %v6 = arith.addi %v5, %v3 : index
  %v = arith.index_cast %v6 : index to i32
  %t = tile.splat %v : i32 -> tensor<1xi32>
  tile.store %t, %o[%lin] : tensor<1xi32> -> !tile.view<?xi32>
}
)mlir";
  Buffer o(DType::i32, {24});
  o.poison();
  Status st = run(src, "ids", {view(o)}, Mode::DeviceFaithful, {2, 3, 4});
  ASSERT_TRUE(st) << st.message;
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 2; ++x)
        EXPECT_EQ(o.getInt((z * 3 + y) * 2 + x), x + 10 * y + 100 * z + 4000);
}

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, IntegerOpsWrapToTheirWidth) {
  const std::vector<std::string> ops = {
      "addi",      "subi",  "muli",  "divsi", "remsi",
      "divui",     "maxui", "shrui", "shrsi", "floordivsi",
      "ceildivsi", "minsi", "shli",  "remui", "xori"};
  std::string src = R"mlir(
tile.kernel @ints(%x: !tile.view<?xi8>, %y: !tile.view<?xi8>,
                  %o: !tile.view<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0] : !tile.view<?xi8> -> tensor<4xi8>
  %b = tile.load %y[%c0] : !tile.view<?xi8> -> tensor<4xi8>
)mlir";
  for (size_t r = 0; r < ops.size(); ++r) {
    const std::string n = std::to_string(r);
    src += "  %r" + n + " = arith." + ops[r] + " %a, %b : tensor<4xi8>\n";
    src += "  %s" + n + " = tile.reshape %r" + n +
           " : tensor<4xi8> -> tensor<1x4xi8>\n";
    src += "  %i" + n + " = arith.constant " + n + " : index\n";
    src += "  tile.store %s" + n + ", %o[%i" + n +
           ", %c0] : tensor<1x4xi8> -> "
           "!tile.view<?x?xi8>\n";
  }
  src += "}\n";
  Buffer x = filled(DType::i8, {4}, {100, -128, 7, -7});
  Buffer y = filled(DType::i8, {4}, {100, -1, 2, 3});
  Buffer o(DType::i8, {static_cast<int64_t>(ops.size()), 4});
  Status st = run(src, "ints", {view(x), view(y), view(o)});
  ASSERT_TRUE(st) << st.message;
  const int64_t expect[][4] = {
      {-56, 127, 9, -4},    // addi
      {0, -127, 5, -10},    // subi
      {16, -128, 14, -21},  // muli
      {1, -128, 3, -2},     // divsi (-128 / -1 wraps)
      {0, 0, 1, -1},        // remsi
      {1, 0, 3, 83},        // divui: 128 / 255, 249 / 3
      {100, -1, 7, -7},     // maxui: 255 > 128, 249 > 3
      {0, 0, 1, 31},        // shrui: shifts >= 8 give 0
      {0, -1, 1, -1},       // shrsi
      {1, -128, 3, -3},     // floordivsi
      {1, -128, 4, -2},     // ceildivsi
      {100, -128, 2, -7},   // minsi
      {0, 0, 28, -56},      // shli
      {0, 128 - 256, 1, 0}, // remui: 128 % 255 = 128 -> -128; 249 % 3 = 0
      {0, 127, 5, -6},      // xori
  };
  for (size_t r = 0; r < ops.size(); ++r)
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(o.getInt(r * 4 + i), expect[r][i]) << ops[r] << " " << i;
}

TEST_F(InterpreterTest, IntegerDivisionByZeroIsAnError) {
  const char *src = R"mlir(
tile.kernel @div(%x: !tile.view<?xi32>, %d: i32) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0] : !tile.view<?xi32> -> tensor<4xi32>
  %s = tile.splat %d : i32 -> tensor<4xi32>
  %q = arith.divsi %a, %s : tensor<4xi32>
  %r = arith.remui %q, %s : tensor<4xi32>
  tile.store %r, %x[%c0] : tensor<4xi32> -> !tile.view<?xi32>
}
)mlir";
  Buffer x = filled(DType::i32, {4}, {7, 8, 9, 10});
  Status st = run(src, "div", {view(x), int64_t{0}});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("arith.divsi"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("division by zero"), std::string::npos)
      << st.message;
  EXPECT_NE(st.message.find("loc(\"kernel.mlir\":6:"), std::string::npos)
      << st.message;
  st = run(src, "div", {view(x), int64_t{3}});
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(x.getInt(0), 2);
  EXPECT_EQ(x.getInt(3), 0);
}

TEST_F(InterpreterTest, IndexAndScalarIntegerArithmetic) {
  const char *src = R"mlir(
tile.kernel @k(%o: !tile.view<?xi32>, %a: i32, %b: i64) {
  %c0 = arith.constant 0 : index
  %m = arith.muli %a, %a : i32
  %bi = arith.trunci %b : i64 to i32
  %s = arith.addi %m, %bi : i32
  %e = arith.extui %s : i32 to i64
  %back = arith.trunci %e : i64 to i32
  %x = arith.index_castui %back : i32 to index
  %y = arith.index_cast %x : index to i32
  %t = tile.splat %y : i32 -> tensor<1xi32>
  tile.store %t, %o[%c0] : tensor<1xi32> -> !tile.view<?xi32>
}
)mlir";
  Buffer o(DType::i32, {1});
  Status st = run(src, "k", {view(o), int64_t{65536}, int64_t{0x100000007}});
  ASSERT_TRUE(st) << st.message;
  EXPECT_EQ(o.getInt(0), 7); // 65536^2 wraps to 0 in i32; 2^32 + 7 -> 7
}

//===----------------------------------------------------------------------===//
// Elementwise, casts, shape ops
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, CmpFPredicatesWithNaN) {
  const std::vector<std::pair<std::string, std::array<int, 4>>> cases = {
      {"oeq", {1, 0, 0, 0}},  {"une", {0, 1, 1, 1}}, {"ord", {1, 0, 0, 1}},
      {"uno", {0, 1, 1, 0}},  {"olt", {0, 0, 0, 0}}, {"ult", {0, 1, 1, 0}},
      {"one", {0, 0, 0, 1}},  {"ueq", {1, 1, 1, 0}}, {"ogt", {0, 0, 0, 1}},
      {"uge", {1, 1, 1, 1}},  {"ole", {1, 0, 0, 0}}, {"ugt", {0, 1, 1, 1}},
      {"oge", {1, 0, 0, 1}},  {"ule", {1, 1, 1, 0}}, {"true", {1, 1, 1, 1}},
      {"false", {0, 0, 0, 0}}};
  Buffer x = filled(DType::f32, {4}, {1, kNaN, 1, 2});
  Buffer y = filled(DType::f32, {4}, {1, 1, kNaN, 1});
  for (const auto &[pred, expect] : cases) {
    std::string src = R"mlir(
tile.kernel @c(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %o: !tile.view<?xi8>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<4xf32>
  %b = tile.load %y[%c0] : !tile.view<?xf32> -> tensor<4xf32>
  %p = arith.cmpf )mlir" +
                      pred + R"mlir(, %a, %b : tensor<4xf32>
  %e = arith.extui %p : tensor<4xi1> to tensor<4xi8>
  tile.store %e, %o[%c0] : tensor<4xi8> -> !tile.view<?xi8>
}
)mlir";
    Buffer o(DType::i8, {4});
    Status st = run(src, "c", {view(x), view(y), view(o)});
    ASSERT_TRUE(st) << st.message;
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(o.getInt(i), expect[i]) << pred << " " << i;
  }
}

TEST_F(InterpreterTest, MaxMinNaNSemantics) {
  const char *src = R"mlir(
tile.kernel @m(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %o: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<4xf32>
  %b = tile.load %y[%c0] : !tile.view<?xf32> -> tensor<4xf32>
  %r0 = arith.maximumf %a, %b : tensor<4xf32>
  %r1 = arith.maxnumf %a, %b : tensor<4xf32>
  %r2 = arith.minimumf %a, %b : tensor<4xf32>
  %r3 = arith.minnumf %a, %b : tensor<4xf32>
  %s0 = tile.reshape %r0 : tensor<4xf32> -> tensor<1x4xf32>
  %s1 = tile.reshape %r1 : tensor<4xf32> -> tensor<1x4xf32>
  %s2 = tile.reshape %r2 : tensor<4xf32> -> tensor<1x4xf32>
  %s3 = tile.reshape %r3 : tensor<4xf32> -> tensor<1x4xf32>
  tile.store %s0, %o[%c0, %c0] : tensor<1x4xf32> -> !tile.view<?x?xf32>
  tile.store %s1, %o[%c1, %c0] : tensor<1x4xf32> -> !tile.view<?x?xf32>
  tile.store %s2, %o[%c2, %c0] : tensor<1x4xf32> -> !tile.view<?x?xf32>
  tile.store %s3, %o[%c3, %c0] : tensor<1x4xf32> -> !tile.view<?x?xf32>
}
)mlir";
  Buffer x = filled(DType::f32, {4}, {1, kNaN, -0.0, 5});
  Buffer y = filled(DType::f32, {4}, {kNaN, 2, 0.0, -5});
  Buffer o(DType::f32, {4, 4});
  Status st = run(src, "m", {view(x), view(y), view(o)});
  ASSERT_TRUE(st) << st.message;
  const double expect[4][4] = {{kNaN, kNaN, 0.0, 5},
                               {1, 2, 0.0, 5},
                               {kNaN, kNaN, -0.0, -5},
                               {1, 2, -0.0, -5}};
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < 4; ++i) {
      EXPECT_TRUE(same(o.get(r * 4 + i), expect[r][i])) << r << " " << i;
      EXPECT_EQ(std::signbit(o.get(r * 4 + i)), std::signbit(expect[r][i]))
          << r << " " << i;
    }
}

TEST_F(InterpreterTest, Casts) {
  const char *src = R"mlir(
tile.kernel @c(%x: !tile.view<?xf32>, %o: !tile.view<?x?xi32>,
               %ints: !tile.view<?xi32>, %f: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<4xf32>
  %s = arith.fptosi %a : tensor<4xf32> to tensor<4xi32>
  %u = arith.fptoui %a : tensor<4xf32> to tensor<4xi32>
  %s2 = tile.reshape %s : tensor<4xi32> -> tensor<1x4xi32>
  %u2 = tile.reshape %u : tensor<4xi32> -> tensor<1x4xi32>
  tile.store %s2, %o[%c0, %c0] : tensor<1x4xi32> -> !tile.view<?x?xi32>
  tile.store %u2, %o[%c1, %c0] : tensor<1x4xi32> -> !tile.view<?x?xi32>
  %i = tile.load %ints[%c0] : !tile.view<?xi32> -> tensor<4xi32>
  %t8 = arith.trunci %i : tensor<4xi32> to tensor<4xi8>
  %e1 = arith.extsi %t8 : tensor<4xi8> to tensor<4xi32>
  %e2 = arith.extui %t8 : tensor<4xi8> to tensor<4xi32>
  %e12 = tile.reshape %e1 : tensor<4xi32> -> tensor<1x4xi32>
  %e22 = tile.reshape %e2 : tensor<4xi32> -> tensor<1x4xi32>
  tile.store %e12, %o[%c2, %c0] : tensor<1x4xi32> -> !tile.view<?x?xi32>
  tile.store %e22, %o[%c3, %c0] : tensor<1x4xi32> -> !tile.view<?x?xi32>
  %bf = arith.sitofp %i : tensor<4xi32> to tensor<4xbf16>
  %bf32 = arith.extf %bf : tensor<4xbf16> to tensor<4xf32>
  %uf = arith.uitofp %i : tensor<4xi32> to tensor<4xf32>
  %bf2 = tile.reshape %bf32 : tensor<4xf32> -> tensor<1x4xf32>
  %uf2 = tile.reshape %uf : tensor<4xf32> -> tensor<1x4xf32>
  tile.store %bf2, %f[%c0, %c0] : tensor<1x4xf32> -> !tile.view<?x?xf32>
  tile.store %uf2, %f[%c1, %c0] : tensor<1x4xf32> -> !tile.view<?x?xf32>
}
)mlir";
  Buffer x = filled(DType::f32, {4}, {1e10, -1e10, kNaN, -3.7});
  Buffer ints = filled(DType::i32, {4}, {257, -1, 300, 128});
  Buffer o(DType::i32, {4, 4}), f(DType::f32, {2, 4});
  Status st = run(src, "c", {view(x), view(o), view(ints), view(f)});
  ASSERT_TRUE(st) << st.message;
  const int64_t imax = std::numeric_limits<int32_t>::max();
  const int64_t imin = std::numeric_limits<int32_t>::min();
  const int64_t expect[4][4] = {{imax, imin, 0, -3}, // fptosi saturates
                                {-1, 0, 0, 0},       // fptoui: 2^32-1
                                {1, -1, 44, -128},   // trunci + extsi
                                {1, 255, 44, 128}};  // trunci + extui
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(o.getInt(r * 4 + i), expect[r][i]) << r << " " << i;
  EXPECT_EQ(f.get(0), 256.0); // 257 -> bf16 ties to even
  EXPECT_EQ(f.get(1), -1.0);
  EXPECT_EQ(f.get(2), 300.0);
  EXPECT_EQ(f.get(4), 257.0);
  EXPECT_EQ(f.get(5), 4294967296.0); // uitofp(0xFFFFFFFF) in f32
}

TEST_F(InterpreterTest, ShapeOps) {
  const char *src = R"mlir(
tile.kernel @s(%o1: !tile.view<?x?xf32>, %o2: !tile.view<?x?xf32>,
               %x3: !tile.view<?x?x?xi16>, %o3: !tile.view<?x?x?xi16>) {
  %c0 = arith.constant 0 : index
  %i = tile.iota : tensor<8xi32>
  %f = arith.sitofp %i : tensor<8xi32> to tensor<8xf32>
  %r = tile.reshape %f : tensor<8xf32> -> tensor<2x4xf32>
  %p = tile.permute %r [1, 0] : tensor<2x4xf32> -> tensor<4x2xf32>
  tile.store %p, %o1[%c0, %c0] : tensor<4x2xf32> -> !tile.view<?x?xf32>
  %m = tile.reduce max %p axis 1 : tensor<4x2xf32> -> tensor<4x1xf32>
  %b = tile.broadcast %m : tensor<4x1xf32> -> tensor<4x2xf32>
  %two = arith.constant 2.0 : f32
  %h = tile.splat %two : f32 -> tensor<4x2xf32>
  %cond = arith.cmpf olt, %p, %h : tensor<4x2xf32>
  %sel = arith.select %cond, %p, %b : tensor<4x2xi1>, tensor<4x2xf32>
  tile.store %sel, %o2[%c0, %c0] : tensor<4x2xf32> -> !tile.view<?x?xf32>
  %t = tile.load %x3[%c0, %c0, %c0] : !tile.view<?x?x?xi16> -> tensor<2x4x8xi16>
  %q = tile.permute %t [2, 0, 1] : tensor<2x4x8xi16> -> tensor<8x2x4xi16>
  tile.store %q, %o3[%c0, %c0, %c0] : tensor<8x2x4xi16> -> !tile.view<?x?x?xi16>
}
)mlir";
  Buffer o1(DType::f32, {4, 2}), o2(DType::f32, {4, 2});
  Buffer x3(DType::i16, {2, 4, 8}), o3(DType::i16, {8, 2, 4});
  for (int64_t k = 0; k < 64; ++k)
    x3.setInt(k, k * 3 - 50);
  Status st = run(src, "s", {view(o1), view(o2), view(x3), view(o3)});
  ASSERT_TRUE(st) << st.message;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) {
      const double p = j * 4 + i;
      EXPECT_EQ(o1.get(i * 2 + j), p);
      EXPECT_EQ(o2.get(i * 2 + j), p < 2 ? p : 4 + i);
    }
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 4; ++c)
        EXPECT_EQ(o3.getInt((a * 2 + b) * 4 + c),
                  x3.getInt((b * 4 + c) * 8 + a));
}

TEST_F(InterpreterTest, DenseConstantsAndScalarSelect) {
  const char *src = R"mlir(
tile.kernel @k(%o: !tile.view<?x?xf16>, %flag: i32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  %b = arith.constant dense<0.1> : tensor<2x2xf16>
  %c = arith.cmpi ne, %flag, %zero : i32
  %s = arith.select %c, %a, %b : tensor<2x2xf16>
  tile.store %s, %o[%c0, %c0] : tensor<2x2xf16> -> !tile.view<?x?xf16>
}
)mlir";
  Buffer o(DType::f16, {2, 2});
  Status st = run(src, "k", {view(o), int64_t{1}});
  ASSERT_TRUE(st) << st.message;
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(o.get(k), k + 1.0);
  st = run(src, "k", {view(o), int64_t{0}});
  ASSERT_TRUE(st) << st.message;
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(o.get(k), roundToF16(0.1));
}

//===----------------------------------------------------------------------===//
// Float64 mode
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, Float64ModeRoundsNothing) {
  const char *src = R"mlir(
tile.kernel @f(%x: !tile.view<?xbf16>, %o: !tile.view<?xbf16>) {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0] : !tile.view<?xbf16> -> tensor<4xbf16>
  %three = arith.constant dense<3.0> : tensor<4xbf16>
  %m = arith.mulf %a, %three : tensor<4xbf16>
  %e = math.exp %a : tensor<4xbf16>
  %s = arith.addf %m, %e : tensor<4xbf16>
  %w = arith.extf %s : tensor<4xbf16> to tensor<4xf32>
  %h = arith.truncf %w : tensor<4xf32> to tensor<4xf16>
  %back = arith.extf %h : tensor<4xf16> to tensor<4xf32>
  %t = arith.truncf %back : tensor<4xf32> to tensor<4xbf16>
  tile.store %t, %o[%c0] : tensor<4xbf16> -> !tile.view<?xbf16>
}
)mlir";
  const std::vector<double> in = {0.1, -0.3, 1.7, 1e-3};
  Buffer x64 = filled(DType::f64, {4}, in);
  Buffer o64(DType::f64, {4});
  Status st = run(src, "f", {view(x64), view(o64)}, Mode::Float64);
  ASSERT_TRUE(st) << st.message;
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(o64.get(i), in[i] * 3 + std::exp(in[i])) << i;

  // Stores still round to the storage type of the buffer.
  Buffer obf(DType::bf16, {4});
  st = run(src, "f", {view(x64), view(obf)}, Mode::Float64);
  ASSERT_TRUE(st) << st.message;
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(obf.get(i), roundToBF16(in[i] * 3 + std::exp(in[i])));

  // Device-faithful mode wants the view's own element type.
  st = run(src, "f", {view(x64), view(o64)});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("argument #0"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("bf16"), std::string::npos) << st.message;
}

//===----------------------------------------------------------------------===//
// Launch errors
//===----------------------------------------------------------------------===//

const char *kArgs = R"mlir(
tile.kernel @args(%x: !tile.view<?x64xf32>, %n: index, %alpha: f32) {
  tile.return
}
tile.kernel @other() {
  tile.return
}
)mlir";

TEST_F(InterpreterTest, WrongArgumentCount) {
  Buffer x(DType::f32, {2, 64});
  Status st = run(kArgs, "args", {view(x), int64_t{1}});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("takes 3 arguments, got 2"), std::string::npos)
      << st.message;
}

TEST_F(InterpreterTest, WrongArgumentKinds) {
  Buffer x(DType::f32, {2, 64});
  Status st = run(kArgs, "args", {view(x), 1.0, 2.0});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("argument #1"), std::string::npos) << st.message;
  st = run(kArgs, "args", {view(x), int64_t{1}, int64_t{2}});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("argument #2"), std::string::npos) << st.message;
  st = run(kArgs, "args", {int64_t{0}, int64_t{1}, 2.0});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("argument #0"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("expected a view"), std::string::npos)
      << st.message;
  st = run(kArgs, "args", {ViewArg{}, int64_t{1}, 2.0});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("null buffer"), std::string::npos) << st.message;
  Buffer wrong(DType::bf16, {2, 64});
  st = run(kArgs, "args", {view(wrong), int64_t{1}, 2.0});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("argument #0"), std::string::npos) << st.message;
  Buffer rank3(DType::f32, {2, 64, 1});
  st = run(kArgs, "args", {view(rank3), int64_t{1}, 2.0});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("rank 2"), std::string::npos) << st.message;
  st = run(kArgs, "args", {ViewArg{&x, {2, 64}, {64}, 0}, int64_t{1}, 2.0});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("strides"), std::string::npos) << st.message;
  st = run(kArgs, "args", {view(x), int64_t{1}, 2.0});
  EXPECT_TRUE(st) << st.message;
}

TEST_F(InterpreterTest, StaticDimMismatch) {
  Buffer x(DType::f32, {4, 32});
  Status st = run(kArgs, "args", {view(x), int64_t{1}, 2.0});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("argument #0"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("static dimension 1 is 64"), std::string::npos)
      << st.message;
  EXPECT_NE(st.message.find("32"), std::string::npos) << st.message;
}

TEST_F(InterpreterTest, BadGridAndUnknownKernel) {
  Buffer x(DType::f32, {2, 64});
  Status st = run(kArgs, "args", {view(x), int64_t{1}, 2.0},
                  Mode::DeviceFaithful, {1, 0, 1});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("grid dimension y"), std::string::npos)
      << st.message;
  st = run(kArgs, "nope", {});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("@nope"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("@args, @other"), std::string::npos) << st.message;
  st = run(kArgs, "other", {});
  EXPECT_TRUE(st) << st.message;
  LaunchConfig config;
  st = tessera::interp::run(mlir::ModuleOp(), "args", {}, config);
  EXPECT_FALSE(st);
}

TEST_F(InterpreterTest, UnsupportedOp) {
  const char *src = R"mlir(
tile.kernel @u(%n: i32) {
  %p = math.ipowi %n, %n : i32
}
)mlir";
  Status st = run(src, "u", {int64_t{3}});
  ASSERT_FALSE(st);
  EXPECT_NE(
      st.message.find("unsupported op 'math.ipowi' at loc(\"kernel.mlir\":3:"),
      std::string::npos)
      << st.message;
}

TEST_F(InterpreterTest, I32ScalarOutOfRange) {
  const char *src = R"mlir(
tile.kernel @s(%n: i32) {
}
)mlir";
  Status st = run(src, "s", {int64_t{1} << 40});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("argument #0"), std::string::npos) << st.message;
}

} // namespace

namespace {

TEST_F(InterpreterTest, GatherAlongEachAxis) {
  // Axis 0: the k -> -k mod 8 reversal; axis 1: a fixed column map.
  const char *src = R"mlir(
tile.kernel @g(%x: !tile.view<?x?xf32>, %o0: !tile.view<?x?xf32>,
               %o1: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<8x4xf32>
  %k = tile.iota : tensor<8xi32>
  %n = arith.constant dense<8> : tensor<8xi32>
  %m = arith.constant dense<7> : tensor<8xi32>
  %d = arith.subi %n, %k : tensor<8xi32>
  %r = arith.andi %d, %m : tensor<8xi32>
  %r2 = tile.reshape %r : tensor<8xi32> -> tensor<8x1xi32>
  %idx0 = tile.broadcast %r2 : tensor<8x1xi32> -> tensor<8x4xi32>
  %g0 = tile.gather %t[%idx0] axes [0] : tensor<8x4xf32> [tensor<8x4xi32>] -> tensor<8x4xf32>
  tile.store %g0, %o0[%c0, %c0] : tensor<8x4xf32> -> !tile.view<?x?xf32>
  %idx1 = arith.constant dense<[[3, 0], [1, 1], [2, 3], [0, 2], [3, 3], [0, 0], [1, 2], [2, 1]]> : tensor<8x2xi64>
  %g1 = tile.gather %t[%idx1] axes [1] : tensor<8x4xf32> [tensor<8x2xi64>] -> tensor<8x2xf32>
  tile.store %g1, %o1[%c0, %c0] : tensor<8x2xf32> -> !tile.view<?x?xf32>
}
)mlir";
  Buffer x(DType::f32, {8, 4}), o0(DType::f32, {8, 4}), o1(DType::f32, {8, 2});
  for (int64_t k = 0; k < 32; ++k)
    x.set(k, k);
  o0.poison();
  o1.poison();
  Status st = run(src, "g", {view(x), view(o0), view(o1)});
  ASSERT_TRUE(st) << st.message;
  const int map1[8][2] = {{3, 0}, {1, 1}, {2, 3}, {0, 2},
                          {3, 3}, {0, 0}, {1, 2}, {2, 1}};
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(o0.get(i * 4 + j), x.get(((8 - i) % 8) * 4 + j));
    for (int j = 0; j < 2; ++j)
      EXPECT_EQ(o1.get(i * 2 + j), x.get(i * 4 + map1[i][j]));
  }
}

// Both coordinates at once: result[i][j] = t[rows[i][j]][cols[i][j]], each
// index read at the result's own position. The row index here depends on
// the column too, where a row gather and then a column gather would read
// it at the gathered column instead (compared below: they differ).
TEST_F(InterpreterTest, GatherAlongTwoAxes) {
  const char *src = R"mlir(
tile.kernel @g(%x: !tile.view<?x?xf32>, %o: !tile.view<?x?xf32>,
               %p: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<8x4xf32>
  %i = tile.iota : tensor<8x4xi32>
  %j = tile.iota dim 1 : tensor<8x4xi32>
  %n = arith.constant dense<8> : tensor<8x4xi32>
  %seven = arith.constant dense<7> : tensor<8x4xi32>
  %three = arith.constant dense<3> : tensor<8x4xi32>
  %d = arith.subi %n, %i : tensor<8x4xi32>
  %dj = arith.addi %d, %j : tensor<8x4xi32>
  %r = arith.andi %dj, %seven : tensor<8x4xi32>
  %s = arith.addi %j, %i : tensor<8x4xi32>
  %c = arith.andi %s, %three : tensor<8x4xi32>
  %g = tile.gather %t[%r, %c] axes [0, 1] : tensor<8x4xf32> [tensor<8x4xi32>, tensor<8x4xi32>] -> tensor<8x4xf32>
  tile.store %g, %o[%c0, %c0] : tensor<8x4xf32> -> !tile.view<?x?xf32>
  %g0 = tile.gather %t[%r] axes [0] : tensor<8x4xf32> [tensor<8x4xi32>] -> tensor<8x4xf32>
  %g1 = tile.gather %g0[%c] axes [1] : tensor<8x4xf32> [tensor<8x4xi32>] -> tensor<8x4xf32>
  tile.store %g1, %p[%c0, %c0] : tensor<8x4xf32> -> !tile.view<?x?xf32>
}
)mlir";
  Buffer x(DType::f32, {8, 4}), o(DType::f32, {8, 4}), p(DType::f32, {8, 4});
  for (int64_t k = 0; k < 32; ++k)
    x.set(k, k);
  o.poison();
  p.poison();
  Status st = run(src, "g", {view(x), view(o), view(p)});
  ASSERT_TRUE(st) << st.message;
  int differ = 0;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) {
      const int c = (i + j) % 4;
      EXPECT_EQ(o.get(i * 4 + j), x.get(((8 - i + j) % 8) * 4 + c));
      // Two gathers: the row index taken at column c, not j.
      EXPECT_EQ(p.get(i * 4 + j), x.get(((8 - i + c) % 8) * 4 + c));
      differ += o.get(i * 4 + j) != p.get(i * 4 + j);
    }
  EXPECT_GT(differ, 0);
}

// A gather of several sources used to bind its first results while it
// still read the other sources through pointers into the environment:
// with any number of values before it (so that one of the runs grows the
// environment while the gather binds), every result is right.
TEST_F(InterpreterTest, GatherOfSeveralSourcesWhileTheEnvironmentGrows) {
  for (int fillers = 0; fillers < 100; ++fillers) {
    std::string src = R"mlir(
tile.kernel @g(%x: !tile.view<?xf32>, %o: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<8xf32>
  %one = arith.constant dense<1.0> : tensor<8xf32>
)mlir";
    std::string last = "%one";
    for (int k = 0; k < fillers; ++k) {
      src += "  %f" + std::to_string(k) + " = arith.addf " + last +
             ", %one : tensor<8xf32>\n";
      last = "%f" + std::to_string(k);
    }
    src += R"mlir(
  %s1 = arith.addf %t, %one : tensor<8xf32>
  %s2 = arith.addf %s1, %one : tensor<8xf32>
  %s3 = arith.addf %s2, %one : tensor<8xf32>
  %k = tile.iota : tensor<8xi32>
  %n = arith.constant dense<8> : tensor<8xi32>
  %m = arith.constant dense<7> : tensor<8xi32>
  %d = arith.subi %n, %k : tensor<8xi32>
  %r = arith.andi %d, %m : tensor<8xi32>
  %g:4 = tile.gather %t, %s1, %s2, %s3[%r] axes [0] : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32> [tensor<8xi32>] -> tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  %g0 = tile.reshape %g#0 : tensor<8xf32> -> tensor<1x8xf32>
  %g1 = tile.reshape %g#1 : tensor<8xf32> -> tensor<1x8xf32>
  %g2 = tile.reshape %g#2 : tensor<8xf32> -> tensor<1x8xf32>
  %g3 = tile.reshape %g#3 : tensor<8xf32> -> tensor<1x8xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  tile.store %g0, %o[%c0, %c0] : tensor<1x8xf32> -> !tile.view<?x?xf32>
  tile.store %g1, %o[%c1, %c0] : tensor<1x8xf32> -> !tile.view<?x?xf32>
  tile.store %g2, %o[%c2, %c0] : tensor<1x8xf32> -> !tile.view<?x?xf32>
  tile.store %g3, %o[%c3, %c0] : tensor<1x8xf32> -> !tile.view<?x?xf32>
}
)mlir";
    Buffer x(DType::f32, {8}), o(DType::f32, {4, 8});
    for (int64_t k = 0; k < 8; ++k)
      x.set(k, 10.0 * k);
    o.poison();
    Status st = run(src, "g", {view(x), view(o)});
    ASSERT_TRUE(st) << fillers << " fillers: " << st.message;
    for (int s = 0; s < 4; ++s)
      for (int i = 0; i < 8; ++i)
        ASSERT_EQ(o.get(s * 8 + i), 10.0 * ((8 - i) % 8) + s)
            << fillers << " fillers, source " << s << ", element " << i;
  }
}

TEST_F(InterpreterTest, GatherIndexOutOfRangeIsAnError) {
  const char *src = R"mlir(
tile.kernel @g(%o: !tile.view<?xi32>) {
  %c0 = arith.constant 0 : index
  %k = tile.iota : tensor<8xi32>
  %one = arith.constant dense<1> : tensor<8xi32>
  %s = arith.addi %k, %one : tensor<8xi32>
  %g = tile.gather %k[%s] axes [0] : tensor<8xi32> [tensor<8xi32>] -> tensor<8xi32>
  tile.store %g, %o[%c0] : tensor<8xi32> -> !tile.view<?xi32>
}
)mlir";
  Buffer o(DType::i32, {8});
  Status st = run(src, "g", {view(o)});
  ASSERT_FALSE(st);
  EXPECT_NE(st.message.find("tile.gather"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("index 8 at element 7 is outside [0, 8)"),
            std::string::npos)
      << st.message;
}

} // namespace

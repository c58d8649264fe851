//===- DslTest.cpp - the C++ tile DSL ---------------------------------------===//

#include "dsl/Tessera.h"
#include "interpreter/Interpreter.h"

#include "dialect/TileOps.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace tessera::dsl;
namespace interp = tessera::interp;

namespace {

/// Expects `fn` to throw an Error located in this file at the line `line`.
template <typename Fn>
void expectErrorAt(Fn fn, int line, const std::string &fragment) {
  try {
    fn();
  } catch (const Error &e) {
    std::string msg = e.what();
    std::string loc = std::string("DslTest.cpp:") + std::to_string(line) + ":";
    EXPECT_NE(msg.find(loc), std::string::npos) << msg;
    EXPECT_NE(msg.find(fragment), std::string::npos) << msg;
    return;
  }
  ADD_FAILURE() << "expected a DSL error containing '" << fragment << "'";
}

TEST(Dsl, BuildsVerifiedKernelWithLocations) {
  KernelModule m;
  m.kernel("axpy", {view("x", f32, 1), view("y", f32, 1), scalar("a", f32)},
           [&](KernelArgs &args) {
             View x = args["x"], y = args["y"];
             Scalar a = args["a"];
             Scalar i = program_id(0);
             Tile tx = load(x, {i}, {128});
             Tile ty = load(y, {i}, {128}, {.latency = 2});
             Tile tz = load(x, {i}, {128}, {.at_use = true});
             store(y, {i}, tx * a + ty + tz, {.cache = Cache::evict_first});
           });
  std::string ir = m.str(/*debugInfo=*/true);
  EXPECT_NE(ir.find("tile.kernel @axpy"), std::string::npos);
  EXPECT_NE(ir.find("latency(2)"), std::string::npos);
  EXPECT_EQ(ir.find("latency(2) at_use"), std::string::npos);
  EXPECT_NE(ir.find("at_use :"), std::string::npos);
  EXPECT_NE(ir.find("cache(evict_first)"), std::string::npos);
  EXPECT_NE(ir.find("DslTest.cpp"), std::string::npos) << ir;
  EXPECT_TRUE(mlir::succeeded(mlir::verify(m.module())));
}

TEST(Dsl, ShapeMismatchReportsCallSite) {
  KernelModule m;
  expectErrorAt(
      [&] {
        m.kernel("bad", {view("x", f32, 2)}, [&](KernelArgs &args) {
          Tile a = zeros({4, 8}, f32);
          Tile b = zeros({4, 16}, f32);
          Tile c = a + b; // line marked below
          (void)c;
        });
      },
      __LINE__ - 4, "cannot broadcast shapes [4, 8] and [4, 16]");
  // The failed kernel is not left behind in the module.
  EXPECT_EQ(m.module().getBody()->getOperations().size(), 0u);
}

TEST(Dsl, DtypeMismatchReportsCallSite) {
  KernelModule m;
  int line = 0;
  try {
    m.kernel("bad", {}, [&](KernelArgs &) {
      Tile a = zeros({4, 8}, bf16);
      Tile b = zeros({4, 8}, f32);
      line = __LINE__ + 1;
      Tile c = a * b;
      (void)c;
    });
    FAIL() << "no error";
  } catch (const Error &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("DslTest.cpp:" + std::to_string(line)),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("different element types bf16 and f32"),
              std::string::npos)
        << msg;
  }
}

TEST(Dsl, MmaMisuse) {
  KernelModule m;
  int line = 0;
  auto build = [&](auto fn) {
    m.kernel("mma_bad" + std::to_string(line), {}, [&](KernelArgs &) { fn(); });
  };
  line = __LINE__ + 2;
  expectErrorAt(
      [&] { build([] { mma(zeros({16, 8}, bf16), zeros({16, 8}, bf16), zeros({16, 8}, f32)); }); },
      line, "inner dimensions must match");
  line = __LINE__ + 2;
  expectErrorAt(
      [&] { build([] { mma(zeros({16, 8}, bf16), zeros({8, 8}, f16), zeros({16, 8}, f32)); }); },
      line, "a is bf16 but b is f16");
  line = __LINE__ + 2;
  expectErrorAt(
      [&] { build([] { mma(zeros({16, 8}, bf16), zeros({8, 8}, bf16), zeros({16, 8}, bf16)); }); },
      line, "accumulator must be f32");
  line = __LINE__ + 2;
  expectErrorAt(
      [&] { build([] { mma(zeros({16, 8}, i32), zeros({8, 8}, i32), zeros({16, 8}, f32)); }); },
      line, "inputs must be bf16, f16, tf32 or f32");
}

TEST(Dsl, LoadMisuse) {
  KernelModule m;
  int line = __LINE__ + 3;
  expectErrorAt(
      [&] {
        m.kernel("k", {view("x", f32, 2)}, [&](KernelArgs &a) { load(a["x"], {0}, {4, 4}); });
      },
      line, "needs 2 tile indices, got 1");
  line = __LINE__ + 3;
  expectErrorAt(
      [&] {
        m.kernel("k", {view("x", f32, 2)}, [&](KernelArgs &a) { load(a["x"], {0, 0}, {3, 4}); });
      },
      line, "powers of two");
  line = __LINE__ + 3;
  expectErrorAt(
      [&] {
        m.kernel("k", {view("x", f32, 2)}, [&](KernelArgs &a) { load(a["x"], {0, 0}, {4, 4}, {.latency = 11}); });
      },
      line, "latency hint must be in 1..10, got 11");
  line = __LINE__ + 3;
  expectErrorAt(
      [&] {
        m.kernel("k", {view("x", f32, 2)}, [&](KernelArgs &a) { store(a["x"], {0, 0}, zeros({4, 4}, bf16)); });
      },
      line, "cast() it first");
}

TEST(Dsl, ArgumentKindErrors) {
  KernelModule m;
  EXPECT_THROW(m.kernel("k", {scalar("n", i32)},
                        [&](KernelArgs &a) { View v = a["n"]; (void)v; }),
               Error);
  EXPECT_THROW(m.kernel("k", {view("x", f32, 1)},
                        [&](KernelArgs &a) { Scalar s = a["y"]; (void)s; }),
               Error);
  EXPECT_THROW(m.kernel("k", {scalar("n", bf16)}, [&](KernelArgs &) {}), Error);
  EXPECT_THROW(program_id(0), Error) << "outside a kernel body";
}

/// min_blocks_per_sm sets the kernel's attribute; out of range, or inside a
/// loop body (not yet attached to the kernel), it is an error at the call.
TEST(Dsl, MinBlocksPerSm) {
  KernelModule m;
  m.kernel("bounded", {view("x", f32, 1)}, [&](KernelArgs &) {
    min_blocks_per_sm(3);
  });
  m.kernel("free", {view("x", f32, 1)}, [&](KernelArgs &) {});
  auto kernels = m.module().getOps<tessera::tile::KernelOp>();
  std::vector<tessera::tile::KernelOp> ops(kernels.begin(), kernels.end());
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].getMinBlocksPerSm(), std::optional<uint32_t>(3));
  EXPECT_EQ(ops[1].getMinBlocksPerSm(), std::nullopt);
  const int line = __LINE__ + 2;
  expectErrorAt([&] {
    m.kernel("zero", {}, [&](KernelArgs &) { min_blocks_per_sm(0); });
  }, line, "min_blocks_per_sm takes 1 to 32 blocks, got 0");
  expectErrorAt([&] {
    m.kernel("looped", {}, [&](KernelArgs &) {
      for_range(0, 2, [&](Scalar) { min_blocks_per_sm(2); });
    });
  }, line + 4, "outside loops and branches");
}

/// num_warps sets the kernel's attribute (kernels of one module may
/// differ); not a power of two, or inside a loop body, it is an error.
TEST(Dsl, NumWarps) {
  KernelModule m;
  m.kernel("eight", {view("x", f32, 1)}, [&](KernelArgs &) {
    num_warps(8);
  });
  m.kernel("default", {view("x", f32, 1)}, [&](KernelArgs &) {});
  auto kernels = m.module().getOps<tessera::tile::KernelOp>();
  std::vector<tessera::tile::KernelOp> ops(kernels.begin(), kernels.end());
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].getNumWarps(), std::optional<uint32_t>(8));
  EXPECT_EQ(ops[1].getNumWarps(), std::nullopt);
  EXPECT_EQ(tessera::tile::numWarpsOf(ops[0]), 8u);
  EXPECT_EQ(tessera::tile::numWarpsOf(ops[1]), 4u);
  const int line = __LINE__ + 2;
  expectErrorAt([&] {
    m.kernel("six", {}, [&](KernelArgs &) { num_warps(6); });
  }, line, "num_warps takes a power of two from 1 to 32, got 6");
  expectErrorAt([&] {
    m.kernel("many", {}, [&](KernelArgs &) { num_warps(64); });
  }, line + 3, "num_warps takes a power of two from 1 to 32, got 64");
  expectErrorAt([&] {
    m.kernel("looped", {}, [&](KernelArgs &) {
      for_range(0, 2, [&](Scalar) { num_warps(2); });
    });
  }, line + 7, "outside loops and branches");
}

TEST(Dsl, LoopCarriedTypeMismatch) {
  KernelModule m;
  int line = __LINE__ + 4;
  expectErrorAt(
      [&] {
        m.kernel("k", {}, [&](KernelArgs &) {
          for_range(0, 4, zeros({8}, f32), [&](Scalar, Tile t) { return cast(t, bf16); });
        });
      },
      line, "for carried value #0");
}

/// Runs a DSL kernel through the interpreter and compares with a host loop:
/// a masked causal matrix built from iota/compare/where, a cumsum along each
/// axis, a loop that carries two tiles and an if/else.
TEST(Dsl, KernelRunsThroughInterpreter) {
  KernelModule m;
  m.kernel("masks", {view("x", f32, 2), view("y", f32, 2), view("z", f32, 2)},
           [&](KernelArgs &args) {
    View x = args["x"], y = args["y"], z = args["z"];
    Tile t = load(x, {0, 0}, {8, 8});
    Tile rows = reshape(iota(8), {8, 1});
    Tile cols = reshape(iota(8), {1, 8});
    Tile causal = where(cols <= rows, t, 0.0);
    store(y, {0, 0}, cumsum(causal, 1) + cumsum(causal, 0, /*reverse=*/true));
    auto [s, p] = for_range(0, 3, std::array<Tile, 2>{zeros({8, 8}, f32), full({8, 8}, 1.0, f32)},
                            [&](Scalar, std::array<Tile, 2> c) {
      return std::array<Tile, 2>{c[0] + t, c[1] * 2.0};
    });
    Scalar n = x.dim(0);
    Tile r = if_else(n > Scalar(4), [&] { return s + p; }, [&] { return s - p; });
    store(z, {0, 0}, r);
  });

  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  interp::Buffer x(interp::DType::f32, {6, 7}), y(interp::DType::f32, {6, 7}),
      z(interp::DType::f32, {6, 7});
  for (int64_t i = 0; i < x.numElements(); ++i)
    x.set(i, dist(rng));
  y.poison();
  z.poison();
  interp::Status st = interp::run(m.module(), "masks",
                                  {interp::ViewArg{&x}, interp::ViewArg{&y},
                                   interp::ViewArg{&z}},
                                  {});
  ASSERT_TRUE(st.ok) << st.message;
  auto X = [&](int i, int j) { return (i < 6 && j < 7) ? x.get(i * 7 + j) : 0.0; };
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 7; ++j) {
      double rowSum = 0, colSum = 0;
      for (int c = 0; c <= j; ++c)
        rowSum += c <= i ? X(i, c) : 0;
      for (int r = i; r < 8; ++r)
        colSum += j <= r ? X(r, j) : 0;
      EXPECT_NEAR(y.get(i * 7 + j), rowSum + colSum, 1e-5) << i << "," << j;
      EXPECT_NEAR(z.get(i * 7 + j), 3 * X(i, j) + 8.0, 1e-5);
    }
}

} // namespace

namespace {
TEST(Dsl, ErrorInsideLoopBodyIsLocated) {
  KernelModule m;
  int line = 0;
  try {
    m.kernel("k", {view("x", f32, 2)}, [&](KernelArgs &a) {
      View x = a["x"];
      for_range(0, 4, [&](Scalar i) {
        line = __LINE__ + 1;
        load(x, {i, 0}, {8, 8}, {.latency = 0});
      });
    });
    FAIL() << "no error";
  } catch (const Error &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("DslTest.cpp:" + std::to_string(line) + ":"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("latency hint must be in 1..10, got 0"),
              std::string::npos)
        << msg;
  }
}
} // namespace

namespace {
TEST(Dsl, GatherReversesAndChecksShapes) {
  KernelModule m;
  m.kernel("rev", {view("x", f32, 1), view("y", f32, 1)}, [&](KernelArgs &a) {
    Tile t = load(a["x"], {0}, {16});
    Tile k = iota(16);
    // (16 - k) mod 16: the index map of real-input packing.
    Tile idx = (16.0 - k) % 16.0;
    store(a["y"], {0}, gather(t, idx, 0));
  });
  interp::Buffer x(interp::DType::f32, {16}), y(interp::DType::f32, {16});
  for (int i = 0; i < 16; ++i)
    x.set(i, i + 0.5);
  y.poison();
  interp::Status st =
      interp::run(m.module(), "rev", {interp::ViewArg{&x}, interp::ViewArg{&y}}, {});
  ASSERT_TRUE(st.ok) << st.message;
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(y.get(i), x.get((16 - i) % 16));

  int line = __LINE__ + 3;
  expectErrorAt(
      [&] {
        m.kernel("bad", {}, [&](KernelArgs &) { gather(zeros({8, 4}, f32), iota(8), 0); });
      },
      line, "gather indices of shape [8] must match");
}

TEST(Dsl, GatherAlongTwoAxesAndItsErrors) {
  KernelModule m;
  m.kernel("both", {view("x", f32, 2), view("y", f32, 2)}, [&](KernelArgs &a) {
    Tile t = load(a["x"], {0, 0}, {8, 4});
    Tile r = reshape(iota(8), {8, 1}) + zeros({8, 4}, i32);
    Tile c = reshape(iota(4), {1, 4}) + zeros({8, 4}, i32);
    // Rows reversed, columns rotated by the row: t[7 - i][(i + j) % 4].
    store(a["y"], {0, 0}, gather(t, {7.0 - r, (r + c) % 4.0}, {0, 1}));
  });
  interp::Buffer x(interp::DType::f32, {8, 4}), y(interp::DType::f32, {8, 4});
  for (int i = 0; i < 32; ++i)
    x.set(i, i + 0.25);
  y.poison();
  interp::Status st = interp::run(m.module(), "both",
                                  {interp::ViewArg{&x}, interp::ViewArg{&y}}, {});
  ASSERT_TRUE(st.ok) << st.message;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(y.get(i * 4 + j), x.get((7 - i) * 4 + (i + j) % 4));

  int line = __LINE__ + 2;
  expectErrorAt(
      [&] { m.kernel("twice", {}, [&](KernelArgs &) { Tile i = zeros({8, 4}, i32); gather(zeros({8, 4}, f32), {i, i}, {1, 1}); }); },
      line, "gather axis 1 given twice");
  line = __LINE__ + 2;
  expectErrorAt(
      [&] { m.kernel("count", {}, [&](KernelArgs &) { Tile i = zeros({8, 4}, i32); gather(zeros({8, 4}, f32), {i}, {0, 1}); }); },
      line, "gather needs one index tile per axis");
}

TEST(Dsl, GatherOfTwoTilesInABranchAndItsErrors) {
  KernelModule m;
  m.kernel("planes",
           {view("re", f32, 1), view("im", f32, 1), view("y", f32, 2),
            scalar("own", i32)},
           [&](KernelArgs &a) {
             Tile re = load(a["re"], {0}, {16}), im = load(a["im"], {0}, {16});
             Tile idx = (16.0 - iota(16)) % 16.0;
             // Both planes through one gather, in a branch of two results.
             std::vector<Tile> p = if_else(
                 Scalar(a["own"]) != cast(Scalar(0), i32),
                 [&] { return gather({re, im}, {idx}, {0}); },
                 [&] { return gather({im, re}, {idx}, {0}); });
             store(a["y"], {0, 0}, reshape(p[0], {1, 16}));
             store(a["y"], {1, 0}, reshape(p[1], {1, 16}));
           });
  interp::Buffer re(interp::DType::f32, {16}), im(interp::DType::f32, {16});
  for (int i = 0; i < 16; ++i) {
    re.set(i, i + 0.5);
    im.set(i, -3.0 * i);
  }
  for (int own : {1, 0}) {
    interp::Buffer y(interp::DType::f32, {2, 16});
    y.poison();
    interp::Status st = interp::run(
        m.module(), "planes",
        {interp::ViewArg{&re}, interp::ViewArg{&im}, interp::ViewArg{&y},
         int64_t(own)},
        {});
    ASSERT_TRUE(st.ok) << st.message;
    const interp::Buffer &first = own ? re : im, &second = own ? im : re;
    for (int i = 0; i < 16; ++i) {
      EXPECT_EQ(y.get(i), first.get((16 - i) % 16)) << own << " " << i;
      EXPECT_EQ(y.get(16 + i), second.get((16 - i) % 16)) << own << " " << i;
    }
  }

  int line = __LINE__ + 2;
  expectErrorAt(
      [&] { m.kernel("shapes", {}, [&](KernelArgs &) { gather({zeros({16}, f32), zeros({8}, f32)}, {iota(16)}, {0}); }); },
      line, "tiles gathered together must share one shape and dtype, got [16] f32 and [8] f32");
  line = __LINE__ + 2;
  expectErrorAt(
      [&] { m.kernel("dtypes", {}, [&](KernelArgs &) { gather({zeros({16}, f32), zeros({16}, bf16)}, {iota(16)}, {0}); }); },
      line, "tiles gathered together must share one shape and dtype");
  line = __LINE__ + 2;
  expectErrorAt(
      [&] { m.kernel("none", {}, [&](KernelArgs &) { gather(std::vector<Tile>{}, {iota(16)}, {0}); }); },
      line, "gather needs at least one tile");
  // Branches of different counts: an error at the call, even when the
  // first branch gives none.
  line = __LINE__ + 2;
  expectErrorAt(
      [&] { m.kernel("counts", {scalar("c", i32)}, [&](KernelArgs &a) { if_else(Scalar(a["c"]) != cast(Scalar(0), i32), [&] { return std::vector<Tile>{}; }, [&] { return std::vector<Tile>{iota(16), iota(16)}; }); }); },
      line, "the branches of if_else return different numbers of values");
}
} // namespace

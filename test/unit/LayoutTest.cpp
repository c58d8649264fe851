//===- LayoutTest.cpp - linear layouts against the PTX fragment maps -------===//

#include "dialect/LinearLayout.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <set>

using namespace tessera::tile;

namespace {

class LayoutTest : public ::testing::Test {
protected:
  LayoutTest() { ctx.loadDialect<TileDialect>(); }
  mlir::MLIRContext ctx;
};

TEST_F(LayoutTest, DefaultBlockedIsRowMajorAcrossThreads) {
  // 64 x 32, 4 warps: thread t holds 8 consecutive elements of a row.
  BlockedLayoutAttr attr = defaultBlockedLayout(&ctx, {64, 32}, 4);
  LinearLayout l = LinearLayout::fromBlocked(attr, {64, 32});
  EXPECT_EQ(l.numRegisters(), 16);
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t reg = 0; reg < 16; ++reg) {
        int64_t t = warp * 32 + lane;
        int64_t linear = (reg / 8) * 1024 + t * 8 + reg % 8;
        auto c = l.apply(reg, lane, warp);
        EXPECT_EQ(l.linearIndex(c), linear);
      }
}

TEST_F(LayoutTest, SmallTilesHaveCopies) {
  BlockedLayoutAttr attr = defaultBlockedLayout(&ctx, {4, 1}, 4);
  LinearLayout l = LinearLayout::fromBlocked(attr, {4, 1});
  EXPECT_EQ(l.numRegisters(), 1);
  // Lanes 0..3 hold rows 0..3; every other lane and warp bit is a copy.
  for (int bit = 2; bit < 5; ++bit)
    EXPECT_TRUE(l.isBroadcastBit(LinearLayout::Lane, bit));
  EXPECT_EQ(l.apply(0, 6, 3), (LinearLayout::Coords{2, 0}));
}

TEST_F(LayoutTest, MmaV2AccumulatorMatchesPtxFragment) {
  // PTX ISA, mma.m16n8k16 f32 accumulators: c_i at row groupID (+8 for
  // i >= 2), column 2 * threadID_in_group + (i % 2).
  auto mma = MmaLayoutAttr::get(&ctx, 2, {2, 2}, {16, 8});
  LinearLayout l = LinearLayout::fromMma(mma, {64, 32});
  // 64x32 over 2x2 warps of 16x8: 2 repetitions each way, 4 values each.
  EXPECT_EQ(l.numRegisters(), 16);
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t reg = 0; reg < 16; ++reg) {
        int64_t i = reg % 4, repN = (reg / 4) % 2, repM = reg / 8;
        int64_t wm = warp % 2, wn = warp / 2;
        int64_t row = repM * 32 + wm * 16 + lane / 4 + (i >= 2 ? 8 : 0);
        int64_t col = repN * 16 + wn * 8 + 2 * (lane % 4) + i % 2;
        EXPECT_EQ(l.apply(reg, lane, warp), (LinearLayout::Coords{row, col}))
            << "warp " << warp << " lane " << lane << " reg " << reg;
      }
}

TEST_F(LayoutTest, WgmmaAccumulatorMatchesPtxFragment) {
  // wgmma m64nNk16 f32: warp w of the warpgroup owns rows 16 w ..; d[4j+i]
  // at row 16 w + groupID (+8 for i >= 2), column 8 j + 2 tig + i % 2.
  auto mma = MmaLayoutAttr::get(&ctx, 3, {4, 1}, {64, 32});
  LinearLayout l = LinearLayout::fromMma(mma, {64, 32});
  EXPECT_EQ(l.numRegisters(), 16);
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t reg = 0; reg < 16; ++reg) {
        int64_t i = reg % 4, j = reg / 4;
        int64_t row = 16 * warp + lane / 4 + (i >= 2 ? 8 : 0);
        int64_t col = 8 * j + 2 * (lane % 4) + i % 2;
        EXPECT_EQ(l.apply(reg, lane, warp), (LinearLayout::Coords{row, col}));
      }
}

TEST_F(LayoutTest, DotOperandsMatchPtxFragments) {
  auto mma = MmaLayoutAttr::get(&ctx, 2, {1, 1}, {16, 8});
  // A, 16 x 16 f16: a0 a1 row g, k 2t + {0,1}; a2 a3 row g + 8; a4 a5 row g,
  // k + 8; a6 a7 row g + 8, k + 8.
  LinearLayout a = LinearLayout::fromDotOperand(
      DotOperandLayoutAttr::get(&ctx, 0, mma, 2), {16, 16});
  // B, 16 x 8: b0 b1 k 2t + {0,1}, column g; b2 b3 k + 8.
  LinearLayout b = LinearLayout::fromDotOperand(
      DotOperandLayoutAttr::get(&ctx, 1, mma, 2), {16, 8});
  EXPECT_EQ(a.numRegisters(), 8);
  EXPECT_EQ(b.numRegisters(), 4);
  for (int64_t lane = 0; lane < 32; ++lane) {
    int64_t g = lane / 4, t = lane % 4;
    for (int64_t i = 0; i < 8; ++i) {
      int64_t row = g + ((i / 2) % 2 ? 8 : 0), k = 2 * t + i % 2 + (i >= 4 ? 8 : 0);
      EXPECT_EQ(a.apply(i, lane, 0), (LinearLayout::Coords{row, k}));
    }
    for (int64_t i = 0; i < 4; ++i) {
      int64_t k = 2 * t + i % 2 + (i >= 2 ? 8 : 0);
      EXPECT_EQ(b.apply(i, lane, 0), (LinearLayout::Coords{k, g}));
    }
  }
}

TEST_F(LayoutTest, SharedSwizzleSpreadsAColumnOverBanks) {
  // 8 rows of 64 f16 (128 bytes): reading 8-element column group 0 of rows
  // 0..7 touches 8 different 16-byte groups.
  auto shared = SharedLayoutAttr::get(&ctx, 8, 1, 8, {1, 0});
  std::set<int64_t> groups;
  for (int64_t row = 0; row < 8; ++row)
    groups.insert((shared.offset(row, 0, 64) % 64) / 8);
  EXPECT_EQ(groups.size(), 8u);
  // Elements inside a vector stay contiguous.
  EXPECT_EQ(shared.offset(3, 5, 64), shared.offset(3, 0, 64) + 5);
}

// An mma.sync accumulator with all warps along M holds in each thread the
// A fragments of the next mma, registers reordered: registerPermutation
// finds, for every fragment register, the accumulator register with the
// same element in every lane and warp. Warps along N break it (a warp's A
// rows span columns another warp holds), and so does a transpose (B).
TEST_F(LayoutTest, AccumulatorToNextAOperandIsRegisterMoves) {
  auto mma = MmaLayoutAttr::get(&ctx, 2, {4, 1}, {16, 8});
  LinearLayout acc = LinearLayout::fromMma(mma, {64, 32});
  LinearLayout a = LinearLayout::fromDotOperand(
      DotOperandLayoutAttr::get(&ctx, 0, mma, 2), {64, 32});
  std::vector<int64_t> from = registerPermutation(acc, a);
  ASSERT_EQ(int64_t(from.size()), a.numRegisters());
  std::set<int64_t> used(from.begin(), from.end());
  EXPECT_EQ(int64_t(used.size()), acc.numRegisters());
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t r = 0; r < a.numRegisters(); ++r)
        EXPECT_EQ(a.apply(r, lane, warp), acc.apply(from[r], lane, warp));
  // Identity for equal layouts.
  std::vector<int64_t> same = registerPermutation(acc, acc);
  for (int64_t r = 0; r < acc.numRegisters(); ++r)
    EXPECT_EQ(same[r], r);

  auto split = MmaLayoutAttr::get(&ctx, 2, {2, 2}, {16, 8});
  EXPECT_TRUE(registerPermutation(
                  LinearLayout::fromMma(split, {64, 32}),
                  LinearLayout::fromDotOperand(
                      DotOperandLayoutAttr::get(&ctx, 0, split, 2), {64, 32}))
                  .empty());
  EXPECT_TRUE(registerPermutation(
                  LinearLayout::fromMma(mma, {32, 32}),
                  LinearLayout::fromDotOperand(
                      DotOperandLayoutAttr::get(&ctx, 1, mma, 2), {32, 32}))
                  .empty());
}

// A row vector in the accumulator's own layout (over 64 x 1) broadcast
// along the columns, and a 1 x 1 tile every thread holds, are register
// copies: for every result register, the source register holds the element
// of its row in every lane and warp. A vector with one row per lane is not:
// the accumulator's rows sit on other lanes.
TEST_F(LayoutTest, BroadcastFromTheAccumulatorRowsIsRegisterCopies) {
  auto mma = MmaLayoutAttr::get(&ctx, 3, {4, 1}, {64, 64});
  LinearLayout acc = LinearLayout::fromMma(mma, {64, 64});
  LinearLayout rows = LinearLayout::fromMma(mma, {64, 1});
  std::vector<int64_t> from = broadcastRegisters(rows, acc);
  ASSERT_EQ(int64_t(from.size()), acc.numRegisters());
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t r = 0; r < acc.numRegisters(); ++r) {
        LinearLayout::Coords c = acc.apply(r, lane, warp);
        EXPECT_EQ(rows.apply(from[r], lane, warp),
                  (LinearLayout::Coords{c[0], 0}));
      }
  auto one = BlockedLayoutAttr::get(&ctx, {1, 1}, {32, 1}, {4, 1}, {1, 0});
  std::vector<int64_t> scalar =
      broadcastRegisters(LinearLayout::fromBlocked(one, {1, 1}), acc);
  ASSERT_EQ(int64_t(scalar.size()), acc.numRegisters());
  for (int64_t r : scalar)
    EXPECT_EQ(r, 0);
  EXPECT_TRUE(
      broadcastRegisters(LinearLayout::fromBlocked(one, {64, 1}), acc).empty());
}

// The bits of an mma.sync accumulator (64 x 32, four warps along M) along
// each axis: a row's 32 elements are registers (columns 1, 8, 16) and lanes
// 1 and 2 apart (columns 2, 4); a column's 64 are a register (row 8),
// lanes 4, 8, 16 apart and both warp bits. Each thread then holds the
// reductions of its own elements where the accumulator over the reduced
// shape places them.
TEST_F(LayoutTest, ReductionBitsOfAnAccumulator) {
  auto mma = MmaLayoutAttr::get(&ctx, 2, {4, 1}, {16, 8});
  LinearLayout acc = LinearLayout::fromMma(mma, {64, 32});
  std::optional<AxisBits> rows = reductionBits(acc, 1);
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->registers, (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(rows->lanes, (std::vector<int>{0, 1}));
  EXPECT_TRUE(rows->warps.empty());
  std::optional<AxisBits> cols = reductionBits(acc, 0);
  ASSERT_TRUE(cols);
  EXPECT_EQ(cols->registers, (std::vector<int>{1}));
  EXPECT_EQ(cols->lanes, (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(cols->warps, (std::vector<int>{0, 1}));
  for (int64_t axis : {0, 1}) {
    std::vector<int64_t> shape = {64, 32};
    shape[axis] = 1;
    LinearLayout out = LinearLayout::fromMma(mma, shape);
    EXPECT_EQ(dropAxis(acc, axis).shape(), shape);
    std::optional<InPlaceReduction> plan = inPlaceReduction(acc, out, axis);
    ASSERT_TRUE(plan) << "axis " << axis;
    ASSERT_EQ(int64_t(plan->sourceOf.size()), out.numRegisters());
    // Every result register reads a group of its own thread's elements at
    // its coordinates off the axis, whose registers all lie on that line.
    const int64_t other = 1 - axis;
    for (int64_t warp = 0; warp < 4; ++warp)
      for (int64_t lane = 0; lane < 32; ++lane)
        for (int64_t r = 0; r < out.numRegisters(); ++r) {
          const int64_t line = out.apply(r, lane, warp)[other];
          EXPECT_EQ(acc.apply(plan->sourceOf[r], lane, warp)[other], line);
          const int64_t group = plan->groupOf(plan->sourceOf[r]);
          for (int64_t k = 0; k < acc.numRegisters(); ++k)
            if (plan->groupOf(k) == group)
              EXPECT_EQ(acc.apply(k, lane, warp)[other], line);
        }
    // Two rows (or eight columns) a thread: one group each.
    EXPECT_EQ(plan->groups.size(), axis == 1 ? 2u : 8u);
  }
}

// A layout with a basis along both dimensions (a transpose seen through a
// reshape) or one that reaches an axis coordinate twice does not reduce
// in place.
TEST_F(LayoutTest, ReductionBitsNeedBasesAlongTheAxisOnly) {
  LinearLayout mixed({4, 4}, {{{{1, 1}, {0, 2}}, {{2, 0}}, {}}});
  EXPECT_FALSE(reductionBits(mixed, 1));
  EXPECT_FALSE(reductionBits(mixed, 0));
  LinearLayout twice({4, 2}, {{{{0, 1}, {0, 1}}, {{1, 0}, {2, 0}}, {}}});
  EXPECT_FALSE(reductionBits(twice, 1));
  std::optional<AxisBits> down = reductionBits(twice, 0);
  ASSERT_TRUE(down);
  EXPECT_EQ(down->lanes, (std::vector<int>{0, 1}));
}

// A wgmma accumulator seen through reshapes and a permute (the conv outer
// pass's (re, im) interleave: rows 16 b + 8 j + i of a 64 x 128 tile hold
// part j of output 8 b + i, and pairs[n][2 c + j] = acc[...][c]) is a
// blocked layout of the 32 x 256 result, 4 consecutive elements a thread:
// no element changes thread. Every element keeps its (lane, warp) through
// each step.
TEST_F(LayoutTest, AccumulatorThroughInterleaveIsBlocked) {
  auto mma = MmaLayoutAttr::get(&ctx, 3, {4, 1}, {64, 128});
  LinearLayout acc = LinearLayout::fromMma(mma, {64, 128});
  LinearLayout split = reshapeLayout(acc, {4, 2, 8, 128});
  LinearLayout moved = permuteLayout(split, {0, 2, 3, 1});
  LinearLayout pairs = reshapeLayout(moved, {32, 256});
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t r = 0; r < acc.numRegisters(); ++r) {
        LinearLayout::Coords a = acc.apply(r, lane, warp);
        LinearLayout::Coords p = pairs.apply(r, lane, warp);
        const int64_t b = a[0] / 16, j = a[0] / 8 % 2, i = a[0] % 8;
        EXPECT_EQ(p[0], 8 * b + i);
        EXPECT_EQ(p[1], 2 * a[1] + j);
      }
  BlockedLayoutAttr blocked = blockedLayoutOf(&ctx, pairs);
  ASSERT_TRUE(blocked);
  EXPECT_EQ(blocked.getSizePerThread(), llvm::ArrayRef<unsigned>({1, 4}));
  EXPECT_EQ(blocked.getThreadsPerWarp(), llvm::ArrayRef<unsigned>({8, 4}));
  EXPECT_EQ(blocked.getWarpsPerCTA(), llvm::ArrayRef<unsigned>({4, 1}));
  EXPECT_EQ(blocked.getOrder(), llvm::ArrayRef<unsigned>({1, 0}));
  EXPECT_FALSE(registerPermutation(
                   pairs, LinearLayout::fromBlocked(blocked, {32, 256}))
                   .empty());
  // The 4-D steps are blocked too.
  EXPECT_TRUE(blockedLayoutOf(&ctx, split));
  EXPECT_TRUE(blockedLayoutOf(&ctx, moved));
  // Rows in their plain order (part j of output n in row 32 j + n): j is a
  // warp bit below the register bits of the pairs' columns, so no blocked
  // layout holds the pairs where the accumulator does.
  LinearLayout plain = reshapeLayout(
      permuteLayout(reshapeLayout(acc, {2, 32, 128}), {1, 2, 0}), {32, 256});
  EXPECT_FALSE(blockedLayoutOf(&ctx, plain));
  // Nor the accumulator itself (a register bit between its lanes and
  // warps along the rows).
  EXPECT_FALSE(blockedLayoutOf(&ctx, acc));
}

// blockedLayoutOf inverts fromBlocked: every blocked layout that covers its
// tile without copies comes back as one with the same placement.
TEST_F(LayoutTest, BlockedLayoutOfFindsBlockedLayouts) {
  struct Case {
    std::vector<unsigned> spt, tpw, wpc, order;
    std::vector<int64_t> shape;
  };
  std::vector<Case> cases = {
      {{1, 8}, {2, 16}, {4, 1}, {1, 0}, {64, 128}},
      {{8, 1}, {8, 4}, {1, 4}, {0, 1}, {64, 16}},
      {{1, 1, 2}, {1, 32, 1}, {4, 1, 1}, {2, 1, 0}, {32, 128, 2}},
      {{2, 1, 4}, {1, 1, 32}, {1, 4, 1}, {0, 2, 1}, {2, 32, 128}},
      {{1, 4, 1, 2}, {2, 1, 16, 1}, {1, 2, 1, 2}, {3, 1, 2, 0},
       {4, 8, 16, 4}}};
  for (const Case &c : cases) {
    auto attr = BlockedLayoutAttr::get(&ctx, c.spt, c.tpw, c.wpc, c.order);
    LinearLayout l = LinearLayout::fromBlocked(attr, c.shape);
    BlockedLayoutAttr found = blockedLayoutOf(&ctx, l);
    ASSERT_TRUE(found);
    std::vector<int64_t> from =
        registerPermutation(l, LinearLayout::fromBlocked(found, c.shape));
    ASSERT_EQ(int64_t(from.size()), l.numRegisters());
    EXPECT_EQ(int64_t(std::set<int64_t>(from.begin(), from.end()).size()),
              l.numRegisters());
  }
  // A tile smaller than the layout's pattern has copies: none found.
  auto big = BlockedLayoutAttr::get(&ctx, {1, 8}, {4, 8}, {4, 1}, {1, 0});
  EXPECT_FALSE(
      blockedLayoutOf(&ctx, LinearLayout::fromBlocked(big, {8, 32})));
}


// An accumulator with unit dimensions in front places every element as
// the 2-D accumulator does, with zero coordinates in front.
TEST_F(LayoutTest, AccumulatorWithUnitDimensions) {
  auto mma = MmaLayoutAttr::get(&ctx, 3, {4, 1}, {64, 16});
  LinearLayout flat = LinearLayout::fromMma(mma, {64, 16});
  LinearLayout wide = LinearLayout::get(mma, {1, 1, 64, 16});
  ASSERT_EQ(wide.rank(), 4);
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t r = 0; r < flat.numRegisters(); ++r) {
        LinearLayout::Coords f = flat.apply(r, lane, warp);
        EXPECT_EQ(wide.apply(r, lane, warp),
                  LinearLayout::Coords({0, 0, f[0], f[1]}));
      }
  std::vector<int64_t> same = registerPermutation(flat, wide);
  ASSERT_EQ(int64_t(same.size()), flat.numRegisters());
  for (int64_t r = 0; r < flat.numRegisters(); ++r)
    EXPECT_EQ(same[r], r);
}

// A permute into a blocked layout whose registers run in another order (a
// three-way rotation of the register bits): register r of the result holds
// the element register from[r] of the source held, in every lane and warp.
TEST_F(LayoutTest, PermuteWithRotatedRegisters) {
  auto src = BlockedLayoutAttr::get(&ctx, {2, 2, 2}, {1, 32, 1}, {1, 1, 4},
                                    {2, 1, 0});
  auto dst = BlockedLayoutAttr::get(&ctx, {2, 2, 2}, {32, 1, 1}, {1, 4, 1},
                                    {0, 2, 1});
  LinearLayout in = LinearLayout::fromBlocked(src, {2, 64, 8});
  LinearLayout out = LinearLayout::fromBlocked(dst, {64, 8, 2});
  const std::vector<int64_t> perm = {1, 2, 0};
  LinearLayout moved = permuteLayout(in, perm);
  std::vector<int64_t> from = registerPermutation(moved, out);
  ASSERT_EQ(int64_t(from.size()), out.numRegisters());
  bool identity = true;
  for (int64_t r = 0; r < out.numRegisters(); ++r)
    identity = identity && from[r] == r;
  EXPECT_FALSE(identity);
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t r = 0; r < out.numRegisters(); ++r) {
        LinearLayout::Coords s = in.apply(from[r], lane, warp);
        LinearLayout::Coords d = out.apply(r, lane, warp);
        for (size_t i = 0; i < perm.size(); ++i)
          EXPECT_EQ(d[i], s[perm[i]]);
      }
}

} // namespace

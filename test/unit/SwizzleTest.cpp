//===- SwizzleTest.cpp - the exchange scratch swizzle and its cost model --===//

#include "lowering/LoweringUtils.h"

#include <gtest/gtest.h>

#include <set>

using tessera::lowering::alignedRegisterRun;
using tessera::lowering::exchangeWavefronts;
using tessera::lowering::offsetSplitsByXor;
using tessera::lowering::SharedSwizzle;
using tessera::lowering::swizzledByteOffset;
using tessera::tile::LinearLayout;

namespace {

// Every unit width permutes each 128-byte row onto itself, for 2- to 8-byte
// elements: both sides of an exchange agree on a bijection.
TEST(SwizzleTest, IsAPermutationOfEachRow) {
  for (int64_t bytes : {2, 4, 8})
    for (int64_t unit : {4, 8, 16}) {
      if (unit < bytes)
        continue;
      const int64_t elements = 64 * 1024 / bytes;
      std::set<int64_t> seen;
      for (int64_t i = 0; i < elements; ++i) {
        int64_t offset = swizzledByteOffset(i, bytes, SharedSwizzle{unit});
        ASSERT_EQ(offset / 128, i * bytes / 128) << "left its row";
        ASSERT_EQ(offset % bytes, 0) << "misaligned element";
        ASSERT_TRUE(seen.insert(offset).second)
            << "bytes " << bytes << " unit " << unit << " index " << i;
      }
    }
}

// 32 x 32 f32, one element per thread and register: lane l holds row l
// (lanes down the rows), registers walk the columns. A transposing read has
// every lane on the same bank unswizzled.
LinearLayout rowsOnLanes() {
  std::array<std::vector<LinearLayout::Coords>, 3> bases;
  for (int b = 0; b < 5; ++b)
    bases[LinearLayout::Register].push_back({0, int64_t(1) << b});
  for (int b = 0; b < 5; ++b)
    bases[LinearLayout::Lane].push_back({int64_t(1) << b, 0});
  return LinearLayout({32, 32}, bases);
}

// Lanes along the columns, registers down the rows: consecutive lanes,
// consecutive words.
LinearLayout columnsOnLanes() {
  std::array<std::vector<LinearLayout::Coords>, 3> bases;
  for (int b = 0; b < 5; ++b)
    bases[LinearLayout::Register].push_back({int64_t(1) << b, 0});
  for (int b = 0; b < 5; ++b)
    bases[LinearLayout::Lane].push_back({0, int64_t(1) << b});
  return LinearLayout({32, 32}, bases);
}

int64_t rowMajor(const LinearLayout::Coords &c) { return c[0] * 32 + c[1]; }

TEST(SwizzleTest, ModelCountsBankConflicts) {
  LinearLayout out = rowsOnLanes(), in = columnsOnLanes();
  // Writes: 32 registers, one wavefront each.
  EXPECT_EQ(exchangeWavefronts(in, 4, nullptr, nullptr, 1, {}), 32);
  // Reads into rows-on-lanes: 32 lanes 128 bytes apart, 32-way, 32 times.
  EXPECT_EQ(exchangeWavefronts(in, 4, &out, rowMajor, 1, {}), 32 + 32 * 32);
  // Swizzled, both sides are conflict-free.
  EXPECT_EQ(exchangeWavefronts(in, 4, &out, rowMajor, 1, SharedSwizzle{4}),
            32 + 32);
  // The same layout on both sides needs no swizzle.
  EXPECT_EQ(exchangeWavefronts(in, 4, &in, rowMajor, 1, {}), 64);
}

TEST(SwizzleTest, VectorAccessesRunInPhases) {
  // 16-byte accesses by 32 lanes take 4 wavefronts when conflict-free.
  std::array<std::vector<LinearLayout::Coords>, 3> bases;
  for (int b = 0; b < 2; ++b)
    bases[LinearLayout::Register].push_back({0, int64_t(1) << b});
  for (int b = 2; b < 7; ++b)
    bases[LinearLayout::Lane].push_back({0, int64_t(1) << b});
  LinearLayout vec({1, 128}, bases);
  EXPECT_EQ(exchangeWavefronts(vec, 4, nullptr, nullptr, 1, {}), 4);
}

// Swizzled row-major offsets of a power-of-two tile are linear in the index
// bits, so a thread's offsets are its register 0 offset XOR a constant per
// register: the lowering then computes one offset per thread. A padded
// row-major offset (33 words per row) is not, and must be refused.
TEST(SwizzleTest, ThreadAndRegisterPartsSplitByXor) {
  LinearLayout layout = rowsOnLanes();
  for (int64_t unit : {4, 8, 16})
    EXPECT_TRUE(offsetSplitsByXor(layout, [&](const LinearLayout::Coords &c) {
      return swizzledByteOffset(rowMajor(c), 4, SharedSwizzle{unit});
    })) << unit;
  EXPECT_FALSE(offsetSplitsByXor(layout, [](const LinearLayout::Coords &c) {
    return (c[0] * 33 + c[1]) * 4;
  }));
}

// A run of registers shares one address only when every thread's run holds
// consecutive elements starting at a multiple of the run.
TEST(SwizzleTest, AlignedRegisterRuns) {
  // 4 consecutive elements per thread, lanes 4 apart: runs of 4 (or less
  // when the caller's vector is narrower).
  std::array<std::vector<LinearLayout::Coords>, 3> bases;
  bases[LinearLayout::Register] = {{0, 1}, {0, 2}};
  for (int b = 2; b < 7; ++b)
    bases[LinearLayout::Lane].push_back({0, int64_t(1) << b});
  LinearLayout vec({1, 128}, bases);
  EXPECT_EQ(alignedRegisterRun(vec, 16), 4);
  EXPECT_EQ(alignedRegisterRun(vec, 2), 2);
  // A lane that shifts the run by 2 elements: a thread's run can straddle
  // an aligned group, so no sharing.
  bases[LinearLayout::Lane][0] = {0, 2 ^ 4};
  LinearLayout shifted({1, 128}, bases);
  EXPECT_EQ(alignedRegisterRun(shifted, 16), 1);
  // Registers down the rows: not consecutive at all.
  EXPECT_EQ(alignedRegisterRun(columnsOnLanes(), 16), 1);
}

} // namespace

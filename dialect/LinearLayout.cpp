//===- LinearLayout.cpp - layouts as linear maps over index bits
//-----------===//

#include "dialect/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>

using namespace mlir;

namespace tessera::tile {

LinearLayout LinearLayout::fromBlocked(BlockedLayoutAttr layout,
                                       llvm::ArrayRef<int64_t> shape) {
  const size_t rank = shape.size();
  std::vector<int64_t> covered(rank, 1);
  std::array<std::vector<Coords>, 3> bases;
  // One basis per doubling of the coverage of dimension d: the next
  // coordinate bit, or zero once the tile is covered (copies).
  auto addBits = [&](InDim in, unsigned d, unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      Coords basis(rank, 0);
      if (covered[d] < shape[d])
        basis[d] = covered[d];
      bases[in].push_back(basis);
      covered[d] *= 2;
    }
  };
  auto log2 = [](unsigned v) { return unsigned(llvm::Log2_32(v)); };
  for (unsigned d : layout.getOrder())
    addBits(Register, d, log2(layout.getSizePerThread()[d]));
  for (unsigned d : layout.getOrder())
    addBits(Lane, d, log2(layout.getThreadsPerWarp()[d]));
  for (unsigned d : layout.getOrder())
    addBits(Warp, d, log2(layout.getWarpsPerCTA()[d]));
  // Repeat the pattern over the rest of the tile in registers.
  for (unsigned d : layout.getOrder())
    while (covered[d] < shape[d]) {
      Coords basis(rank, 0);
      basis[d] = covered[d];
      bases[Register].push_back(basis);
      covered[d] *= 2;
    }
  return LinearLayout(std::vector<int64_t>(shape.begin(), shape.end()),
                      std::move(bases));
}

namespace {
/// Builds a 2-D linear layout basis by basis: each added bit doubles the
/// coverage of (row or column) at a fixed stride; bases past the tile's
/// extent are zero (copies).
struct Builder2D {
  std::vector<int64_t> shape;
  std::array<std::vector<LinearLayout::Coords>, 3> bases;
  void add(LinearLayout::InDim in, int dim, int64_t stride) {
    LinearLayout::Coords basis(2, 0);
    if (stride < shape[dim])
      basis[dim] = stride;
    bases[in].push_back(basis);
  }
  /// Registers covering the rest of `dim` from `covered`, doubling.
  void repeat(int dim, int64_t covered) {
    for (int64_t s = covered; s < shape[dim]; s *= 2)
      add(LinearLayout::Register, dim, s);
  }
};
} // namespace

LinearLayout LinearLayout::fromMma(MmaLayoutAttr layout,
                                   llvm::ArrayRef<int64_t> shape) {
  Builder2D b{{shape[0], shape[1]}, {}};
  const int64_t wm = layout.getWarpsPerCTA()[0],
                wn = layout.getWarpsPerCTA()[1];
  const int64_t instrN = layout.getInstrShape()[1];
  // One warp's 16 x 8 accumulator block: c0, c1 on row lane/4, columns
  // 2 (lane % 4) + {0, 1}; c2, c3 eight rows below.
  b.add(Register, 1, 1);
  b.add(Register, 0, 8);
  // wgmma repeats the 16 x 8 block along N within one instruction.
  int64_t covN = 8;
  if (layout.getVersion() == 3)
    for (; covN < instrN; covN *= 2)
      b.add(Register, 1, covN);
  b.add(Lane, 1, 2);
  b.add(Lane, 1, 4);
  b.add(Lane, 0, 1);
  b.add(Lane, 0, 2);
  b.add(Lane, 0, 4);
  // Warps: along M first (a wgmma warpgroup stacks its 4 warps by 16 rows).
  int64_t covM = 16;
  for (int64_t w = 1; w < wm; w *= 2, covM *= 2)
    b.add(Warp, 0, covM);
  for (int64_t w = 1; w < wn; w *= 2, covN *= 2)
    b.add(Warp, 1, covN);
  // Repetitions: columns first, then rows.
  b.repeat(1, covN);
  b.repeat(0, covM);
  return LinearLayout(b.shape, std::move(b.bases));
}

LinearLayout LinearLayout::fromDotOperand(DotOperandLayoutAttr layout,
                                          llvm::ArrayRef<int64_t> shape) {
  Builder2D b{{shape[0], shape[1]}, {}};
  MmaLayoutAttr parent = layout.getParent();
  const int64_t wm = parent.getWarpsPerCTA()[0],
                wn = parent.getWarpsPerCTA()[1];
  const bool isA = layout.getOpIdx() == 0;
  const int kDim = isA ? 1 : 0, outerDim = isA ? 0 : 1;
  const bool tf32 = layout.getKWidth() == 1;
  if (tf32) {
    // m16n8k8 (tf32): A (16 x 8 per warp): a0 at row lane/4, k = lane % 4;
    // a1 eight rows below; a2 a3 the same at k + 4. B (8 x 8): b0 at
    // k = lane % 4, column lane/4; b1 at k + 4.
    if (isA)
      b.add(Register, outerDim, 8);
    b.add(Register, kDim, 4);
    b.add(Lane, kDim, 1);
    b.add(Lane, kDim, 2);
  } else {
    // A (16 x 16 per warp): a0 a1 at row lane/4, k = 2 (lane % 4) + {0, 1};
    // a2 a3 eight rows below; a4..a7 the same at k + 8.
    // B (16 x 8): b0 b1 at k = 2 (lane % 4) + {0, 1}, column lane/4; b2 b3
    // at k + 8.
    b.add(Register, kDim, 1);
    if (isA)
      b.add(Register, outerDim, 8);
    b.add(Register, kDim, 8);
    b.add(Lane, kDim, 2);
    b.add(Lane, kDim, 4);
  }
  b.add(Lane, outerDim, 1);
  b.add(Lane, outerDim, 2);
  b.add(Lane, outerDim, 4);
  // Warps split the parent's M (for A) or N (for B); the others hold copies.
  int64_t covOuter = isA ? 16 : 8;
  for (int64_t w = 1; w < wm; w *= 2) {
    if (isA) {
      b.add(Warp, 0, covOuter);
      covOuter *= 2;
    } else {
      b.bases[Warp].push_back(Coords(2, 0));
    }
  }
  for (int64_t w = 1; w < wn; w *= 2) {
    if (!isA) {
      b.add(Warp, 1, covOuter);
      covOuter *= 2;
    } else {
      b.bases[Warp].push_back(Coords(2, 0));
    }
  }
  // Repetitions: along K first (the k-loop of the instruction), then the
  // outer dimension.
  b.repeat(kDim, tf32 ? 8 : 16);
  b.repeat(outerDim, covOuter);
  return LinearLayout(b.shape, std::move(b.bases));
}

LinearLayout LinearLayout::get(Attribute layout,
                               llvm::ArrayRef<int64_t> shape) {
  if (auto mma = dyn_cast<MmaLayoutAttr>(layout)) {
    // Unit dimensions in front of an accumulator (isTileType) add zero
    // coordinates: the 2-D layout seen through a reshape.
    if (shape.size() == 2)
      return fromMma(mma, shape);
    return reshapeLayout(fromMma(mma, shape.take_back(2)), shape);
  }
  if (auto dot = dyn_cast<DotOperandLayoutAttr>(layout))
    return fromDotOperand(dot, shape);
  return fromBlocked(cast<BlockedLayoutAttr>(layout), shape);
}

LinearLayout::Coords LinearLayout::apply(InDim in, int64_t value) const {
  Coords out(rank(), 0);
  for (int bit = 0; bit < numBits(in); ++bit)
    if (value >> bit & 1)
      for (int64_t d = 0; d < rank(); ++d)
        out[d] ^= bases_[in][bit][d];
  return out;
}

LinearLayout::Coords LinearLayout::apply(int64_t reg, int64_t lane,
                                         int64_t warp) const {
  Coords r = apply(Register, reg), l = apply(Lane, lane), w = apply(Warp, warp);
  for (int64_t d = 0; d < rank(); ++d)
    r[d] ^= l[d] ^ w[d];
  return r;
}

bool LinearLayout::isBroadcastBit(InDim in, int bit) const {
  for (int64_t c : bases_[in][bit])
    if (c != 0)
      return false;
  return true;
}

bool LinearLayout::isDuplicateRegister(int64_t reg) const {
  for (int bit = 0; bit < numBits(Register); ++bit)
    if ((reg >> bit & 1) && isBroadcastBit(Register, bit))
      return true;
  return false;
}

int64_t LinearLayout::rowMajorIndex(const Coords &coords,
                                    llvm::ArrayRef<int64_t> shape) {
  int64_t index = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    index = index * shape[d] + coords[d];
  return index;
}

std::vector<int64_t> registerPermutation(const LinearLayout &from,
                                         const LinearLayout &to) {
  // Every dimension is a power of two, so the row-major index of a XOR of
  // coordinates is the XOR of their indices: comparing indices of the lane
  // and warp bases compares where every thread's elements sit.
  for (auto in : {LinearLayout::Lane, LinearLayout::Warp}) {
    if (from.numBits(in) != to.numBits(in))
      return {};
    for (int bit = 0; bit < from.numBits(in); ++bit)
      if (from.linearIndex(from.bases(in)[bit]) !=
          to.linearIndex(to.bases(in)[bit]))
        return {};
  }
  std::map<int64_t, int64_t> registerOf; // element index -> register
  for (int64_t r = from.numRegisters(); r-- > 0;)
    registerOf[from.linearIndex(from.apply(LinearLayout::Register, r))] = r;
  std::vector<int64_t> out;
  for (int64_t r = 0; r < to.numRegisters(); ++r) {
    auto it =
        registerOf.find(to.linearIndex(to.apply(LinearLayout::Register, r)));
    if (it == registerOf.end())
      return {};
    out.push_back(it->second);
  }
  return out;
}

std::vector<int64_t> broadcastRegisters(const LinearLayout &from,
                                        const LinearLayout &to) {
  // `to` seen on the source: every basis with the broadcast dimensions
  // zeroed, which is linear too (it drops coordinate bits).
  const std::vector<int64_t> &shape = from.shape();
  if (shape.size() != to.shape().size())
    return {};
  std::array<std::vector<LinearLayout::Coords>, 3> bases;
  for (auto in :
       {LinearLayout::Register, LinearLayout::Lane, LinearLayout::Warp})
    for (LinearLayout::Coords c : to.bases(in)) {
      for (size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] != 1 && shape[d] != to.shape()[d])
          return {};
        if (shape[d] == 1)
          c[d] = 0;
      }
      bases[in].push_back(std::move(c));
    }
  return registerPermutation(from, LinearLayout(shape, std::move(bases)));
}

std::optional<AxisBits> reductionBits(const LinearLayout &layout,
                                      int64_t axis) {
  AxisBits bits;
  std::vector<int64_t> steps;
  for (auto in :
       {LinearLayout::Register, LinearLayout::Lane, LinearLayout::Warp}) {
    for (int bit = 0; bit < layout.numBits(in); ++bit) {
      const LinearLayout::Coords &basis = layout.bases(in)[bit];
      if (basis[axis] == 0)
        continue;
      for (int64_t d = 0; d < layout.rank(); ++d)
        if (d != axis && basis[d] != 0)
          return std::nullopt;
      steps.push_back(basis[axis]);
      (in == LinearLayout::Register ? bits.registers
       : in == LinearLayout::Lane   ? bits.lanes
                                    : bits.warps)
          .push_back(bit);
    }
  }
  // Distinct powers of two from 1 to size / 2: each coordinate once.
  llvm::sort(steps);
  int64_t step = 1;
  for (int64_t s : steps) {
    if (s != step)
      return std::nullopt;
    step *= 2;
  }
  if (step != layout.shape()[axis])
    return std::nullopt;
  return bits;
}

LinearLayout dropAxis(const LinearLayout &layout, int64_t axis) {
  std::vector<int64_t> shape = layout.shape();
  shape[axis] = 1;
  std::array<std::vector<LinearLayout::Coords>, 3> bases;
  for (auto in :
       {LinearLayout::Register, LinearLayout::Lane, LinearLayout::Warp})
    for (LinearLayout::Coords c : layout.bases(in)) {
      c[axis] = 0;
      bases[in].push_back(std::move(c));
    }
  return LinearLayout(std::move(shape), std::move(bases));
}

int64_t InPlaceReduction::groupOf(int64_t r) const {
  return llvm::find(groups, r & ~axisRegisters) - groups.begin();
}

std::optional<InPlaceReduction> inPlaceReduction(const LinearLayout &in,
                                                 const LinearLayout &out,
                                                 int64_t axis) {
  std::optional<AxisBits> bits = reductionBits(in, axis);
  if (!bits)
    return std::nullopt;
  std::vector<int64_t> sourceOf = registerPermutation(dropAxis(in, axis), out);
  if (sourceOf.empty())
    return std::nullopt;
  int64_t mask = 0;
  for (int bit : bits->registers)
    mask |= int64_t(1) << bit;
  std::vector<int64_t> groups;
  for (int64_t r : sourceOf)
    if (!llvm::is_contained(groups, r & ~mask))
      groups.push_back(r & ~mask);
  return InPlaceReduction{*bits, std::move(sourceOf), std::move(groups), mask};
}

LinearLayout reshapeLayout(const LinearLayout &layout,
                           llvm::ArrayRef<int64_t> shape) {
  std::array<std::vector<LinearLayout::Coords>, 3> bases;
  for (auto in :
       {LinearLayout::Register, LinearLayout::Lane, LinearLayout::Warp})
    for (const LinearLayout::Coords &c : layout.bases(in)) {
      int64_t index = layout.linearIndex(c);
      LinearLayout::Coords out(shape.size(), 0);
      for (size_t d = shape.size(); d-- > 0;) {
        out[d] = index % shape[d];
        index /= shape[d];
      }
      bases[in].push_back(std::move(out));
    }
  return LinearLayout(std::vector<int64_t>(shape.begin(), shape.end()),
                      std::move(bases));
}

LinearLayout permuteLayout(const LinearLayout &layout,
                           llvm::ArrayRef<int64_t> perm) {
  std::vector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(layout.shape()[p]);
  std::array<std::vector<LinearLayout::Coords>, 3> bases;
  for (auto in :
       {LinearLayout::Register, LinearLayout::Lane, LinearLayout::Warp})
    for (const LinearLayout::Coords &c : layout.bases(in)) {
      LinearLayout::Coords out;
      for (int64_t p : perm)
        out.push_back(c[p]);
      bases[in].push_back(std::move(out));
    }
  return LinearLayout(std::move(shape), std::move(bases));
}

BlockedLayoutAttr blockedLayoutOf(MLIRContext *context,
                                  const LinearLayout &layout) {
  const int64_t rank = layout.rank();
  // The dimension and coordinate bit of each basis.
  auto bitOf = [&](const LinearLayout::Coords &c, int64_t &dim, int &bit) {
    dim = -1;
    for (int64_t d = 0; d < rank; ++d) {
      if (c[d] == 0)
        continue;
      if (dim >= 0 || !llvm::isPowerOf2_64(c[d]))
        return false;
      dim = d;
      bit = llvm::Log2_64(c[d]);
    }
    return dim >= 0;
  };
  // Per dimension: which of its coordinate bits registers, lanes and warps
  // carry, in the order of the input bits.
  std::vector<std::array<std::vector<int>, 3>> bits(rank);
  std::array<std::vector<int64_t>, 3> dims; // dimension of each input bit
  for (auto in :
       {LinearLayout::Register, LinearLayout::Lane, LinearLayout::Warp})
    for (const LinearLayout::Coords &c : layout.bases(in)) {
      int64_t dim;
      int bit;
      if (!bitOf(c, dim, bit))
        return {};
      bits[dim][in].push_back(bit);
      dims[in].push_back(dim);
    }
  SmallVector<unsigned> spt(rank), tpw(rank), wpc(rank);
  for (int64_t d = 0; d < rank; ++d) {
    const int dimBits = llvm::Log2_64(layout.shape()[d]);
    std::vector<int> regs = bits[d][LinearLayout::Register];
    llvm::sort(regs);
    // Registers hold the low bits [0, s), lanes [s, s + l), warps next,
    // registers the rest.
    int s = 0;
    while (s < int(regs.size()) && regs[s] == s)
      ++s;
    int next = s;
    for (auto in : {LinearLayout::Lane, LinearLayout::Warp})
      for (int bit : bits[d][in])
        if (bit != next++)
          return {};
    for (size_t i = s; i < regs.size(); ++i)
      if (regs[i] != next++)
        return {};
    if (next != dimBits)
      return {};
    spt[d] = 1u << s;
    tpw[d] = 1u << bits[d][LinearLayout::Lane].size();
    wpc[d] = 1u << bits[d][LinearLayout::Warp].size();
  }
  // The order: lanes, and warps, take their dimensions in it. Try every
  // order, from the row-major one down, and keep the first whose layout
  // matches; registers may differ in order only.
  SmallVector<unsigned> order;
  for (int64_t d = rank; d-- > 0;)
    order.push_back(d);
  do {
    auto attr = BlockedLayoutAttr::get(context, spt, tpw, wpc, order);
    LinearLayout candidate = LinearLayout::fromBlocked(attr, layout.shape());
    if (!registerPermutation(layout, candidate).empty() &&
        candidate.numRegisters() == layout.numRegisters())
      return attr;
  } while (std::prev_permutation(order.begin(), order.end()));
  return {};
}

BlockedLayoutAttr defaultBlockedLayout(MLIRContext *context,
                                       llvm::ArrayRef<int64_t> shape,
                                       unsigned numWarps, unsigned vector) {
  const unsigned rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1), order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  const unsigned last = rank - 1;
  spt[last] = unsigned(std::min<int64_t>(vector, shape[last]));
  // Lanes, then warps, fill each dimension from the fastest; whatever is
  // left goes to the slowest dimension (those threads hold copies).
  auto distribute = [&](SmallVector<unsigned> &out, unsigned count,
                        auto coveredBy) {
    for (unsigned d : order) {
      int64_t room = std::max<int64_t>(1, shape[d] / coveredBy(d));
      while (count > 1 && room > 1) {
        out[d] *= 2;
        count /= 2;
        room /= 2;
      }
    }
    out[order.back()] *= count;
  };
  distribute(tpw, 32, [&](unsigned d) { return int64_t(spt[d]); });
  distribute(wpc, numWarps,
             [&](unsigned d) { return int64_t(spt[d]) * tpw[d]; });
  return BlockedLayoutAttr::get(context, spt, tpw, wpc, order);
}

} // namespace tessera::tile

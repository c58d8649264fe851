//===- LinearLayout.cpp - layouts as linear maps over index bits -----------===//

#include "dialect/LinearLayout.h"

#include "llvm/Support/MathExtras.h"

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
  Coords r = apply(Register, reg), l = apply(Lane, lane),
         w = apply(Warp, warp);
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

int64_t LinearLayout::linearIndex(const Coords &coords) const {
  int64_t index = 0;
  for (int64_t d = 0; d < rank(); ++d)
    index = index * shape_[d] + coords[d];
  return index;
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

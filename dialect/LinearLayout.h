//===- LinearLayout.h - layouts as linear maps over index bits --*- C++ -*-===//
//
// A distributed layout maps (register, lane, warp) of a CTA to coordinates
// of a tile. Every tile dimension is a power of two, so the map is linear
// over GF(2): each input bit has a basis vector of coordinates, and the
// coordinates of an input are the XOR of the bases of its set bits. Blocked
// layouts (and later MMA layouts) are constructors; the lowering computes
// addresses, masks and shared-memory exchanges from this one form.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_DIALECT_LINEARLAYOUT_H
#define TESSERA_DIALECT_LINEARLAYOUT_H

#include "dialect/TileDialect.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::tile {

class LinearLayout {
public:
  enum InDim { Register = 0, Lane = 1, Warp = 2 };
  using Coords = std::vector<int64_t>;

  LinearLayout(std::vector<int64_t> shape,
               std::array<std::vector<Coords>, 3> bases)
      : shape_(std::move(shape)), bases_(std::move(bases)) {}

  /// The linear layout of a blocked layout over a tile of `shape`.
  static LinearLayout fromBlocked(BlockedLayoutAttr layout,
                                  llvm::ArrayRef<int64_t> shape);

  /// Tensor Core accumulators (mma.sync m16n8 or wgmma m64nN) over `shape`.
  static LinearLayout fromMma(MmaLayoutAttr layout,
                              llvm::ArrayRef<int64_t> shape);
  /// The A (M x K) or B (K x N) fragments of mma.sync m16n8k16.
  static LinearLayout fromDotOperand(DotOperandLayoutAttr layout,
                                     llvm::ArrayRef<int64_t> shape);
  /// Any distributed layout (blocked, mma, dot_operand) over `shape`.
  static LinearLayout get(mlir::Attribute layout,
                          llvm::ArrayRef<int64_t> shape);

  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t rank() const { return shape_.size(); }
  const std::vector<Coords> &bases(InDim in) const { return bases_[in]; }
  int numBits(InDim in) const { return bases_[in].size(); }
  /// Registers each thread holds (copies included).
  int64_t numRegisters() const { return int64_t(1) << numBits(Register); }

  /// Coordinates of bit pattern `value` of input `in` alone.
  Coords apply(InDim in, int64_t value) const;
  /// Coordinates of (register, lane, warp).
  Coords apply(int64_t reg, int64_t lane, int64_t warp) const;

  /// True if input bit `bit` of `in` maps to the zero vector: threads (or
  /// registers) that differ only in such bits hold the same element.
  bool isBroadcastBit(InDim in, int bit) const;

  /// A register holds a copy of a lower register's element when one of its
  /// set bits is a broadcast bit.
  bool isDuplicateRegister(int64_t reg) const;

  /// Row-major linear index of coordinates in the tile.
  int64_t linearIndex(const Coords &coords) const {
    return rowMajorIndex(coords, shape_);
  }
  /// Row-major linear index of coordinates in `shape`.
  static int64_t rowMajorIndex(const Coords &coords,
                               llvm::ArrayRef<int64_t> shape);

private:
  std::vector<int64_t> shape_;
  std::array<std::vector<Coords>, 3> bases_;
};

/// When every thread holds in `to` only elements it already holds in `from`
/// (the same lanes and warps, the registers reordered or dropped), the
/// register of `from` that holds each register of `to`; otherwise empty.
/// Both layouts are of tiles with the same elements in row-major order
/// (a layout conversion or a reshape), so a conversion between them moves
/// no data between threads.
std::vector<int64_t> registerPermutation(const LinearLayout &from,
                                         const LinearLayout &to);

/// For a broadcast from `from` (over a shape whose broadcast dimensions
/// are 1) to `to`: when every thread already holds in `from` each source
/// element its `to` registers need, the register of `from` that holds the
/// source of each register of `to`; otherwise empty (the broadcast moves
/// data between threads).
std::vector<int64_t> broadcastRegisters(const LinearLayout &from,
                                        const LinearLayout &to);

/// The input bits of a layout that move along one axis of its tile.
struct AxisBits {
  std::vector<int> registers, lanes, warps;
};

/// The bits of `layout` along `axis` when a reduction along it can combine
/// in place: every basis moves along the axis only or not along it, and the
/// bits along it reach each coordinate of the axis once (in any order).
/// Each thread then combines its registers by `registers`, its lanes by
/// butterfly shuffles over `lanes`, and the warps by `warps`. nullopt
/// otherwise.
std::optional<AxisBits> reductionBits(const LinearLayout &layout, int64_t axis);

/// `layout` with `axis` reduced to size 1 (its coordinates along the axis
/// dropped): where each thread holds the results of a reduction along the
/// axis that combined in place (reductionBits).
LinearLayout dropAxis(const LinearLayout &layout, int64_t axis);

/// A reduction along `axis` from a tile in `in` to one in `out` (its shape
/// with the axis 1) that combines in place: the bits along the axis, and
/// for each register of `out` the register of `in` whose group (the
/// registers that differ from it only along the axis) gives it.
struct InPlaceReduction {
  AxisBits bits;
  std::vector<int64_t> sourceOf;
  /// The distinct groups sourceOf reads (their registers with the axis
  /// bits clear), in first-use order.
  std::vector<int64_t> groups;
  /// The register bits along the axis, as a mask.
  int64_t axisRegisters = 0;
  /// The index into `groups` of register `r` of `in`'s group.
  int64_t groupOf(int64_t r) const;
};

/// How a reduction combines in place (reductionBits of `in`, and `out`
/// holding in each thread the results of its own elements: dropAxis(in)
/// to `out` moves registers only), or nullopt. The element type is the
/// caller's to check (the lowering combines 32-bit registers).
std::optional<InPlaceReduction>
inPlaceReduction(const LinearLayout &in, const LinearLayout &out, int64_t axis);

/// `layout` seen through a reshape to `shape` (the same elements in
/// row-major order): each basis becomes the coordinates of its row-major
/// index in `shape`.
LinearLayout reshapeLayout(const LinearLayout &layout,
                           llvm::ArrayRef<int64_t> shape);

/// `layout` seen through tile.permute: dimension i of the result is
/// dimension perm[i] of the source.
LinearLayout permuteLayout(const LinearLayout &layout,
                           llvm::ArrayRef<int64_t> perm);

/// A blocked layout that places every element with the same lane and warp
/// as `layout` (its registers possibly in another order), or null if there
/// is none: every basis must be one coordinate bit (no copies), and along
/// each dimension the bits must run registers, lanes, warps, registers.
BlockedLayoutAttr blockedLayoutOf(mlir::MLIRContext *context,
                                  const LinearLayout &layout);

/// The default blocked layout of a tile of `shape`: `vector` consecutive
/// elements per thread along the last dimension (fewer if it is shorter),
/// lanes and then warps filling the dimensions from the last, leftovers on
/// the first.
BlockedLayoutAttr defaultBlockedLayout(mlir::MLIRContext *context,
                                       llvm::ArrayRef<int64_t> shape,
                                       unsigned numWarps, unsigned vector = 8);

} // namespace tessera::tile

#endif // TESSERA_DIALECT_LINEARLAYOUT_H

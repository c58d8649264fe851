//===- AsyncToLLVM.cpp - shared memory, mbarriers, TMA and wgmma ----------===//
//
// The Hopper data path: buffers at fixed offsets of the dynamic shared
// memory (assigned by assignSharedMemory before the conversion), mbarriers,
// TMA copies (`cp.async.bulk.tensor`) whose tensor maps arrive as trailing
// kernel parameters, and `wgmma.mma_async` reading #tile.nvmma_shared
// operands through matrix descriptors. Everything is inline PTX: the
// instructions are few and their operand rules (descriptor bits, the
// predicate operand of wgmma) are clearer written out than through NVVM ops.
//
//===----------------------------------------------------------------------===//

#include "lowering/Patterns.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <numeric>

using namespace mlir;

namespace tessera::lowering {

static constexpr const char *kSmemOffsetAttr = "tile.smem_offset";
static constexpr const char *kTmaSlotAttr = "tile.tma_slot";
static constexpr const char *kAsyncProxyAttr = "tile.async_proxy";

//===----------------------------------------------------------------------===//
// Shared-memory and tensor-map assignment (before the conversion)
//===----------------------------------------------------------------------===//

namespace {

/// Where a buffer is live, in the pre-order numbering of the kernel's ops.
struct Lifetime {
  int64_t start, end;
};

/// Lifetimes of the kernel's buffers. A buffer filled from a tile lives
/// from its local_alloc to its last reader; a use inside a nested region
/// (a loop) keeps it to the end of the op holding that region in the
/// buffer's block; a wgmma reads until the wait for its group, and to the
/// end of the block when that wait leaves groups in flight. Buffers written
/// asynchronously (rings) and mbarriers live for the whole kernel: nothing
/// orders an async write after another buffer's last reads.
/// pos[op]: the op's pre-order number in the kernel; last[op]: the largest
/// number inside op (its own when it has no regions).
void numberOps(tile::KernelOp kernel, llvm::DenseMap<Operation *, int64_t> &pos,
               llvm::DenseMap<Operation *, int64_t> &last) {
  int64_t n = 0;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) { pos[op] = n++; });
  kernel.walk<WalkOrder::PostOrder>([&](Operation *op) {
    int64_t end = pos[op];
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (Operation &inner : b)
          end = std::max(end, last[&inner]);
    last[op] = end;
  });
}

llvm::DenseMap<Operation *, Lifetime> lifetimes(tile::KernelOp kernel) {
  llvm::DenseMap<Operation *, int64_t> pos, last;
  numberOps(kernel, pos, last);
  int64_t n = int64_t(pos.size());
  llvm::DenseMap<Operation *, Lifetime> result;
  kernel.walk([&](Operation *op) {
    auto alloc = dyn_cast<tile::LocalAllocOp>(op);
    if (!isa<tile::LocalAllocOp, tile::BarrierAllocOp>(op))
      return;
    if (!alloc || !alloc.getInit()) {
      result[op] = {0, n};
      return;
    }
    Block *block = op->getBlock();
    int64_t end = pos[op];
    auto reach = [&](Operation *user) {
      Operation *at = block->findAncestorOpInBlock(*user);
      if (!at)
        end = n; // used outside the block: keep it
      else
        end = std::max(end, at == user ? pos[at] : last[at]);
    };
    // A wgmma reads the buffer until the pending-0 wait for it, or for a
    // product chained onto it (tile-defer-mma-waits), completes.
    std::function<void(Operation *)> reachMma = [&](Operation *mma) {
      for (Operation *next : mma->getUsers()) {
        reach(next);
        if (isa<tile::WarpgroupMmaOp>(next)) {
          reachMma(next);
          continue;
        }
        auto w = dyn_cast<tile::WarpgroupMmaWaitOp>(next);
        if (!w || w.getPending() != 0)
          end = std::max(end, last[block->getParentOp()]);
      }
    };
    for (Operation *user : op->getUsers()) {
      reach(user);
      if (isa<tile::WarpgroupMmaOp>(user))
        reachMma(user);
    }
    result[op] = {pos[op], end};
  });
  return result;
}

} // namespace

void assignSharedMemory(tile::KernelOp kernel, bool scratchLifetimes) {
  MLIRContext *ctx = kernel.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  llvm::DenseMap<Operation *, Lifetime> live = lifetimes(kernel);

  // What needs room: buffers (local_alloc, barrier_alloc) and exchange
  // scratch. A scratch region serves the exchanges under one op of the
  // kernel's body and lives as long as that op: an exchange in a loop
  // shares its region with every exchange of the loop and with no buffer
  // the loop uses. Without scratchLifetimes, one region at offset 0 serves
  // every exchange.
  struct Item {
    Operation *op; // the buffer, or the body op a scratch region serves
    Lifetime time;
    int64_t size, align;
    bool scratch;
  };
  SmallVector<Item> items;
  Block &body = kernel.getBody().front();
  llvm::DenseMap<Operation *, int64_t> pos, last;
  numberOps(kernel, pos, last);
  llvm::MapVector<Operation *, int64_t> regions;          // body op -> bytes
  SmallVector<std::pair<Operation *, Operation *>> users; // exchange, body op
  int64_t sharedScratch = 0;
  kernel.walk([&](Operation *op) {
    int64_t bytes = sharedScratchBytes(op);
    if (!bytes)
      return;
    if (!scratchLifetimes) {
      sharedScratch = std::max(sharedScratch, bytes);
      return;
    }
    Operation *top = body.findAncestorOpInBlock(*op);
    int64_t &size = regions[top];
    size = std::max(size, bytes);
    users.push_back({op, top});
  });
  for (auto [top, bytes] : regions)
    items.push_back({top, {pos[top], last[top]}, bytes, 1024, true});
  kernel.walk([&](Operation *op) {
    auto type = op->getNumResults() == 1
                    ? dyn_cast<tile::SharedMemType>(op->getResult(0).getType())
                    : tile::SharedMemType();
    if (!type || !isa<tile::LocalAllocOp, tile::BarrierAllocOp>(op))
      return;
    items.push_back({op, live.lookup(op), type.getSizeInBytes(),
                     type.getEncoding() ? 1024 : 16, false});
  });
  // The 1024-aligned first (swizzled buffers, scratch), so that small ones
  // (mbarriers) do not push them up; among those the longest-lived first
  // (rings, then loops), so that short lives fill the gaps between them;
  // then program order.
  if (scratchLifetimes)
    llvm::stable_sort(items, [](const Item &x, const Item &y) {
      int64_t lx = x.time.end - x.time.start, ly = y.time.end - y.time.start;
      return x.align != y.align ? x.align > y.align : lx > ly;
    });

  // First fit among the items whose lifetimes overlap; swizzled buffers and
  // scratch start on 1024 bytes, where swizzle patterns repeat. Anything
  // reused after another is written behind a CTA barrier (a filled
  // local_alloc, an exchange), after the last reader of the one before.
  struct Placed {
    Lifetime time;
    int64_t offset, size;
  };
  SmallVector<Placed> placed;
  llvm::DenseMap<Operation *, int64_t> regionOffset;
  int64_t total = sharedScratch;
  for (const Item &item : items) {
    SmallVector<Placed> overlapping;
    for (const Placed &p : placed)
      if (!(p.time.end < item.time.start || item.time.end < p.time.start))
        overlapping.push_back(p);
    llvm::sort(overlapping, [](const Placed &a, const Placed &b) {
      return a.offset < b.offset;
    });
    int64_t offset = int64_t(llvm::alignTo(sharedScratch, item.align));
    for (const Placed &p : overlapping) {
      if (offset + item.size <= p.offset)
        break;
      offset = std::max<int64_t>(offset,
                                 llvm::alignTo(p.offset + p.size, item.align));
    }
    placed.push_back({item.time, offset, item.size});
    total = std::max(total, offset + item.size);
    if (item.scratch) {
      regionOffset[item.op] = offset;
      continue;
    }
    Operation *op = item.op;
    op->setAttr(kSmemOffsetAttr, IntegerAttr::get(i64, offset));
    // Buffers wgmma reads need a proxy fence after generic-proxy writes.
    if (llvm::any_of(op->getUsers(), [](Operation *user) {
          return isa<tile::WarpgroupMmaOp>(user);
        }))
      op->setAttr(kAsyncProxyAttr, UnitAttr::get(ctx));
  }
  for (auto [exchange, top] : users)
    exchange->setAttr(kSmemOffsetAttr,
                      IntegerAttr::get(i64, regionOffset.lookup(top)));
  kernel->setAttr("tile.shared_bytes", IntegerAttr::get(i64, total));

  // One tensor map per (view argument, box, swizzle).
  SmallVector<Attribute> maps;
  kernel.walk([&](tile::AsyncLoadOp op) {
    if (op.getCpAsync())
      return;
    tile::SharedMemType dest = op.getDest().getType();
    auto nv = cast<tile::NvmmaSharedLayoutAttr>(dest.getEncoding());
    int64_t span = nv.getSwizzle(),
            perSlab = span / elementBytes(dest.getElementType());
    SmallVector<int64_t> entry = {
        cast<BlockArgument>(op.getView()).getArgNumber(), dest.getShape()[0],
        std::min(dest.getShape()[1], perSlab), span};
    auto attr = DenseI64ArrayAttr::get(ctx, entry);
    auto *it = llvm::find(maps, attr);
    if (it == maps.end()) {
      maps.push_back(attr);
      it = maps.end() - 1;
    }
    op->setAttr(kTmaSlotAttr, IntegerAttr::get(i64, it - maps.begin()));
  });
  if (!maps.empty())
    kernel->setAttr(kTmaAttrName, ArrayAttr::get(ctx, maps));
}

namespace {

Value asmOp(OpBuilder &b, Location loc, TypeRange results, ValueRange operands,
            StringRef text, StringRef constraints, bool sideEffects = true) {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, results, operands, text, constraints, sideEffects,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  return op.getNumResults() ? op.getResult(0) : Value();
}

/// The 32-bit shared-window address of a shared pointer.
Value sharedAddress(OpBuilder &b, Location loc, Value ptr) {
  Value i = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
  return LLVM::TruncOp::create(b, loc, b.getI32Type(), i);
}

Value bufferBase(OpBuilder &b, Location loc, Operation *op) {
  int64_t offset = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr).getInt();
  Value base = sharedMemoryBase(b, loc, op);
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(offset)});
}

Value gepBytes(OpBuilder &b, Location loc, Value ptr, Value bytes) {
  return LLVM::GEPOp::create(b, loc, ptr.getType(), b.getI8Type(), ptr,
                             ValueRange{bytes});
}

Value toI32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isInteger(32))
    return v;
  return LLVM::TruncOp::create(b, loc, b.getI32Type(), v);
}

/// Byte offset (i64) of (row, col) in a #tile.nvmma_shared rows x cols tile:
/// NvmmaSharedLayoutAttr::offsetBytes on run-time coordinates.
Value nvmmaOffset(OpBuilder &b, Location loc, tile::NvmmaSharedLayoutAttr nv,
                  Value row, Value col, int64_t rows, int64_t eb) {
  const int64_t span = nv.getSwizzle(), perSlab = span / eb;
  auto c = [&](int64_t v) { return i64Const(b, loc, v); };
  auto shr = [&](Value v, int64_t s) {
    return LLVM::LShrOp::create(b, loc, v, c(llvm::Log2_64(s)));
  };
  auto shl = [&](Value v, int64_t s) {
    return LLVM::ShlOp::create(b, loc, v, c(llvm::Log2_64(s)));
  };
  auto mask = [&](Value v, int64_t m) {
    return LLVM::AndOp::create(b, loc, v, c(m - 1));
  };
  Value slab = shr(col, perSlab);
  Value byte = shl(mask(col, perSlab), eb);
  Value phase = mask(shr(row, 128 / span), span / 16);
  Value chunk = LLVM::XOrOp::create(b, loc, shr(byte, 16), phase);
  Value off = shl(slab, rows * span);
  off = LLVM::AddOp::create(b, loc, off, shl(row, span));
  off = LLVM::AddOp::create(b, loc, off, shl(chunk, 16));
  return LLVM::AddOp::create(b, loc, off, mask(byte, 16));
}

//===----------------------------------------------------------------------===//
// Buffers and barriers
//===----------------------------------------------------------------------===//

/// stmatrix (sm_90) of 16-bit tiles in the mma fragment layout (thread t
/// holds row t / 4, columns 2 (t % 4) and + 1 of each 8 x 8 block; the
/// accumulator and A-operand layouts): four 8 x 8 blocks per instruction,
/// lane l giving the address of row l % 8 of block l / 8. Each block row is
/// one 16-byte chunk of the swizzled buffer. False (nothing emitted) when
/// the layout is not of that form.
bool storeMatrixFragments(ConversionPatternRewriter &rewriter, Location loc,
                          const tile::LinearLayout &layout,
                          tile::NvmmaSharedLayoutAttr nv, int64_t eb,
                          int64_t rows, Value base, ArrayRef<Value> values,
                          Value lane, Value warp) {
  using LL = tile::LinearLayout;
  using Coords = LL::Coords;
  const int64_t numRegs = layout.numRegisters();
  if (eb != 2 || numRegs % 8 != 0 ||
      layout.bases(LL::Register)[0] != Coords{0, 1} ||
      layout.numBits(LL::Lane) != 5)
    return false;
  const Coords lanes[] = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  for (int bit = 0; bit < 5; ++bit)
    if (layout.bases(LL::Lane)[bit] != lanes[bit])
      return false;
  auto blockAligned = [](const Coords &c) {
    return c[0] % 8 == 0 && c[1] % 8 == 0;
  };
  for (int bit = 1; bit < layout.numBits(LL::Register); ++bit)
    if (!blockAligned(layout.bases(LL::Register)[bit]))
      return false;
  for (const Coords &c : layout.bases(LL::Warp))
    if (!blockAligned(c))
      return false;
  auto c32 = [&](int64_t v) { return i32Const(rewriter, loc, v); };
  auto c64 = [&](int64_t v) { return i64Const(rewriter, loc, v); };
  SmallVector<Value> warpPart =
      runtimeCoords(rewriter, loc, layout, LL::Warp, warp);
  Value row8 =
      LLVM::ZExtOp::create(rewriter, loc, rewriter.getI64Type(),
                           LLVM::AndOp::create(rewriter, loc, lane, c32(7)));
  Value matrix = LLVM::LShrOp::create(rewriter, loc, lane, c32(3));
  auto pack = [&](Value lo, Value hi) {
    Type i16 = rewriter.getI16Type(), i32 = rewriter.getI32Type();
    Value l = LLVM::ZExtOp::create(
        rewriter, loc, i32, LLVM::BitcastOp::create(rewriter, loc, i16, lo));
    Value h = LLVM::ZExtOp::create(
        rewriter, loc, i32, LLVM::BitcastOp::create(rewriter, loc, i16, hi));
    return LLVM::OrOp::create(rewriter, loc, l,
                              LLVM::ShlOp::create(rewriter, loc, h, c32(16)));
  };
  for (int64_t r0 = 0; r0 < numRegs; r0 += 8) {
    // Block m of this group starts at register r0 + 2 m; this lane's block
    // is chosen at run time among the four.
    Value blockRow = c64(0), blockCol = c64(0);
    for (int64_t m = 0; m < 4; ++m) {
      Coords c = layout.apply(LL::Register, r0 + 2 * m);
      Value is = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                      matrix, c32(m));
      blockRow = LLVM::SelectOp::create(rewriter, loc, is, c64(c[0]), blockRow);
      blockCol = LLVM::SelectOp::create(rewriter, loc, is, c64(c[1]), blockCol);
    }
    Value row = LLVM::AddOp::create(
        rewriter, loc,
        LLVM::XOrOp::create(rewriter, loc, blockRow, warpPart[0]), row8);
    Value col = LLVM::XOrOp::create(rewriter, loc, blockCol, warpPart[1]);
    Value ptr = gepBytes(rewriter, loc, base,
                         nvmmaOffset(rewriter, loc, nv, row, col, rows, eb));
    SmallVector<Value> operands = {sharedAddress(rewriter, loc, ptr)};
    for (int64_t m = 0; m < 4; ++m)
      operands.push_back(pack(values[r0 + 2 * m], values[r0 + 2 * m + 1]));
    asmOp(rewriter, loc, {}, operands,
          "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};",
          "r,r,r,r,r");
  }
  return true;
}

struct LocalAllocLowering : OpConversionPattern<tile::LocalAllocOp> {
  LocalAllocLowering(TypeConverter &converter, MLIRContext *context,
                     bool storeMatrices)
      : OpConversionPattern(converter, context), storeMatrices(storeMatrices) {}
  bool storeMatrices;
  LogicalResult
  matchAndRewrite(tile::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = bufferBase(rewriter, loc, op);
    if (!op.getInit()) {
      rewriter.replaceOp(op, base);
      return success();
    }
    auto type = cast<RankedTensorType>(op.getInit().getType());
    tile::SharedMemType buffer = op.getResult().getType();
    auto nv =
        dyn_cast_or_null<tile::NvmmaSharedLayoutAttr>(buffer.getEncoding());
    if (!nv || type.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "only 2-D nvmma buffers");
    tile::LinearLayout layout = layoutOf(type);
    Type element =
        TileTypeConverter::registerElementType(type.getElementType());
    const int64_t eb = elementBytes(element), rows = type.getDimSize(0);
    // Registers that hold consecutive columns go out as one vector of up
    // to 16 bytes (one swizzle chunk, never split by the XOR).
    int64_t vec = 1;
    while (vec * eb < 16 && vec < layout.numRegisters() &&
           layout.apply(tile::LinearLayout::Register, vec) ==
               tile::LinearLayout::Coords{0, vec})
      vec *= 2;
    SmallVector<Value> values = unpackStruct(rewriter, loc, adaptor.getInit());
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    barrier(rewriter, loc); // readers of the previous contents are done
    if (storeMatrices && targetsSm90(op) &&
        storeMatrixFragments(rewriter, loc, layout, nv, eb, rows, base, values,
                             lane, warp)) {
      if (op->hasAttr(kAsyncProxyAttr))
        asmOp(rewriter, loc, {}, {}, "fence.proxy.async.shared::cta;", "");
      barrier(rewriter, loc);
      rewriter.replaceOp(op, base);
      return success();
    }
    auto vecType = VectorType::get({vec}, element);
    for (int64_t r = 0; r < layout.numRegisters(); r += vec) {
      SmallVector<Value> coords =
          registerCoords(rewriter, loc, layout, r, lane, warp);
      Value off =
          nvmmaOffset(rewriter, loc, nv, coords[0], coords[1], rows, eb);
      Value ptr = gepBytes(rewriter, loc, base, off);
      Value v = LLVM::UndefOp::create(rewriter, loc, vecType);
      for (int64_t i = 0; i < vec; ++i)
        v = LLVM::InsertElementOp::create(rewriter, loc, v, values[r + i],
                                          i32Const(rewriter, loc, i));
      LLVM::StoreOp::create(rewriter, loc, v, ptr, vec * eb);
    }
    // Generic-proxy writes must be made visible to wgmma (async proxy).
    if (op->hasAttr(kAsyncProxyAttr))
      asmOp(rewriter, loc, {}, {}, "fence.proxy.async.shared::cta;", "");
    barrier(rewriter, loc);
    rewriter.replaceOp(op, base);
    return success();
  }
};

/// ldmatrix (x4, or x2 for a lone 16 x 8 B block) into mma.sync fragments:
/// lane l supplies the row address of matrix l / 8, row l % 8. Which
/// element that is comes from the fragment layout itself: for A (not
/// transposed) the thread 4 (l % 8) holds the row's first element in its
/// register 2 (l / 8) of the group; for B (.trans, rows of K) the thread
/// (l % 8) / 2 holds it in register 2 (l / 8) + l % 2.
LogicalResult lowerLdmatrix(tile::LocalLoadOp op, Value base,
                            ConversionPatternRewriter &rewriter,
                            const TypeConverter *converter) {
  Location loc = op.getLoc();
  RankedTensorType type = op.getResult().getType();
  auto dot = cast<tile::DotOperandLayoutAttr>(type.getEncoding());
  auto nv =
      cast<tile::NvmmaSharedLayoutAttr>(op.getBuffer().getType().getEncoding());
  tile::LinearLayout layout = layoutOf(type);
  const bool trans = dot.getOpIdx() == 1;
  using Coords = tile::LinearLayout::Coords;
  // The fragment layout must be the one ldmatrix produces.
  auto reg = [&](int64_t r) {
    return layout.apply(tile::LinearLayout::Register, r);
  };
  auto lane = [&](int64_t l) {
    return layout.apply(tile::LinearLayout::Lane, l);
  };
  bool fits = trans ? reg(1) == Coords{1, 0} && lane(1) == Coords{2, 0} &&
                          lane(2) == Coords{4, 0} && lane(4) == Coords{0, 1}
                    : reg(1) == Coords{0, 1} && lane(1) == Coords{0, 2} &&
                          lane(2) == Coords{0, 4} && lane(4) == Coords{1, 0};
  const int64_t numRegs = layout.numRegisters();
  const int64_t group = numRegs >= 8 ? 8 : 4;
  if (!fits || numRegs % group != 0)
    return failure();
  const int64_t rows = type.getDimSize(0), eb = 2;
  Type element = type.getElementType();
  Value l = laneId(rewriter, loc), warp = warpId(rewriter, loc);
  auto c32 = [&](int64_t v) { return i32Const(rewriter, loc, v); };
  Value row8 = LLVM::AndOp::create(rewriter, loc, l, c32(7));
  Value matrix = LLVM::LShrOp::create(rewriter, loc, l, c32(3));
  // Register bits (within the group) and lane of the element this lane
  // addresses.
  Value regBits = LLVM::ShlOp::create(rewriter, loc, matrix, c32(1));
  Value srcLane;
  if (trans) {
    regBits = LLVM::OrOp::create(rewriter, loc, regBits,
                                 LLVM::AndOp::create(rewriter, loc, l, c32(1)));
    srcLane = LLVM::LShrOp::create(rewriter, loc, row8, c32(1));
  } else {
    srcLane = LLVM::ShlOp::create(rewriter, loc, row8, c32(2));
  }
  SmallVector<Value> regPart = runtimeCoords(
      rewriter, loc, layout, tile::LinearLayout::Register, regBits);
  SmallVector<Value> lanePart =
      runtimeCoords(rewriter, loc, layout, tile::LinearLayout::Lane, srcLane);
  SmallVector<Value> warpPart =
      runtimeCoords(rewriter, loc, layout, tile::LinearLayout::Warp, warp);
  SmallVector<Value> values;
  auto vec2 = VectorType::get({2}, element);
  const int64_t x = group / 2; // 32-bit registers per ldmatrix
  std::string text = std::string("ldmatrix.sync.aligned.m8n8.x") +
                     std::to_string(x) + (trans ? ".trans" : "") +
                     ".shared.b16 {";
  std::string constraints;
  for (int64_t i = 0; i < x; ++i) {
    text += (i ? ", $" : "$") + std::to_string(i);
    constraints += (i ? ",=r" : "=r");
  }
  text += "}, [$" + std::to_string(x) + "];";
  constraints += ",r";
  SmallVector<Type> i32s(x, rewriter.getI32Type());
  Type resultType =
      LLVM::LLVMStructType::getLiteral(rewriter.getContext(), i32s);
  for (int64_t g = 0; g < numRegs; g += group) {
    Coords fixed = reg(g);
    SmallVector<Value> coords;
    for (int d = 0; d < 2; ++d) {
      Value c = LLVM::XOrOp::create(rewriter, loc, regPart[d], lanePart[d]);
      c = LLVM::XOrOp::create(rewriter, loc, c, warpPart[d]);
      coords.push_back(LLVM::XOrOp::create(rewriter, loc, c,
                                           i64Const(rewriter, loc, fixed[d])));
    }
    Value off = nvmmaOffset(rewriter, loc, nv, coords[0], coords[1], rows, eb);
    Value addr =
        sharedAddress(rewriter, loc, gepBytes(rewriter, loc, base, off));
    // Marked as having side effects: it reads shared memory, which LLVM
    // cannot see, so it must stay between the barriers around the writes
    // of this buffer and of any buffer that later reuses its space.
    Value out = asmOp(rewriter, loc, resultType, {addr}, text, constraints,
                      /*sideEffects=*/true);
    for (int64_t i = 0; i < x; ++i) {
      Value word = extract(rewriter, loc, out, i);
      Value pair = LLVM::BitcastOp::create(rewriter, loc, vec2, word);
      for (int64_t j = 0; j < 2; ++j)
        values.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, pair, i32Const(rewriter, loc, j)));
    }
  }
  rewriter.replaceOp(
      op, packStruct(rewriter, loc, converter->convertType(type), values));
  return success();
}

struct LocalLoadLowering : OpConversionPattern<tile::LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResult().getType();
    tile::SharedMemType buffer = op.getBuffer().getType();
    auto nv =
        dyn_cast_or_null<tile::NvmmaSharedLayoutAttr>(buffer.getEncoding());
    if (!nv || type.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "only 2-D nvmma buffers");
    if (isa<tile::DotOperandLayoutAttr>(type.getEncoding()) &&
        elementBytes(type.getElementType()) == 2 &&
        succeeded(lowerLdmatrix(op, adaptor.getBuffer(), rewriter,
                                getTypeConverter())))
      return success();
    // Any other layout: element by element.
    Location loc = op.getLoc();
    tile::LinearLayout layout = layoutOf(type);
    Type element =
        TileTypeConverter::registerElementType(type.getElementType());
    const int64_t eb = elementBytes(element);
    Value lane = laneId(rewriter, loc), warp = warpId(rewriter, loc);
    SmallVector<Value> values;
    for (int64_t r = 0; r < layout.numRegisters(); ++r) {
      SmallVector<Value> coords =
          registerCoords(rewriter, loc, layout, r, lane, warp);
      Value off = nvmmaOffset(rewriter, loc, nv, coords[0], coords[1],
                              type.getDimSize(0), eb);
      Value ptr = gepBytes(rewriter, loc, adaptor.getBuffer(), off);
      values.push_back(LLVM::LoadOp::create(rewriter, loc, element, ptr, eb));
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(type),
                                      values));
    return success();
  }
};

struct LocalIndexLowering : OpConversionPattern<tile::LocalIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::LocalIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t stage = op.getResult().getType().getSizeInBytes();
    Value off = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                    i64Const(rewriter, loc, stage));
    rewriter.replaceOp(op, gepBytes(rewriter, loc, adaptor.getBuffer(), off));
    return success();
  }
};

Value barrierAt(OpBuilder &b, Location loc, Value bars, Value index) {
  Value off = LLVM::MulOp::create(b, loc, index, i64Const(b, loc, 8));
  return sharedAddress(b, loc, gepBytes(b, loc, bars, off));
}

struct BarrierAllocLowering : OpConversionPattern<tile::BarrierAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::BarrierAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = bufferBase(rewriter, loc, op);
    Value tid = threadId(rewriter, loc);
    Value count = i32Const(rewriter, loc, op.getCount());
    for (int64_t i = 0; i < op.getResult().getType().getShape()[0]; ++i) {
      Value bar = barrierAt(rewriter, loc, base, i64Const(rewriter, loc, i));
      asmOp(rewriter, loc, {}, {tid, bar, count},
            "{ .reg .pred p; setp.eq.u32 p, $0, 0; "
            "@p mbarrier.init.shared::cta.b64 [$1], $2; }",
            "r,r,r");
    }
    // Initialisation visible to the async proxy (TMA) and to every thread.
    if (targetsSm90(op)) {
      asmOp(rewriter, loc, {}, {}, "fence.mbarrier_init.release.cluster;", "");
      asmOp(rewriter, loc, {}, {}, "fence.proxy.async.shared::cta;", "");
    }
    barrier(rewriter, loc);
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct BarrierWaitLowering : OpConversionPattern<tile::BarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::BarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bar =
        barrierAt(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex());
    Value parity = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(),
                                        adaptor.getPhase());
    // try_wait suspends for a while in hardware; loop until the phase is
    // complete.
    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange{}, ValueRange{});
    Block *before = rewriter.createBlock(&loop.getBefore());
    // sm_80 has only the non-blocking test_wait.
    std::string wait = targetsSm90(op) ? "try_wait" : "test_wait";
    Value done = asmOp(rewriter, loc, rewriter.getI32Type(), {bar, parity},
                       "{ .reg .pred p; mbarrier." + wait +
                           ".parity.shared::cta.b64 p, [$1], $2; "
                           "selp.u32 $0, 1, 0, p; }",
                       "=r,r,r");
    Value again = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                       done, i32Const(rewriter, loc, 0));
    scf::ConditionOp::create(rewriter, loc, again, ValueRange{});
    (void)before;
    rewriter.createBlock(&loop.getAfter());
    scf::YieldOp::create(rewriter, loc);
    rewriter.setInsertionPointAfter(loop);
    rewriter.eraseOp(op);
    return success();
  }
};

struct SyncThreadsLowering : OpConversionPattern<tile::SyncThreadsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::SyncThreadsOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

/// The kernel parameter holding tensor map `slot` (appended after the
/// regular parameters by the kernel lowering).
Value tensorMapParam(Operation *op, int64_t slot) {
  auto fn = op->getParentOfType<LLVM::LLVMFuncOp>();
  auto maps = fn->getAttrOfType<ArrayAttr>(kTmaAttrName);
  return fn.getArgument(fn.getNumArguments() - maps.size() + slot);
}

/// cp.async copy of a tile into a #tile.nvmma_shared buffer (sm_80): each
/// thread copies 16-byte pieces (zero-filled past the view's edge), then
/// arrives on the mbarrier when they have landed. Views whose rows are not
/// 16-byte pieces (inner stride other than 1, or a misaligned row) are
/// copied element by element, unrolled or, with `loopMisaligned`, in a
/// loop over the thread's elements, then a plain arrival.
void lowerCpAsync(tile::AsyncLoadOp op, tile::AsyncLoadOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter, bool loopMisaligned) {
  Location loc = op.getLoc();
  tile::SharedMemType dest = op.getDest().getType();
  auto nv = cast<tile::NvmmaSharedLayoutAttr>(dest.getEncoding());
  const int64_t rows = dest.getShape()[0], cols = dest.getShape()[1];
  Type element = dest.getElementType();
  const int64_t eb = elementBytes(element), pieceElems = 16 / eb;
  const int64_t threads = 32 * int64_t(tile::numWarpsOf(op));
  auto c64 = [&](int64_t v) { return i64Const(rewriter, loc, v); };
  auto cmp = [&](LLVM::ICmpPredicate p, Value a, Value b) -> Value {
    return LLVM::ICmpOp::create(rewriter, loc, p, a, b);
  };
  // The view is {ptr, sizes[rank], strides[rank]}; the tile spans `rows`
  // along dimension rd and `cols` along the last, 1 along the others.
  Value view = adaptor.getView();
  const int64_t rank = op.getView().getType().getRank();
  const int64_t rd = op.getRowsDim().value_or(0), cd = rank - 1;
  Value ptr = extract(rewriter, loc, view, 0);
  auto size = [&](int64_t d) { return extract(rewriter, loc, view, 1 + d); };
  auto stride = [&](int64_t d) {
    return extract(rewriter, loc, view, 1 + rank + d);
  };
  Value size0 = size(rd), size1 = size(cd);
  Value stride0 = stride(rd), stride1 = stride(cd);
  Value row0 =
      LLVM::MulOp::create(rewriter, loc, adaptor.getIndices()[rd], c64(rows));
  Value col0 =
      LLVM::MulOp::create(rewriter, loc, adaptor.getIndices()[cd], c64(cols));
  // The other dimensions: a fixed element offset, and in bounds or not.
  Value unitOffset = c64(0);
  Value unitsIn = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                           rewriter.getBoolAttr(true));
  for (int64_t d = 0; d < rank; ++d) {
    if (d == rd || d == cd)
      continue;
    Value idx = adaptor.getIndices()[d];
    unitOffset =
        LLVM::AddOp::create(rewriter, loc, unitOffset,
                            LLVM::MulOp::create(rewriter, loc, idx, stride(d)));
    unitsIn = LLVM::AndOp::create(rewriter, loc, unitsIn,
                                  cmp(LLVM::ICmpPredicate::ult, idx, size(d)));
  }
  if (rank > 2)
    ptr = LLVM::GEPOp::create(rewriter, loc, ptr.getType(), element, ptr,
                              ValueRange{unitOffset});
  Value bar = barrierAt(rewriter, loc, adaptor.getBarriers(),
                        adaptor.getBarrierIndex());
  Value dst = adaptor.getDest();
  Value tid = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI64Type(),
                                   threadId(rewriter, loc));
  Value base =
      LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), ptr);
  Value rowBytes = LLVM::MulOp::create(rewriter, loc, stride0, c64(eb));
  Value misaligned = LLVM::OrOp::create(
      rewriter, loc, LLVM::AndOp::create(rewriter, loc, rowBytes, c64(15)),
      LLVM::AndOp::create(rewriter, loc, base, c64(15)));
  Value aligned = LLVM::AndOp::create(
      rewriter, loc, cmp(LLVM::ICmpPredicate::eq, stride1, c64(1)),
      cmp(LLVM::ICmpPredicate::eq, misaligned, c64(0)));
  Value policy;
  if (auto cache = op.getCache())
    policy = createL2Policy(rewriter, loc, *cache);
  auto branch = scf::IfOp::create(rewriter, loc, aligned, /*withElse=*/true);

  // For each of this thread's items k (k = tid + i * threads < total).
  auto forEachFrom = [&](Value t, int64_t total,
                         function_ref<void(Value)> body) {
    for (int64_t i = 0; i * threads < total; ++i) {
      Value k = LLVM::AddOp::create(rewriter, loc, t, c64(i * threads));
      if ((i + 1) * threads <= total) {
        body(k);
        continue;
      }
      auto guard = scf::IfOp::create(
          rewriter, loc, cmp(LLVM::ICmpPredicate::ult, k, c64(total)), false);
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPointToStart(&guard.getThenRegion().front());
      body(k);
    }
  };
  auto forEach = [&](int64_t total, function_ref<void(Value)> body) {
    forEachFrom(tid, total, body);
  };
  auto inBounds = [&](Value r, Value c) {
    Value in = LLVM::AndOp::create(rewriter, loc,
                                   cmp(LLVM::ICmpPredicate::ult, r, size0),
                                   cmp(LLVM::ICmpPredicate::ult, c, size1));
    return rank > 2 ? LLVM::AndOp::create(rewriter, loc, in, unitsIn) : in;
  };

  auto copy = [&](Value to, Value src, Value bytes) {
    if (policy)
      asmOp(rewriter, loc, {}, {to, src, toI32(rewriter, loc, bytes), policy},
            "cp.async.cg.shared.global.L2::cache_hint [$0], [$1], 16, $2, "
            "$3;",
            "r,l,r,l");
    else
      asmOp(rewriter, loc, {}, {to, src, toI32(rewriter, loc, bytes)},
            "cp.async.cg.shared.global [$0], [$1], 16, $2;", "r,l,r");
  };
  const int64_t perRow = cols / pieceElems;
  {
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
    // The whole tile inside the view: no bounds, and each thread's pieces a
    // fixed step apart in both memories (the swizzle repeats every 8 rows),
    // so the per-thread address arithmetic is done once per tile, not once
    // per piece.
    Value whole = unitsIn;
    for (auto [first, extent, sz] :
         {std::tuple{row0, rows, size0}, std::tuple{col0, cols, size1}}) {
      Value left = LLVM::SubOp::create(rewriter, loc, sz, first);
      whole = LLVM::AndOp::create(rewriter, loc, whole,
                                  cmp(LLVM::ICmpPredicate::ult, first, sz));
      whole =
          LLVM::AndOp::create(rewriter, loc, whole,
                              cmp(LLVM::ICmpPredicate::uge, left, c64(extent)));
    }
    auto inside = scf::IfOp::create(rewriter, loc, whole, /*withElse=*/true);
    rewriter.setInsertionPointToStart(&inside.getThenRegion().front());
    {
      Value tileBase = LLVM::GEPOp::create(
          rewriter, loc, ptr.getType(), element, ptr,
          ValueRange{LLVM::AddOp::create(
              rewriter, loc, LLVM::MulOp::create(rewriter, loc, row0, stride0),
              col0)});
      // Piece i + period lies period * rowStep rows below piece i, with the
      // same swizzle phase (a multiple of 8 rows).
      const bool stepped = threads % perRow == 0;
      const int64_t rowStep = stepped ? threads / perRow : 0;
      const int64_t period = stepped ? 8 / std::gcd<int64_t>(rowStep, 8) : 0;
      Value srcStep = LLVM::MulOp::create(rewriter, loc, stride0,
                                          c64(period * rowStep * eb));
      SmallVector<Value> srcs, tos;
      forEach(rows * perRow, [&](Value k) {
        Value src, to;
        const size_t i = srcs.size();
        if (!stepped || int64_t(i) < period) {
          Value r = LLVM::UDivOp::create(rewriter, loc, k, c64(perRow));
          Value c = LLVM::MulOp::create(
              rewriter, loc,
              LLVM::URemOp::create(rewriter, loc, k, c64(perRow)),
              c64(pieceElems));
          Value at = LLVM::AddOp::create(
              rewriter, loc, LLVM::MulOp::create(rewriter, loc, r, stride0), c);
          src = LLVM::GEPOp::create(rewriter, loc, ptr.getType(), element,
                                    tileBase, ValueRange{at});
          to = sharedAddress(
              rewriter, loc,
              gepBytes(rewriter, loc, dst,
                       nvmmaOffset(rewriter, loc, nv, r, c, rows, eb)));
        } else {
          src = LLVM::GEPOp::create(rewriter, loc, ptr.getType(),
                                    rewriter.getI8Type(), srcs[i - period],
                                    ValueRange{srcStep});
          to = LLVM::AddOp::create(
              rewriter, loc, tos[i - period],
              i32Const(rewriter, loc, period * rowStep * nv.getSwizzle()));
        }
        srcs.push_back(src);
        tos.push_back(to);
        copy(to, src, c64(16));
      });
    }
    // The tile's edge, a rarely taken branch: its address arithmetic stays
    // in it (opaqueCopy) rather than holding registers across loops.
    rewriter.setInsertionPointToStart(&inside.getElseRegion().front());
    Value coldStride0 = opaqueCopy(rewriter, loc, stride0);
    forEachFrom(opaqueCopy(rewriter, loc, tid), rows * perRow, [&](Value k) {
      Value r = LLVM::UDivOp::create(rewriter, loc, k, c64(perRow));
      Value c = LLVM::MulOp::create(
          rewriter, loc, LLVM::URemOp::create(rewriter, loc, k, c64(perRow)),
          c64(pieceElems));
      Value gr = LLVM::AddOp::create(rewriter, loc, row0, r);
      Value gc = LLVM::AddOp::create(rewriter, loc, col0, c);
      Value in = inBounds(gr, gc);
      Value left = LLVM::MulOp::create(
          rewriter, loc, LLVM::SubOp::create(rewriter, loc, size1, gc),
          c64(eb));
      Value bytes = LLVM::SelectOp::create(
          rewriter, loc, in,
          LLVM::SelectOp::create(rewriter, loc,
                                 cmp(LLVM::ICmpPredicate::slt, left, c64(16)),
                                 left, c64(16)),
          c64(0));
      Value at = LLVM::MulOp::create(
          rewriter, loc,
          LLVM::AddOp::create(
              rewriter, loc,
              LLVM::MulOp::create(rewriter, loc, gr, coldStride0), gc),
          c64(eb));
      Value src = LLVM::SelectOp::create(
          rewriter, loc, in,
          LLVM::GEPOp::create(rewriter, loc, ptr.getType(),
                              rewriter.getI8Type(), ptr, ValueRange{at}),
          ptr);
      Value off = nvmmaOffset(rewriter, loc, nv, r, c, rows, eb);
      copy(sharedAddress(rewriter, loc, gepBytes(rewriter, loc, dst, off)), src,
           bytes);
    });
    rewriter.setInsertionPointAfter(inside);
    asmOp(rewriter, loc, {}, {bar},
          "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [$0];", "r");
  }
  {
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPointToStart(&branch.getElseRegion().front());
    // Views whose rows are not 16-byte pieces (a run-time test: at the
    // benchmark shapes they always are; an odd dstate or an offset pointer
    // is not), one element at a time.
    Value zero = scalarConst(rewriter, loc, element, 0.0);
    auto copyElement = [&](Value k) {
      Value r = LLVM::UDivOp::create(rewriter, loc, k, c64(cols));
      Value c = LLVM::URemOp::create(rewriter, loc, k, c64(cols));
      Value gr = LLVM::AddOp::create(rewriter, loc, row0, r);
      Value gc = LLVM::AddOp::create(rewriter, loc, col0, c);
      Value at = LLVM::AddOp::create(
          rewriter, loc, LLVM::MulOp::create(rewriter, loc, gr, stride0),
          LLVM::MulOp::create(rewriter, loc, gc, stride1));
      Value src = LLVM::GEPOp::create(rewriter, loc, ptr.getType(), element,
                                      ptr, ValueRange{at});
      Value v = predicatedLoad(rewriter, loc, element, src, inBounds(gr, gc),
                               zero, policy);
      Value off = nvmmaOffset(rewriter, loc, nv, r, c, rows, eb);
      LLVM::StoreOp::create(rewriter, loc, v, gepBytes(rewriter, loc, dst, off),
                            eb);
    };
    if (loopMisaligned) {
      // In a loop: unrolled, LLVM hoists the rows that the branches of
      // several loads share into the code they branch from (the SSD walk
      // at dstate 64: 32 a thread, about 130 instructions a chunk), and
      // ptxas holds their registers. The thread index is an opaque copy,
      // so that LLVM cannot bound the trip count by it and unroll the
      // loop again.
      auto loop =
          scf::ForOp::create(rewriter, loc, opaqueCopy(rewriter, loc, tid),
                             c64(rows * cols), c64(threads));
      rewriter.setInsertionPointToStart(loop.getBody());
      copyElement(loop.getInductionVar());
      rewriter.setInsertionPointAfter(loop);
    } else {
      forEach(rows * cols, copyElement);
    }
    asmOp(rewriter, loc, {}, {bar},
          "{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [$0]; }", "r");
  }
  rewriter.eraseOp(op);
}

struct AsyncLoadLowering : OpConversionPattern<tile::AsyncLoadOp> {
  AsyncLoadLowering(TypeConverter &converter, MLIRContext *ctx,
                    bool loopMisaligned)
      : OpConversionPattern(converter, ctx), loopMisaligned(loopMisaligned) {}
  bool loopMisaligned;

  LogicalResult
  matchAndRewrite(tile::AsyncLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getCpAsync()) {
      lowerCpAsync(op, adaptor, rewriter, loopMisaligned);
      return success();
    }
    Location loc = op.getLoc();
    tile::SharedMemType dest = op.getDest().getType();
    auto nv = cast<tile::NvmmaSharedLayoutAttr>(dest.getEncoding());
    const int64_t rows = dest.getShape()[0], cols = dest.getShape()[1];
    const int64_t eb = elementBytes(dest.getElementType());
    const int64_t span = nv.getSwizzle(), perSlab = std::min(cols, span / eb);
    const int64_t slabs = cols / perSlab;
    Value tmap = tensorMapParam(
        op, op->getAttrOfType<IntegerAttr>(kTmaSlotAttr).getInt());
    Value tid = threadId(rewriter, loc);
    Value bar = barrierAt(rewriter, loc, adaptor.getBarriers(),
                          adaptor.getBarrierIndex());
    Value dst = sharedAddress(rewriter, loc, adaptor.getDest());
    // Tile indices -> element coordinates, innermost first for TMA.
    Value y = LLVM::MulOp::create(rewriter, loc, adaptor.getIndices()[0],
                                  i64Const(rewriter, loc, rows));
    Value x = LLVM::MulOp::create(rewriter, loc, adaptor.getIndices()[1],
                                  i64Const(rewriter, loc, cols));
    Value policy;
    if (auto cache = op.getCache())
      policy = createL2Policy(rewriter, loc, *cache);
    std::string hint = policy ? ".L2::cache_hint" : "";
    std::string text =
        "{ .reg .pred p; setp.eq.u32 p, $0, 0; "
        "@p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " +
        std::to_string(rows * cols * eb) + "; ";
    SmallVector<Value> operands = {tid, bar, tmap, toI32(rewriter, loc, y)};
    std::string constraints = "r,r,l,r";
    if (policy) {
      operands.push_back(policy);
      constraints += ",l";
    }
    for (int64_t s = 0; s < slabs; ++s) {
      int first = operands.size();
      Value slabDst = LLVM::AddOp::create(
          rewriter, loc, dst, i32Const(rewriter, loc, s * rows * span));
      Value slabX = LLVM::AddOp::create(rewriter, loc, x,
                                        i64Const(rewriter, loc, s * perSlab));
      operands.push_back(slabDst);
      operands.push_back(toI32(rewriter, loc, slabX));
      constraints += ",r,r";
      text += "@p cp.async.bulk.tensor.2d.shared::cluster.global.tile."
              "mbarrier::complete_tx::bytes" +
              hint + " [$" + std::to_string(first) + "], [$2, {$" +
              std::to_string(first + 1) + ", $3}], [$1]" +
              (policy ? ", $4" : "") + "; ";
    }
    text += "}";
    asmOp(rewriter, loc, {}, operands, text, constraints);
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

/// Matrix descriptor bits other than the start address: leading and
/// stride byte offsets and the swizzle mode (PTX ISA, "Matrix Descriptor
/// Format").
uint64_t descriptorHigh(int64_t lbo, int64_t sbo, int64_t swizzle) {
  uint64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
  return (uint64_t(lbo >> 4) & 0x3FFF) << 16 |
         (uint64_t(sbo >> 4) & 0x3FFF) << 32 | mode << 62;
}

/// desc(address + offset): the start address field is address >> 4 (the
/// shared window is below 256 KB, so the field never carries).
Value descriptor(OpBuilder &b, Location loc, Value addr64, int64_t offset,
                 uint64_t high) {
  Value a = LLVM::AddOp::create(b, loc, addr64, i64Const(b, loc, offset));
  a = LLVM::LShrOp::create(b, loc, a, i64Const(b, loc, 4));
  return LLVM::OrOp::create(b, loc, a, i64Const(b, loc, int64_t(high)));
}

/// `values` passed through an asm statement as tied operands (constraint
/// 'r' for 32-bit integers, 'f' for f32): the instruction orders every
/// write of them before it with every read after it.
SmallVector<Value> throughAsm(OpBuilder &b, Location loc, ValueRange values,
                              const std::string &text, char constraint) {
  std::string constraints;
  for (size_t i = 0; i < values.size(); ++i)
    constraints += std::string(i ? ",=" : "=") + constraint;
  for (size_t i = 0; i < values.size(); ++i)
    constraints += "," + std::to_string(i);
  SmallVector<Type> types(values.size(), values.front().getType());
  Type resultType =
      values.size() == 1
          ? types[0]
          : LLVM::LLVMStructType::getLiteral(b.getContext(), types);
  Value out = asmOp(b, loc, resultType, values, text, constraints);
  SmallVector<Value> results;
  for (size_t i = 0; i < values.size(); ++i)
    results.push_back(values.size() == 1 ? out : extract(b, loc, out, i));
  return results;
}

struct WarpgroupMmaLowering : OpConversionPattern<tile::WarpgroupMmaOp> {
  WarpgroupMmaLowering(TileTypeConverter &converter, MLIRContext *ctx,
                       bool stepDescriptors)
      : OpConversionPattern(converter, ctx), stepDescriptors(stepDescriptors) {}
  bool stepDescriptors;

  LogicalResult
  matchAndRewrite(tile::WarpgroupMmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tile::SharedMemType b = op.getB().getType();
    RankedTensorType c = op.getAcc().getType();
    auto mma = cast<tile::MmaLayoutAttr>(c.getEncoding());
    // A from registers: its m16n8k16 fragments, 8 elements per (K step,
    // M repetition) in the dot-operand layout's register order; else a
    // descriptor of its shared-memory buffer.
    const bool registerA = bool(op.getRegisterA());
    auto nvA =
        registerA
            ? tile::NvmmaSharedLayoutAttr()
            : cast<tile::NvmmaSharedLayoutAttr>(
                  cast<tile::SharedMemType>(op.getA().getType()).getEncoding());
    auto nvB = cast<tile::NvmmaSharedLayoutAttr>(b.getEncoding());
    const int64_t m = op.getM(), k = op.getK(), n = op.getN();
    const bool transA = op.getTransA(), transB = op.getTransB();
    const int64_t eb = elementBytes(b.getElementType());
    // f32 operands are read as tf32, 8 of K per instruction.
    const bool tf32 = b.getElementType().isF32();
    const int64_t kStep = tf32 ? 8 : 16;
    const int64_t instrN = mma.getInstrShape()[1];
    // Warpgroups stack along M (wm / 4 of them), then along N (wn).
    const int64_t warps = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
    const int64_t repM = m / (16 * warps), repN = n / (instrN * wn);
    const int64_t spanA = registerA ? 128 : nvA.getSwizzle(),
                  spanB = nvB.getSwizzle();
    const int64_t perSlabA = spanA / eb, perSlabB = spanB / eb;
    // Register A as packed pairs: a0..a7 of each (K step, M repetition)
    // in four 32-bit registers (rows g and g + 8, K 2t and 2t + 8), in the
    // dot-operand layout's register order, as mma.sync's A.
    SmallVector<Value> packedA;
    if (registerA) {
      SmallVector<Value> fragments =
          unpackStruct(rewriter, loc, adaptor.getA());
      if (int64_t(fragments.size()) != 8 * (k / 16) * repM)
        return rewriter.notifyMatchFailure(op, "A fragment count differs");
      for (size_t i = 0; i < fragments.size(); i += 2)
        packedA.push_back(
            packPair(rewriter, loc, fragments[i], fragments[i + 1]));
    }
    if (repN * wn > 1 && !transB && instrN % perSlabB != 0)
      return rewriter.notifyMatchFailure(op, "N steps split a B slab");
    // Buffers are slabs of `span`-byte rows (NvmmaSharedLayoutAttr). A
    // K-major operand (A, or B stored N x K) steps K within a slab: the
    // leading offset is unused, the stride offset is 8 rows. An MN-major
    // one (B, or A stored K x M) has K along the rows: the leading offset
    // goes to the next slab of M or N, the stride offset is 8 rows of K.
    const uint64_t highA = transA ? descriptorHigh(k * spanA, 8 * spanA, spanA)
                                  : descriptorHigh(16, 8 * spanA, spanA);
    const uint64_t highB = transB ? descriptorHigh(16, 8 * spanB, spanB)
                                  : descriptorHigh(k * spanB, 8 * spanB, spanB);
    // Byte offsets of the K-step at k0 of the M rows (or N columns) from
    // row0 of a K-major (rows x K) or MN-major (K x cols) buffer.
    auto kMajor = [&](int64_t k0, int64_t row0, int64_t rows, int64_t span,
                      int64_t perSlab) {
      return (k0 / perSlab) * rows * span + row0 * span + (k0 % perSlab) * eb;
    };
    auto mnMajor = [&](int64_t k0, int64_t col0, int64_t span,
                       int64_t perSlab) {
      return (col0 / perSlab) * k * span + k0 * span;
    };
    const std::string type = tf32                          ? "tf32"
                             : b.getElementType().isBF16() ? "bf16"
                                                           : "f16";

    Value aAddr = registerA ? Value()
                            : LLVM::PtrToIntOp::create(rewriter, loc,
                                                       rewriter.getI64Type(),
                                                       adaptor.getA());
    Value bAddr = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(),
                                           adaptor.getB());
    // Warpgroup g takes rows 64 (g mod groupsM) (+ 16 * warps per
    // repetition) and columns instrN (g / groupsM) (+ instrN * wn per
    // repetition).
    const int64_t groupsM = warps / 4;
    Value group = LLVM::ZExtOp::create(
        rewriter, loc, rewriter.getI64Type(),
        LLVM::LShrOp::create(rewriter, loc, warpId(rewriter, loc),
                             i32Const(rewriter, loc, 2)));
    Value groupM = LLVM::URemOp::create(rewriter, loc, group,
                                        i64Const(rewriter, loc, groupsM));
    if (!registerA)
      aAddr = LLVM::AddOp::create(
          rewriter, loc, aAddr,
          LLVM::MulOp::create(
              rewriter, loc, groupM,
              i64Const(rewriter, loc,
                       transA ? mnMajor(0, 64, spanA, perSlabA)
                              : kMajor(0, 64, m, spanA, perSlabA))));
    if (wn > 1) {
      Value groupN = LLVM::UDivOp::create(rewriter, loc, group,
                                          i64Const(rewriter, loc, groupsM));
      bAddr = LLVM::AddOp::create(
          rewriter, loc, bAddr,
          LLVM::MulOp::create(
              rewriter, loc, groupN,
              i64Const(rewriter, loc,
                       transB ? kMajor(0, instrN, n, spanB, perSlabB)
                              : mnMajor(0, instrN, spanB, perSlabB))));
    }
    // With stepDescriptors, desc(addr + off) = desc(addr) + off / 16 for
    // the 16-byte multiples a K step moves by (the start address field is
    // addr >> 4, below 2^14 in the shared window, so it never carries): one
    // 64-bit add to the operand's base descriptor instead of an add, a
    // shift and an or, which SASS runs as six uniform instructions.
    Value aDesc = registerA || !stepDescriptors
                      ? Value()
                      : descriptor(rewriter, loc, aAddr, 0, highA);
    Value bDesc =
        stepDescriptors ? descriptor(rewriter, loc, bAddr, 0, highB) : Value();
    auto stepDescriptor = [&](Value base, Value addr, int64_t offset,
                              uint64_t high) -> Value {
      if (!base || offset % 16 != 0)
        return descriptor(rewriter, loc, addr, offset, high);
      if (offset == 0)
        return base;
      return LLVM::AddOp::create(rewriter, loc, base,
                                 i64Const(rewriter, loc, offset / 16));
    };

    SmallVector<Value> acc = unpackStruct(rewriter, loc, adaptor.getAcc());
    const bool zeroAcc = matchPattern(op.getAcc(), m_AnyZeroFloat());
    const int64_t perSet = instrN / 2;
    if (packedA.empty())
      asmOp(rewriter, loc, {}, {}, "wgmma.fence.sync.aligned;", "");
    else
      // The fence orders the register writes before it with the wgmma
      // reads after it: A's registers pass through it, so their packing
      // cannot sink below it.
      packedA =
          throughAsm(rewriter, loc, packedA, "wgmma.fence.sync.aligned;", 'r');
    Value one = i32Const(rewriter, loc, 1);
    for (int64_t r = 0; r < repM; ++r) {
      for (int64_t nr = 0; nr < repN; ++nr) {
        int64_t first = (r * repN + nr) * perSet;
        // A zero accumulator is not read: the first K step's scale-d is
        // false (D = A B), so no register is written before the wgmma
        // (which would make ptxas fence or wait for groups in flight).
        SmallVector<Value> operands;
        if (!zeroAcc)
          operands.append(acc.begin() + first, acc.begin() + first + perSet);
        std::string constraints, regs;
        // Early clobber when the accumulator is not an input: the first K
        // step writes it while later steps still read A and descriptors.
        const std::string output = zeroAcc ? "=&f" : "=f";
        for (int64_t i = 0; i < perSet; ++i) {
          constraints += (i ? "," : "") + output;
          regs += (i ? ", $" : "$") + std::to_string(i);
        }
        if (!zeroAcc)
          for (int64_t i = 0; i < perSet; ++i)
            constraints += "," + std::to_string(i);
        const std::string flag =
            "$" + std::to_string(perSet + int64_t(operands.size()));
        std::string text = "{ .reg .pred p, z; setp.ne.b32 p, " + flag +
                           ", 0; setp.eq.b32 z, " + flag + ", 0; ";
        operands.push_back(one);
        constraints += ",r";
        for (int64_t kk = 0; kk < k / kStep; ++kk) {
          int64_t k0 = kStep * kk, row0 = 16 * warps * r, n0 = nr * instrN * wn;
          int64_t offA = transA ? mnMajor(k0, row0, spanA, perSlabA)
                                : kMajor(k0, row0, m, spanA, perSlabA);
          int64_t offB = transB ? kMajor(k0, n0, n, spanB, perSlabB)
                                : mnMajor(k0, n0, spanB, perSlabB);
          int idx = perSet + operands.size(); // asm operand number
          std::string aText;
          if (registerA) {
            const int64_t a0 = 4 * (kk + (k / 16) * r);
            aText = "{";
            for (int64_t j = 0; j < 4; ++j) {
              operands.push_back(packedA[a0 + j]);
              constraints += ",r";
              aText += (j ? ", $" : "$") + std::to_string(idx + j);
            }
            aText += "}";
            idx += 4;
          } else {
            operands.push_back(stepDescriptor(aDesc, aAddr, offA, highA));
            constraints += ",l";
            aText = "$" + std::to_string(idx++);
          }
          operands.push_back(stepDescriptor(bDesc, bAddr, offB, highB));
          constraints += ",l";
          // Register A has no transpose immediate, tf32 neither.
          std::string trans;
          if (!tf32)
            trans = std::string(registerA ? "" : (transA ? ", 1" : ", 0")) +
                    (transB ? ", 0" : ", 1");
          text += "wgmma.mma_async.sync.aligned.m64n" + std::to_string(instrN) +
                  "k" + std::to_string(kStep) + ".f32." + type + "." + type +
                  " {" + regs + "}, " + aText + ", $" + std::to_string(idx) +
                  (zeroAcc && kk == 0 ? ", z" : ", p") + ", 1, 1" + trans +
                  "; ";
        }
        text += "}";
        SmallVector<Type> types(perSet, rewriter.getF32Type());
        auto asmResult = LLVM::InlineAsmOp::create(
            rewriter, loc,
            types.size() == 1 ? TypeRange(types)
                              : TypeRange(LLVM::LLVMStructType::getLiteral(
                                    rewriter.getContext(), types)),
            operands, text, constraints, /*has_side_effects=*/true,
            /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
            LLVM::AsmDialectAttr(), ArrayAttr());
        for (int64_t i = 0; i < perSet; ++i)
          acc[first + i] =
              perSet == 1 ? asmResult.getResult(0)
                          : extract(rewriter, loc, asmResult.getResult(0), i);
      }
    }
    asmOp(rewriter, loc, {}, {}, "wgmma.commit_group.sync.aligned;", "");
    Type structType = getTypeConverter()->convertType(c);
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, acc));
    return success();
  }
};

struct WarpgroupMmaWaitLowering
    : OpConversionPattern<tile::WarpgroupMmaWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::WarpgroupMmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> acc = unpackStruct(rewriter, loc, adaptor.getAcc());
    // The accumulators are tied through the wait so nothing reads them
    // before it.
    SmallVector<Value> values =
        throughAsm(rewriter, loc, acc,
                   "wgmma.wait_group.sync.aligned " +
                       std::to_string(op.getPending()) + ";",
                   'f');
    Type structType = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, values));
    return success();
  }
};

} // namespace

void populateAsyncToLLVMPatterns(TileTypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 bool storeMatrices, bool stepDescriptors,
                                 bool loopMisalignedCopies) {
  patterns.add<LocalAllocLowering>(converter, patterns.getContext(),
                                   storeMatrices);
  patterns
      .add<LocalLoadLowering, LocalIndexLowering, BarrierAllocLowering,
           BarrierWaitLowering, SyncThreadsLowering, WarpgroupMmaWaitLowering>(
          converter, patterns.getContext());
  patterns.add<AsyncLoadLowering>(converter, patterns.getContext(),
                                  loopMisalignedCopies);
  patterns.add<WarpgroupMmaLowering>(converter, patterns.getContext(),
                                     stepDescriptors);
}

Value scratchBase(OpBuilder &b, Location loc, Operation *op) {
  Value base = sharedMemoryBase(b, loc, op);
  auto offset = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
  if (!offset || offset.getInt() == 0)
    return base;
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(offset.getInt())});
}

} // namespace tessera::lowering

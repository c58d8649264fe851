//===- Patterns.h - tile -> LLVM/NVVM conversion patterns -------*- C++ -*-===//

#ifndef TESSERA_LOWERING_PATTERNS_H
#define TESSERA_LOWERING_PATTERNS_H

#include "lowering/LoweringUtils.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tessera::lowering {

/// tile.kernel / return / program_id / num_programs / dim. A kernel's
/// min_blocks_per_sm becomes `nvvm.minctasm` (PTX `.minnctapersm`).
void populateKernelToLLVMPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
/// tile.load / tile.store.
void populateMemoryToLLVMPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
/// Elementwise arith/math on tiles, constants, splat, iota; with
/// `coordinateCompares`, a compare of two iota tiles as one coordinate
/// difference a thread against a constant a register.
void populateElementwiseToLLVMPatterns(TileTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       bool coordinateCompares = true);
/// Ops that move data between threads, through shared memory:
/// convert_layout, reshape, broadcast, permute, gather, reduce, scan, mma.
/// With `swizzle`, index-map exchanges may XOR-swizzle their scratch
/// (exchangeSwizzle).
void populateExchangeToLLVMPatterns(TileTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns,
                                    bool swizzle = true);
/// Scalar math ops to NVVM approximations and LLVM intrinsics.
void populateMathToNVVMPatterns(mlir::LLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns);

/// Shared-memory buffers, mbarriers, TMA copies and wgmma; `storeMatrices`
/// writes 16-bit mma fragments to swizzled buffers with stmatrix (sm_90a);
/// `stepDescriptors` builds a K step's wgmma descriptor as one add to its
/// operand's base descriptor; `loopMisalignedCopies` copies tiles from
/// misaligned views element by element in a loop rather than unrolled.
void populateAsyncToLLVMPatterns(TileTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns,
                                 bool storeMatrices = false,
                                 bool stepDescriptors = false,
                                 bool loopMisalignedCopies = false);

/// Bytes of shared-memory scratch `op` needs (0 for ops that need none).
int64_t sharedScratchBytes(mlir::Operation *op);

/// Places the kernel's shared-memory buffers and the scratch of its
/// exchanges (sets `tile.shared_bytes` to the total) and numbers the tensor
/// maps its TMA copies need (`tile.tma` on the kernel: one [argument, box
/// rows, box cols, swizzle] per map). The scratch is one region at offset
/// 0, as large as the largest exchange, under every buffer; or, with
/// `scratchLifetimes`, one region per op of the kernel's body that holds
/// exchanges (the exchange itself, or the loop around it), placed like a
/// buffer that lives as long as that op, each exchange's offset in
/// `tile.smem_offset` (scratchBase).
void assignSharedMemory(tile::KernelOp kernel, bool scratchLifetimes);

/// The shared-memory scratch of an exchange op: the base of dynamic shared
/// memory plus the op's `tile.smem_offset` (0 without one).
mlir::Value scratchBase(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Operation *op);

} // namespace tessera::lowering

#endif // TESSERA_LOWERING_PATTERNS_H

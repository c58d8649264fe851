//===- Passes.td - tile lowering passes --------------------*- tablegen -*-===//

#ifndef TESSERA_LOWERING_PASSES
#define TESSERA_LOWERING_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTileToLLVM : Pass<"convert-tile-to-llvm", "mlir::ModuleOp"> {
  let summary = "lower level-2 tile IR to LLVM/NVVM, one struct per tile";
  let description = [{
    Kernels become `llvm.func`s with the `nvvm.kernel` attribute and the
    flat parameter ABI of runtime/KernelInfo.h; every tile becomes the
    `!llvm.struct` of the elements one thread holds in its layout. Loads and
    stores are predicated PTX accesses; ops that move data between threads
    go through dynamic shared memory, whose size is recorded on the function
    (`tile.shared_bytes`). Scalar arith/math and scf are left for
    `tile-finalize-llvm` (after `convert-scf-to-cf`).
  }];
  let options = [
    Option<"swizzleExchanges", "swizzle-exchanges", "bool", "true",
           "XOR-swizzle the shared-memory scratch of an exchange where the "
           "bank-conflict model counts fewer wavefronts">,
    Option<"storeMatrices", "store-matrices", "bool", "false",
           "write 16-bit mma fragments to swizzled shared memory with "
           "stmatrix (sm_90a) rather than 4-byte stores">,
    Option<"scratchLifetimes", "scratch-lifetimes", "bool", "false",
           "place the scratch of exchanges by lifetime, like buffers, "
           "rather than one region under every buffer">,
    Option<"stepDescriptors", "step-descriptors", "bool", "false",
           "build each K step's wgmma descriptor as one add to its "
           "operand's base descriptor rather than from the address">,
    Option<"loopMisalignedCopies", "loop-misaligned-copies", "bool",
           "false",
           "copy cp.async tiles from views whose rows are not 16-byte "
           "pieces element by element in a loop rather than unrolled, "
           "keeping that path's address arithmetic out of the hot path">,
    Option<"coordinateCompares", "coordinate-compares", "bool", "true",
           "compare two iota tiles as one coordinate difference a thread "
           "against a constant a register (a causal mask) rather than "
           "both coordinates of every register">,
    Option<"minBlocksPerSm", "min-blocks-per-sm", "unsigned", "0",
           "ask ptxas for registers that fit this many blocks of each "
           "kernel on an SM (nvvm.minctasm, PTX .minnctapersm; 0: none)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileFinalizeLLVM : Pass<"tile-finalize-llvm", "mlir::ModuleOp"> {
  let summary = "lower the scalar arith, math, cf and index ops left to LLVM/NVVM";
  let description = [{
    Transcendentals become PTX approximations (ex2, lg2, sin, cos, rsqrt)
    in f32; everything else takes the upstream conversions to LLVM.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def TilePairTruncations : Pass<"tile-pair-truncations", "mlir::ModuleOp"> {
  let summary = "convert two f32 packed into one 32-bit word of bf16 or f16 "
                "in one paired truncation";
  let description = [{
    The lowering truncates each f32 of a packed bf16 or f16 pair on its own
    and packs the halves with zext, shl 16 and or, which PTX turns into two
    conversions (cvt.rn.bf16.f32, F2F) and a pack. Where both halves are
    such truncations of f32 values, the pair becomes one fptrunc of
    vector<2xf32> bitcast to i32: cvt.rn.bf16x2.f32 (or .f16x2), one
    instruction. A vector of bf16 or f16 built lane by lane from such
    truncations (a 16-bit tile's store) likewise becomes one truncation of
    the f32 vector. Runs on LLVM dialect, after tile-finalize-llvm.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TileMergeBarriers : Pass<"tile-merge-barriers", "mlir::ModuleOp"> {
  let summary = "drop a CTA barrier that follows another with no memory "
                "access between them";
  let description = [{
    The lowering fences each shared-memory exchange with a barrier before
    its stores and one after its loads, so back-to-back exchanges leave two
    barriers with only arithmetic between them. Within a block, a
    nvvm.barrier0 whose only predecessors since the previous nvvm.barrier0
    are free of memory effects or shuffles (no load, store, other inline
    assembly, call or op with regions) orders nothing the first did not,
    and is erased. Runs on LLVM dialect, after tile-finalize-llvm.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

#endif // TESSERA_LOWERING_PASSES

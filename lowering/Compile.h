//===- Compile.h - tile IR to PTX, in process -------------------*- C++ -*-===//

#ifndef TESSERA_LOWERING_COMPILE_H
#define TESSERA_LOWERING_COMPILE_H

#include "runtime/KernelInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace tessera::lowering {

struct CompileOptions {
  std::string target = "sm_90a"; // or "sm_80"
  unsigned numWarps = 4;
  /// Run tile-insert-latency-hints (the author's hints apply either way).
  /// Off by default: without pipelining the cost model's L2 policies made
  /// the bf16 GEMM slower on the H200 (39.7 vs 43.9 TFLOP/s at 8192^3,
  /// bench/RESULTS.md); it comes on with tile-pipeline.
  bool latencyHints = false;
  /// Run tile-pipeline (sm_90a): TMA prefetch of the wgmma operands.
  bool pipeline = true;
  /// Stages tile-pipeline uses when the loads carry no latency hint.
  unsigned stages = 4;
  /// tile-pipeline register-prefetch: the next iteration's other tiles
  /// loaded into registers one iteration ahead (latency hidden, registers
  /// held across the body).
  bool registerPrefetch = true;
  /// tile-pipeline register-prefetch-budget: registers per thread the
  /// prefetched tiles may take (loads in program order, each taken if it
  /// still fits).
  unsigned registerPrefetchBudget = 96;
  /// tile-pipeline late-loads-in-iteration: a load first used after a
  /// Tensor Core product is issued at the top of its own iteration, not
  /// one ahead (one copy of its tile live through the body, not two).
  /// Part of register prefetch: nothing without it.
  bool lateLoadsInIteration = false;
  /// tile-pipeline hoist-invariant-loads: loads of the same tile in every
  /// iteration read once before the loop (registers held through it).
  bool hoistInvariantLoads = true;
  /// tile-pipeline early-refill: refill a stage at the top of the next
  /// iteration where no wgmma group stays in flight across iterations (one
  /// more iteration of lead for the same shared memory). Off by default; the
  /// SSD library turns it on (measured).
  bool earlyRefill = false;
  /// tile-pair-truncations: two f32 packed into one word of bf16 or f16
  /// convert in one cvt.rn.bf16x2.f32. Off by default, like fma and step
  /// descriptors: each moves ptxas's allocation of a kernel at its register
  /// limit either way; the SSD and conv libraries turn the three on
  /// together (ssd::fusedCompile, conv::compileFlags).
  bool pairTruncations = false;
  /// Let the NVPTX backend contract a multiply and the add it feeds into
  /// one fma (LLVM's FPOpFusion::Fast; nvcc's default --fmad=true).
  /// Without it every mul and add is .rn, which ptxas may not fuse either (the
  /// conv inner pass and the SSD walk run no fma at all). Off by default (alone
  /// it made conv 2K spill and run slower); on with the other two (above).
  bool fuseMultiplyAdd = false;
  /// convert-tile-to-llvm step-descriptors: each K step's wgmma descriptor
  /// is one add to its operand's base descriptor. Off by default; on with
  /// the other two (above; alone: SSD dstate 256 1.98 -> 1.47 ms).
  bool stepDescriptors = false;
  /// convert-tile-to-llvm loop-misaligned-copies: the cp.async copy's path
  /// for views whose rows are not 16-byte pieces (not taken at the
  /// benchmark shapes) as a loop. Unrolled, LLVM hoists its per-element
  /// rows into the code around it and ptxas holds them. Off by default: in
  /// the SSD walk at dstate 64 and 128 the unrolled path timed faster
  /// (bench/RESULTS.md, session 27).
  bool loopMisalignedCopies = false;
  /// convert-tile-to-llvm coordinate-compares: a compare of two iota tiles
  /// (a causal mask) as one coordinate difference a thread against a
  /// constant a register. On by default (fewer instructions; registers
  /// vary with ptxas); the SSD walk at dstate 64 timed slower with it
  /// (bench/RESULTS.md, session 28).
  bool coordinateCompares = true;
  /// tile-merge-barriers: a CTA barrier that follows another with only
  /// arithmetic or shuffles between them (back-to-back exchanges) is
  /// dropped: the SSD walk keeps 20 of its 22 a chunk, the fused 2K and 4K
  /// convolutions 32 of 42. Off by default; the SSD and conv libraries
  /// take it (H200: 0.7-1.5% faster at the SSD benchmark shapes, conv 4K
  /// 1-2%, other lengths within 0.001 ms; bench/RESULTS.md, session 30).
  bool mergeBarriers = false;
  /// Let exchanges XOR-swizzle their shared-memory scratch where the
  /// bank-conflict model says it pays (convert-tile-to-llvm).
  bool swizzleExchanges = true;
  /// Write 16-bit mma fragments to swizzled shared memory with stmatrix
  /// (sm_90a; convert-tile-to-llvm): fewer instructions, which pays where
  /// measured (bench/RESULTS.md), not everywhere.
  bool storeMatrices = false;
  /// Place exchange scratch by lifetime, like buffers, instead of one region
  /// under every buffer (convert-tile-to-llvm scratch-lifetimes).
  bool scratchLifetimes = false;
  /// Let warpgroups that M does not fill split N (tile-accelerate-mma
  /// warpgroups-along-n): 64-row products on 8 warps go to wgmma.
  bool warpgroupsAlongN = false;
  /// Take wgmma's A from registers where every thread already holds its
  /// fragments (tile-remove-layout-conversions wgmma-register-a).
  bool wgmmaRegisterA = true;
  /// f32 (tf32) products on wgmma too (tile-accelerate-mma wgmma-tf32).
  bool wgmmaTf32 = false;
  /// Let LLVM's LICM hoist loop-invariant code out of loops. Off, the
  /// addresses and descriptors a loop body uses are recomputed in it
  /// instead of held in registers across it (fewer spills in kernels whose
  /// registers are full; more instructions).
  bool hoistLoopInvariants = true;
  /// Keep independent wgmma groups in flight together (tile-defer-mma-waits,
  /// sm_90a): waits move down to the first reader of their result. On
  /// since measured on the H200 (docs/decisions.md, session 13).
  bool deferMmaWaits = true;
  /// Blocks of each kernel that must fit one SM by registers
  /// (`.minnctapersm`; convert-tile-to-llvm min-blocks-per-sm): ptxas then
  /// keeps registers under 64K / (blocks x threads), spilling if it must.
  /// 0: no bound (ptxas takes what it likes, up to 255).
  unsigned minBlocksPerSm = 0;
};

struct CompiledModule {
  std::string ptx;
  std::vector<rt::KernelInfo> kernels; // one per tile.kernel
};

/// Adds the lowering pipeline, level 1 (or 2) tile IR -> LLVM/NVVM dialect.
void buildLoweringPipeline(mlir::OpPassManager &pm,
                           const CompileOptions &options);

/// PTX of a module in the LLVM/NVVM dialects, through LLVM's NVPTX backend
/// (O3; without LICM unless `hoistLoopInvariants`; an f32 multiply feeding
/// an add fused into one fma only with `fuseMultiplyAdd`).
mlir::FailureOr<std::string>
emitPtx(mlir::ModuleOp module, const std::string &chip, std::string *error,
        bool hoistLoopInvariants = true, bool fuseMultiplyAdd = false);

/// Compiles every kernel of `module` (left untouched: a clone is lowered)
/// to PTX for `options.target`, with each kernel's parameter description.
/// Diagnostics (verifier errors, unsupported ops, LLVM errors) go to
/// `error`.
mlir::FailureOr<CompiledModule> compileToPtx(mlir::ModuleOp module,
                                             const CompileOptions &options,
                                             std::string *error);

/// What applyCompileFlag made of an argument.
enum class FlagResult { Applied, NotAFlag, Malformed };
/// tile-compile's option flags (`--num-warps 4`, `--fma`, ...): applies
/// args[i] to `options`; a flag with a value (--target, --num-warps,
/// --stages, --min-blocks-per-sm) takes args[i + 1] and advances i.
/// NotAFlag leaves everything else (files, -o, --info) to the caller;
/// Malformed says why in `error`.
FlagResult applyCompileFlag(llvm::ArrayRef<std::string> args, size_t &i,
                            CompileOptions &options, std::string &error);

/// A whole flag string, as the kernel libraries write theirs
/// (ssd::compileFlags, conv::compileFlags): every word must be an option
/// flag. Returns the first problem, or "".
std::string applyCompileFlags(llvm::StringRef flags, CompileOptions &options);

/// Registers the dialects and translations the lowering needs.
void registerLoweringDialects(mlir::DialectRegistry &registry);

} // namespace tessera::lowering

#endif // TESSERA_LOWERING_COMPILE_H

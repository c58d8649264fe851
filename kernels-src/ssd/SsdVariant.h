//===- SsdVariant.h - Mamba-2 SSD shapes, options and kernel names -*- C++
//-*-===//
//
// What a call of the SSD forward is (shape and options) and which compiled
// kernel runs it. No MLIR here: the GPU entry point (SsdGpu.h) names the
// kernels of its precompiled library with the same code that builds them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_KERNELS_SSD_SSDVARIANT_H
#define TESSERA_KERNELS_SSD_SSDVARIANT_H

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace tessera::ssd {

struct Shape {
  int64_t batch = 1, seqlen = 1, nheads = 1, headdim = 1, dstate = 1,
          ngroups = 1;
};

/// Which optional inputs and outputs a call has.
struct Options {
  bool hasD = false;
  bool dPerChannel = false; // D is (nheads, headdim) instead of (nheads)
  bool hasZ = false;
  bool hasDtBias = false;
  bool dtSoftplus = false;
  /// dt' is clamped to [dtMin, dtMax]; the defaults clamp nothing, like
  /// mamba_ssm's default dt_limit (0, inf), which it does not apply.
  double dtMin = -std::numeric_limits<double>::infinity();
  double dtMax = std::numeric_limits<double>::infinity();
  bool hasInitialStates = false;
  bool returnFinalStates = false;
  bool hasSeqIdx = false;
};

/// Options from a list of names joined by commas: D, Dpc (D per channel),
/// z, bias, softplus, seq, h0, hT; or "layer" (D,bias,softplus, as
/// mamba_ssm's Mamba-2 layer), "all" (Dpc,z,bias,softplus,seq,h0,hT),
/// "none". Returns false on an unknown name.
bool parseOptionList(const std::string &list, Options &options);
/// The inverse: the list of names of `options` ("none" when empty).
std::string optionList(const Options &options);

/// Element type of x, B, C, z and y.
enum class ElementType { f32, bf16, f16 };
const char *name(ElementType type);

/// What one compiled set of kernels is specialised on.
struct Variant {
  ElementType dtype = ElementType::f32;
  int64_t chunk = 64, headdimTile = 1, dstateTile = 1;
  bool dtBias = false, softplus = false, seqIdx = false, D = false,
       dPerChannel = false, z = false, initialStates = false,
       finalStates = false;

  /// e.g. "bf16_q64_p64_n128_bias_softplus_D".
  std::string suffix() const;
  /// Whether any option is on (the suffix names one).
  bool hasOptions() const;
  bool operator<(const Variant &o) const { return suffix() < o.suffix(); }
};

/// The variant of the chunked (three-kernel) forward for a call.
Variant variantFor(const Shape &shape, const Options &options,
                   ElementType dtype, int64_t chunk);

/// The fused forward (one kernel, the one the GPU runs): chunk
/// fusedChunk(dtype), fusedWarps warps, and a headdim block
/// that keeps the state block (headdim block x dstate, f32) within 64
/// registers a thread (2048 elements a warp).
int64_t fusedChunk(ElementType dtype);
/// Whether a variant copies initial or final states (the every-option
/// kernels), which fusedCompile compiles apart.
bool copiesStates(const Variant &variant);

/// How the kernel library compiles a fused variant for sm_90a (the
/// tile-compile options, as measured on the H200).
struct FusedCompile {
  int64_t stages = 2, warps = 4;
  /// Swizzle the shared-memory scratch of layout exchanges (tile-compile
  /// --no-swizzle when false).
  bool exchangeSwizzle = true;
  bool storeMatrices = false, warpgroupsAlongN = false;
  bool wgmmaRegisterA = true;
  bool scratchLifetimes = false;
  /// Let LLVM hoist loop invariants out of the chunk loop (tile-compile
  /// --no-hoist-invariants when false).
  bool hoistLoopInvariants = true;
  /// Refill a prefetch stage at the top of the next chunk instead of at
  /// the bottom of this one (tile-compile --early-refill).
  bool earlyRefill = false;
  /// Convert f32 pairs to 16 bits in one cvt (tile-compile
  /// --pair-truncations).
  bool pairTruncations = false;
  /// Contract multiply-adds into fma (tile-compile --fma).
  bool fuseMultiplyAdd = false;
  /// Step each K step's wgmma descriptor from its operand's base
  /// descriptor (tile-compile --step-descriptors).
  bool stepDescriptors = false;
  /// Issue a load first used after a Tensor Core product at the top of its
  /// own chunk instead of a chunk ahead (tile-compile
  /// --late-loads-in-iteration).
  bool lateLoadsInIteration = false;
  /// Registers a thread that tiles prefetched a chunk ahead may hold
  /// (tile-compile --register-prefetch-budget; unset: the compiler's
  /// default).
  std::optional<int64_t> registerPrefetchBudget;
  /// Copy tiles from misaligned views element by element in a loop
  /// (tile-compile --loop-misaligned-copies).
  bool loopMisalignedCopies = false;
  /// The causal mask as one coordinate difference a thread against a
  /// constant a register (the compiler's default; off: tile-compile
  /// --no-coordinate-compares).
  bool coordinateCompares = true;
  /// Drop a CTA barrier that follows another with only arithmetic or
  /// shuffles between them (tile-compile --merge-barriers).
  bool mergeBarriers = false;
};
/// Which module of a variant is compiled: the fused forward (one kernel,
/// `tessera print ssd-fused`) or the split forward over segments of the
/// sequence (three kernels, `tessera print ssd-split`).
enum class Module { Fused, Split };
/// Warps a module of the fused variant is compiled for: 8 (warpgroups
/// along N) above dstate 128, and at 128 when it copies initial or final
/// states and takes z, seq_idx or D per channel too, or copies them in
/// the split forward; else 4.
int64_t fusedWarps(const Variant &variant, Module module);
FusedCompile fusedCompile(const Variant &variant, Module module);
/// Which of the fused walk's epilogue loads are issued where they are used
/// (`tile.load ... at_use`) instead of a chunk ahead: z, and D's row when D
/// is per channel. Only in 16-bit kernels without seq_idx or state copies
/// (so never in the split forward, whose segment scan reads initial
/// states): both at dstate 128, D's row alone at 256, neither at 64.
struct EpilogueLoadsAtUse {
  bool z = false, dRow = false;
};
EpilogueLoadsAtUse epilogueLoadsAtUse(const Variant &variant);
/// The same as tile-compile flags ("--merge-barriers --stages 2 ...";
/// `tessera ssd-flags` prints them).
std::string compileFlags(const FusedCompile &compile);
Variant fusedVariantFor(const Shape &shape, const Options &options,
                        ElementType dtype);
/// "ssd_fused_" + suffix.
std::string fusedKernelName(const Variant &variant);

/// The split forward: the sequence cut into `segments` equal segments run
/// as rows of their own (batch * segments programs instead of batch), for
/// grids too small to fill the GPU. Three launches, named after the fused
/// variant: ssd_segment_states_* (the state each segment ends with from
/// zero, and its total decay), ssd_combine_states_* (the state each
/// segment starts from, walking the segments in order; the final state),
/// ssd_segment_scan_* (the fused walk of segmentScanVariant over each
/// segment from its incoming state).
std::string segmentStatesName(const Variant &fused);
std::string combineStatesName(const Variant &fused);
std::string segmentScanName(const Variant &fused);
/// Warps of the combine kernel (tile.kernel num_warps): at most 32 f32
/// registers a thread for each (dstate tile x headdim block) state, at
/// least four (eight at 128 x 64).
int64_t combineWarps(const Variant &fused);
/// The fused walk the segments run: with initial states, without final
/// states, the same blocks as `fused`.
Variant segmentScanVariant(const Variant &fused);
/// Whether the split forward exists for a fused variant (up to dstate 128:
/// at 256 the initial-state copy does not fit beside the 64-wide headdim
/// block).
bool splittable(const Variant &fused);
/// The segments the library splits a call into on a GPU with `sms`
/// multiprocessors (1: not split); `programsPerSm` is how many programs
/// of the fused kernel fit on one. Only splits into whole chunks.
int64_t segmentsFor(const Shape &shape, const Variant &fused, int64_t sms,
                    int64_t programsPerSm);

} // namespace tessera::ssd

#endif // TESSERA_KERNELS_SSD_SSDVARIANT_H

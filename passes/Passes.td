//===- Passes.td - tile dialect passes ---------------------*- tablegen -*-===//

#ifndef TESSERA_PASSES
#define TESSERA_PASSES

include "mlir/Pass/PassBase.td"

def TileOrderGlobalMemory
    : Pass<"tile-order-global-memory", "mlir::ModuleOp"> {
  let summary = "barriers between a program's conflicting accesses to a view";
  let description = [{
    A program's threads each hold part of a tile (its layout), so when a
    kernel stores to a view and later loads from it, the load may read
    elements other threads wrote; likewise a store may overwrite elements
    other threads have yet to read, and two stores to the same elements
    from different threads land in either order. The pass inserts
    `tile.sync_threads` before every load of a view with a store to it
    since the last barrier, and before every store to a view with a load
    of it since then, in program order: through `scf.if` branches
    (either may have run), and around loops (the previous iteration's
    accesses count at the top of the body; a loop that may not run leaves
    the accesses before it pending). Distinct view arguments are taken not
    to overlap in memory; views are compared as values. Two accesses do not
    conflict when their tiles are provably disjoint (one shape, different
    constant indices along a dimension) or are the same tile in a layout
    that gives each element one owner among all the kernel's threads (an
    in-place update: every thread reads and writes its own elements), so
    the pass runs once layouts are final (the runtime refuses a written
    view whose elements share addresses); without layouts every access of a view counts. Two stores of
    one element are not ordered (as in CUDA without a barrier).
  }];
  let dependentDialects = ["::tessera::tile::TileDialect"];
}

def TileAssignLayouts : Pass<"tile-assign-layouts", "mlir::ModuleOp"> {
  let summary = "give every tile a layout (level 1 -> level 2)";
  let description = [{
    Every tile value in a kernel gets the default blocked layout of its
    shape: `vector` consecutive elements per thread along the last
    dimension (coalesced), lanes and warps filling the dimensions from the
    last. Values of one shape share one layout, so elementwise ops and
    control flow need no conversions; the ops that move data between
    threads (reduce, broadcast, permute, mma...) map between layouts in the
    lowering. Records the warps per CTA on the module (`tile.num_warps`);
    a kernel with a `num_warps` of its own gets layouts for those instead.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", "4",
           "warps per CTA of the kernels without a num_warps of their own">,
    Option<"vector", "vector", "unsigned", "8",
           "consecutive elements per thread along the last dimension">
  ];
  let dependentDialects = ["::tessera::tile::TileDialect"];
}

def TileRemoveLayoutConversions
    : Pass<"tile-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "remove layout conversions that move no data";
  let description = [{
    Folds conversions to the same layout and chains of conversions; loads a
    tile straight into the layout it is converted to; and carries a loop's
    tile in the layout the loop body converts it to (one conversion before
    and one after the loop instead of two per iteration: the accumulator of
    a Tensor Core GEMM stays in mma layout). A wgmma operand A that every
    thread already holds as its A fragments (an accumulator whose warps
    all lie along M, or math on one) is read from registers instead of
    shared memory, unless `wgmma-register-a` is off.
  }];
  let options = [
    Option<"wgmmaRegisterA", "wgmma-register-a", "bool", /*default=*/"true",
           "take wgmma's A from registers where no data moves between "
           "threads">
  ];
}

def TileAccelerateMma : Pass<"tile-accelerate-mma", "mlir::ModuleOp"> {
  let summary = "map tile.mma onto Tensor Core layouts";
  let description = [{
    For a `tile.mma` with bf16 or f16 inputs whose shape the instruction
    tiles (M a multiple of 16 per warp row, N of 8 per warp column, K of
    16), converts A and B to the `mma.sync.m16n8k16` operand fragments
    (`#tile.dot_operand`), the accumulator to `#tile.mma<version = 2>`, and
    the result back to the layout it had; the lowering then emits
    `mma.sync`. Other mma ops keep the FMA path. Warps are arranged
    `wpc = [wm, wn]` with as many along M as the tile allows.

    With `target=sm_90a`, an mma whose M is a multiple of 16 per warp with
    the warps in whole warpgroups stacked along M, K a multiple of 16 and
    N at most 256 (or a multiple of 256) goes to wgmma instead: A and B
    are written to `#tile.nvmma_shared` buffers (`tile.local_alloc`, the
    widest swizzle their rows allow), the accumulator takes the version 3
    mma layout, and `tile.warpgroup_mma` + `tile.warpgroup_mma_wait
    pending 0` replace the mma (`tile-pipeline` later overlaps them with
    the next loads).

    With `warpgroups-along-n`, warpgroups that M does not fill (a 64-row
    product on 8 warps) split N instead (version 3 layout wpc = [4, 2]:
    each warpgroup takes the whole A and its columns of B; a B stored
    K x N gets a swizzle no wider than one warpgroup's columns). Off by
    default: such products otherwise stay on mma.sync, whose chained
    products keep their fragments in registers (measured faster for the
    long convolution's DFT products).

    With `wgmma-tf32`, f32 inputs (tf32 precision) take wgmma too
    (m64nNk8): both operands are rounded to tf32 in registers and written
    K-major, a B that is K x N transposed in registers (PTX has no
    transposed tf32 operand). Off by default: the rounding and the
    transpose keep the operands off TMA, and the f32 GEMM measured slower
    than on mma.sync (bench/RESULTS.md).
  }];
  let options = [
    Option<"target", "target", "std::string", "\"sm_80\"",
           "sm_80 (mma.sync) or sm_90a (wgmma where the shape allows)">,
    Option<"warpgroupsAlongN", "warpgroups-along-n", "bool", "false",
           "let warpgroups that M does not fill split N (sm_90a)">,
    Option<"wgmmaTf32", "wgmma-tf32", "bool", "false",
           "put f32 (tf32) products on wgmma too (sm_90a)">,
  ];
  let dependentDialects = ["::tessera::tile::TileDialect"];
}

def TilePipeline : Pass<"tile-pipeline", "mlir::ModuleOp"> {
  let summary = "multi-stage TMA prefetch of the wgmma operands in loops";
  let description = [{
    In an `scf.for` whose body loads tiles with `tile.load` only to write
    them to shared memory for `tile.warpgroup_mma` or `tile.local_load`
    (what `tile-accelerate-mma` makes), the loads become asynchronous
    copies (`tile.async_load`: TMA on sm_90a, `cp.async` on sm_80) into
    rings of `S` stages with one mbarrier per
    stage: the first `S - 1` iterations' tiles are requested before the
    loop, each iteration waits for its stage, issues its wgmma, waits for
    the previous iteration's wgmma only (`pending 1`), and then requests
    the tiles of iteration `i + S - 1` into the stage that wgmma has
    released. `S` is the largest `latency` hint of the loads (the author's
    or `tile-insert-latency-hints`'s), clamped to [2, `max-stages`] and to
    what fits in shared memory; without hints, `stages`. With
    `early-refill`, a loop that keeps no wgmma group in flight across
    iterations requests iteration `i + S - 1`'s tiles at the top of
    iteration `i` instead, into the stage the barrier ending iteration
    `i - 1` released: one more iteration of lead for the same shared
    memory (two stages then overlap each copy with a whole iteration).
    Loads that are masked with a non-zero padding, or whose views are not
    kernel arguments, are left alone.

    Other loads in a loop that read the same tile in every iteration (their
    indices do not follow from the induction variable, their view is not
    stored to in the loop) move before the loop (`hoist-invariant-loads`):
    read once, then kept in registers for the whole loop. The remaining
    loads whose tile indices follow from the induction variable (and that
    the loop does not store to through the same view) are issued one
    iteration ahead into registers (a loop-carried tile,
    `register-prefetch`), so their latency overlaps the iteration's work;
    at most `register-prefetch-budget` registers per thread (96 unless
    set) go to such prefetches: the loads in program order, each taken if
    it still fits. With
    `late-loads-in-iteration` (a variant of register prefetch: nothing
    without it), a load so chosen whose first use comes after a Tensor
    Core product in the body is issued at the top of its own iteration
    instead: the product hides its latency, and only one copy of its tile
    is live through the body. Both trade
    registers for latency: a kernel at its register limit may spill for
    them, and can turn either off. Distinct views are assumed not to
    overlap in memory, as for `__restrict__` pointers. A load marked
    `at_use` is left where it is by all of the above.
  }];
  let options = [
    Option<"stages", "stages", "unsigned", "4",
           "stages when the loads carry no latency hint">,
    Option<"maxStages", "max-stages", "unsigned", "6",
           "upper bound on the stages a hint can ask for">,
    Option<"sharedBytes", "shared-bytes", "unsigned", "232448",
           "shared memory a CTA may use (227 KB on sm_90)">,
    Option<"target", "target", "std::string", "\"sm_90a\"",
           "sm_90a (TMA copies, wgmma or ldmatrix readers) or sm_80 "
           "(cp.async copies, ldmatrix readers)">,
    Option<"registerPrefetch", "register-prefetch", "bool", "true",
           "load the next iteration's other tiles into registers one "
           "iteration ahead">,
    Option<"registerPrefetchBudget", "register-prefetch-budget", "unsigned",
           "96",
           "registers per thread that register-prefetch may hold (a load "
           "that would exceed it stays next to its use)">,
    Option<"lateLoadsInIteration", "late-loads-in-iteration", "bool",
           "false",
           "with register-prefetch: issue a load first used after a Tensor "
           "Core product at the top of its own iteration instead of one "
           "iteration ahead (one copy of the tile live through the body "
           "instead of two)">,
    Option<"hoistInvariantLoads", "hoist-invariant-loads", "bool", "true",
           "move loads of the same tile in every iteration before the loop "
           "(their registers then stay live through it)">,
    Option<"earlyRefill", "early-refill", "bool", "false",
           "where no wgmma group stays in flight across iterations, "
           "request iteration i + S - 1's tiles at the top of iteration i "
           "(into the stage released by the barrier ending iteration "
           "i - 1) instead of at its bottom: S - 1 iterations of lead "
           "instead of S - 2">,
  ];
  let dependentDialects = ["::tessera::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileDeferMmaWaits : Pass<"tile-defer-mma-waits", "mlir::ModuleOp"> {
  let summary = "keep independent wgmma groups in flight together";
  let description = [{
    `tile-accelerate-mma` waits for each wgmma right after issuing it. This
    pass lets independent products overlap: a `tile.warpgroup_mma` whose
    accumulator is the waited result of another of the same shape (and
    read by nothing else) takes that wgmma's result directly, and the wait
    between them goes away (wgmma orders accumulator accesses between
    instructions of one shape); every other `pending 0` wait moves down to
    just before the first op that reads its result. A wait never moves past
    an op with regions, a terminator, a `tile.sync_threads` (which tells
    the other warps the operands were read), a `tile.async_load` or a
    `tile.local_alloc` (whose buffer could then not share the operands'
    memory), nor past a group that a `pending 1` wait keeps in flight or
    an op reading an accumulator a wgmma carried across the loop's back
    edge (ptxas would insert a wait there);
    products are chained only where the wait between them could have moved
    that far. Waits stay `pending 0`, so the first one reached completes
    every group before it. `tile-compile` runs it by default for sm_90a
    (`--no-defer-mma-waits` leaves it out).
  }];
}

def TileInsertLatencyHints
    : Pass<"tile-insert-latency-hints", "mlir::ModuleOp"> {
  let summary = "fill in the load/store hints the author left out";
  let description = [{
    A cost model sets `latency` and `cache` on every load and store that
    lacks them (an author's hint is never changed):
    - latency: 1 for accesses outside loops or not moving with the loop;
      for a load that streams a new tile every iteration, 2 + log2 of its
      size in KB, capped to 10 (bigger transfers want a deeper prefetch);
    - cache: a load whose tile index ignores a grid dimension the kernel
      uses is read by every program along it: `evict_last` (keep it in L2);
      a load each program reads alone, and a store nothing reads back:
      `evict_first` (stream it through L2).
    The lowering turns cache policies into `createpolicy` +
    `.L2::cache_hint`; latency sets the prefetch depth of `tile-pipeline`.
  }];
}

#endif // TESSERA_PASSES

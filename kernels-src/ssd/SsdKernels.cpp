//===- SsdKernels.cpp - chunked Mamba-2 SSD forward in the tile DSL
//--------===//
//
// Three launches, one program per (chunk, head, batch) or (head, batch):
//   1. chunk_state:   dt' and the cumulative decay of each chunk, and the
//                     state each chunk adds: x^T (B * exp(cs_end - cs) dt').
//   2. state_passing: walks the chunks in order, carrying the state across
//                     them: h_c = exp(cs_end(c)) h_{c-1} + state_c.
//   3. chunk_scan:    the output of each chunk: the causal, decay-masked
//                     C B^T times x (within the chunk), plus C times the
//                     incoming state scaled by exp(cs), plus D x, gated by z.
// Intermediates (chunk states, incoming states, cumulative decay, dt') are
// f32. Optional inputs are compiled variants; dt limits are run-time scalars.
//
//===----------------------------------------------------------------------===//

#include "kernels-src/ssd/Ssd.h"

#include "kernels-src/common/Check.h"

#include <cmath>
#include <map>
#include <memory>
#include <sstream>

namespace tessera::ssd {
namespace {
using namespace dsl;

/// The element type of the activations as the DSL spells it.
DType act(const Variant &v) {
  switch (v.dtype) {
  case ElementType::bf16:
    return bf16;
  case ElementType::f16:
    return f16;
  case ElementType::f32:
    break;
  }
  return f32;
}

/// A (1 x ... x 1 x n)-shaped load reshaped to the tile `shape`.
Tile loadAs(const View &v, const std::vector<Scalar> &index,
            const dsl::Shape &loadShape, const dsl::Shape &shape,
            const LoadOptions &options = {}) {
  return reshape(load(v, index, loadShape, options), shape);
}

Tile silu(const Tile &z) { return z / (1.0 + exp(-z)); }

/// mma in the kernel's element type; f32 kernels multiply exactly (ieee) so
/// that f32 results stay within 1e-5 of float64.
std::optional<Precision> precisionOf(const Variant &v) {
  if (v.dtype == ElementType::f32)
    return Precision::ieee;
  return std::nullopt;
}

Tile matmul(const Tile &a, const Tile &b, const Variant &v) {
  Tile acc = zeros({a.shape()[0], b.shape()[1]}, f32);
  return mma(cast(a, act(v)), cast(b, act(v)), acc, precisionOf(v));
}

/// dt' = clamp(softplus?(dt + bias), min, max) of one chunk (Q x 1), zero
/// past the end of the sequence.
Tile chunkDt(KernelArgs &args, const Variant &v, Scalar b, Scalar c, Scalar h) {
  const int64_t Q = v.chunk;
  Tile d = loadAs(args["dt"], {b, c, h}, {1, Q, 1}, {Q, 1});
  if (v.dtBias)
    d = d + load(args["dt_bias"], {h}, {1});
  if (v.softplus)
    d = where(d > 20.0, d, log1p(exp(d)));
  d = maximum(minimum(d, splat(args["dt_max"], {Q, 1})),
              splat(args["dt_min"], {Q, 1}));
  Tile pos = reshape(iota(Q, i64), {Q, 1});
  Scalar start = cast(c * Scalar(Q), i64);
  View x = args["x"];
  Tile valid = pos + start < splat(cast(x.dim(1), i64), {Q, 1});
  return where(valid, d, 0.0);
}

/// The inputs of a chunk's state: x, dt, A, B, [dt_bias], [seq_idx],
/// dt_min, dt_max, heads_per_group.
std::vector<Param> stateInputs(const Variant &v) {
  std::vector<Param> params = {view("x", act(v), 4), view("dt", f32, 3),
                               view("A", f32, 1), view("B", act(v), 4)};
  if (v.dtBias)
    params.push_back(view("dt_bias", f32, 1));
  if (v.seqIdx)
    params.push_back(view("seq_idx", i32, 2));
  params.insert(params.end(), {scalar("dt_min", f32), scalar("dt_max", f32),
                               scalar("heads_per_group", index)});
  return params;
}

void buildChunkState(KernelModule &m, const Variant &v) {
  const int64_t Q = v.chunk, P = v.headdimTile, N = v.dstateTile;
  std::vector<Param> params = stateInputs(v);
  params.insert(params.end(),
                {view("states", f32, 5), view("dA_cumsum", f32, 4),
                 view("dt_out", f32, 4)});

  m.kernel("ssd_chunk_state_" + v.suffix(), params, [&](KernelArgs &args) {
    View x = args["x"], A = args["A"], B = args["B"];
    Scalar c = program_id(0), h = program_id(1), b = program_id(2);
    Scalar g = h / args["heads_per_group"];

    Tile d = chunkDt(args, v, b, c, h);

    // Cumulative decay within the chunk, and decay from each step to its end.
    Tile dA = d * load(A, {h}, {1});
    Tile cs = cumsum(dA, 0);
    Tile toEnd = exp(sum(dA, 0) - cs);
    if (v.seqIdx) {
      // Only steps of the chunk's last sequence reach the chunk's end state.
      Tile s = loadAs(args["seq_idx"], {b, c}, {1, Q}, {Q, 1}, {.padding = -1});
      toEnd = where(s == max(s, 0), toEnd, 0.0);
    }

    Tile xc = loadAs(x, {b, c, h, 0}, {1, Q, 1, P}, {Q, P});
    Tile Bc = loadAs(B, {b, c, g, 0}, {1, Q, 1, N}, {Q, N});
    Tile state = matmul(transpose(xc), cast(Bc, f32) * (toEnd * d), v);

    store(args["states"], {b, c, h, 0, 0}, reshape(state, {1, 1, 1, P, N}));
    store(args["dA_cumsum"], {b, h, c, 0}, reshape(cs, {1, 1, 1, Q}));
    store(args["dt_out"], {b, h, c, 0}, reshape(d, {1, 1, 1, Q}));
  });
}

void buildStatePassing(KernelModule &m, const Variant &v) {
  const int64_t Q = v.chunk, P = v.headdimTile, N = v.dstateTile;
  std::vector<Param> params = {view("states", f32, 5),
                               view("dA_cumsum", f32, 4)};
  if (v.initialStates)
    params.push_back(view("initial_states", f32, 4));
  if (v.seqIdx)
    params.push_back(view("seq_idx", i32, 2));
  params.push_back(view("prev_states", f32, 5));
  if (v.finalStates)
    params.push_back(view("final_states", f32, 4));

  m.kernel("ssd_state_passing_" + v.suffix(), params, [&](KernelArgs &args) {
    View states = args["states"], dAcs = args["dA_cumsum"];
    View prev = args["prev_states"];
    Scalar h = program_id(0), b = program_id(1);
    Scalar nchunks = states.dim(1);

    Tile h0 = v.initialStates ? loadAs(args["initial_states"], {b, h, 0, 0},
                                       {1, 1, P, N}, {P, N})
                              : zeros({P, N}, f32);
    // The sequence the carried state belongs to (that of position 0 first).
    Tile seq0 =
        v.seqIdx ? load(args["seq_idx"], {b, 0}, {1, 1}) : zeros({1, 1}, i32);

    auto [hT, seqT] = for_range(
        0, nchunks, std::array<Tile, 2>{h0, seq0},
        [&](Scalar c, std::array<Tile, 2> carried) {
          auto [running, seqPrev] = carried;
          store(prev, {b, c, h, 0, 0}, reshape(running, {1, 1, 1, P, N}));
          // The chunk's total decay is the last entry of its cumsum (dt' is
          // zero past the end of the sequence).
          Tile total = loadAs(dAcs, {b, h, c, Q - 1}, {1, 1, 1, 1}, {1, 1});
          Tile decay = exp(total);
          Tile seqLast = seqPrev;
          if (v.seqIdx) {
            View seq = args["seq_idx"];
            Scalar last = min(c * Scalar(Q) + Scalar(Q - 1), seq.dim(1) - 1);
            seqLast = load(seq, {b, last}, {1, 1});
            decay = where(seqLast == seqPrev, decay, 0.0);
          }
          Tile added = loadAs(states, {b, c, h, 0, 0}, {1, 1, 1, P, N}, {P, N});
          return std::array<Tile, 2>{decay * running + added, seqLast};
        });
    (void)seqT;
    if (v.finalStates)
      store(args["final_states"], {b, h, 0, 0}, reshape(hT, {1, 1, P, N}));
  });
}

void buildChunkScan(KernelModule &m, const Variant &v) {
  const int64_t Q = v.chunk, P = v.headdimTile, N = v.dstateTile;
  std::vector<Param> params = {
      view("x", act(v), 4),   view("B", act(v), 4),
      view("C", act(v), 4),   view("dA_cumsum", f32, 4),
      view("dt_out", f32, 4), view("prev_states", f32, 5)};
  if (v.D)
    params.push_back(view("D", f32, v.dPerChannel ? 2 : 1));
  if (v.z)
    params.push_back(view("z", act(v), 4));
  if (v.seqIdx)
    params.push_back(view("seq_idx", i32, 2));
  params.push_back(scalar("heads_per_group", index));
  params.push_back(view("y", act(v), 4));

  m.kernel("ssd_chunk_scan_" + v.suffix(), params, [&](KernelArgs &args) {
    View x = args["x"], B = args["B"], C = args["C"];
    Scalar c = program_id(0), h = program_id(1), b = program_id(2);
    Scalar g = h / args["heads_per_group"];

    Tile cs = loadAs(args["dA_cumsum"], {b, h, c, 0}, {1, 1, 1, Q}, {Q, 1});
    Tile dtRow = loadAs(args["dt_out"], {b, h, c, 0}, {1, 1, 1, Q}, {1, Q});
    Tile xc = loadAs(x, {b, c, h, 0}, {1, Q, 1, P}, {Q, P});
    Tile Bc = loadAs(B, {b, c, g, 0}, {1, Q, 1, N}, {Q, N});
    Tile Cc = loadAs(C, {b, c, g, 0}, {1, Q, 1, N}, {Q, N});

    // Within the chunk: (C B^T) o exp(cs_i - cs_j) o dt'_j for j <= i.
    Tile rows = reshape(iota(Q), {Q, 1}), cols = reshape(iota(Q), {1, Q});
    Tile causal = cols <= rows;
    Tile seqRow, seqCol;
    if (v.seqIdx) {
      View seq = args["seq_idx"];
      seqRow = loadAs(seq, {b, c}, {1, Q}, {Q, 1}, {.padding = -1});
      seqCol = reshape(seqRow, {1, Q});
      causal = causal && (seqCol == seqRow);
    }
    // exp(-inf) = 0 masks the non-causal pairs with the exp itself.
    Tile segsum = cs - reshape(cs, {1, Q});
    Tile decay = exp(where(causal, segsum, -INFINITY));
    Tile scores = matmul(Cc, transpose(Bc), v) * decay * dtRow;
    Tile y = matmul(scores, xc, v);

    // From earlier chunks: exp(cs_i) C_i . h_prev.
    Tile hPrev =
        loadAs(args["prev_states"], {b, c, h, 0, 0}, {1, 1, 1, P, N}, {P, N});
    Tile fromPrev = matmul(Cc, transpose(hPrev), v) * exp(cs);
    if (v.seqIdx) {
      // The carried state belongs to the sequence of the position before
      // the chunk (position 0 for the first chunk).
      View seq = args["seq_idx"];
      Scalar before = max(c * Scalar(Q) - 1, Scalar(0));
      Tile seqBefore = load(seq, {b, before}, {1, 1});
      fromPrev = where(seqRow == seqBefore, fromPrev, 0.0);
    }
    y = y + fromPrev;

    if (v.D) {
      Tile D = v.dPerChannel ? load(args["D"], {h, 0}, {1, P})
                             : load(args["D"], {h}, {1});
      y = y + cast(xc, f32) * D;
    }
    if (v.z)
      y = y * silu(cast(loadAs(args["z"], {b, c, h, 0}, {1, Q, 1, P}, {Q, P}),
                        f32));
    store(args["y"], {b, c, h, 0}, reshape(cast(y, act(v)), {1, Q, 1, P}));
  });
}

/// mma for the fused kernel: f32 inputs go to tf32 Tensor Cores (10-bit
/// mantissas, f32 accumulation; the bound is documented in docs/ssd.md).
Tile fusedMatmul(const Tile &a, const Tile &b, const Variant &v) {
  Tile acc = zeros({a.shape()[0], b.shape()[1]}, f32);
  return mma(cast(a, act(v)), cast(b, act(v)), acc);
}

/// What one chunk of the fused walk reads, and what the state update and
/// the output both derive from it: dt' (Q x 1), its cumulative decay cs
/// and total, x, B (and C when asked), and with seq_idx the chunk's ids
/// and the sequence of its last position.
struct Chunk {
  Tile d, cs, total, xc, Bc, Cc, seqRow, seqLast;
};

Chunk loadChunk(KernelArgs &args, const Variant &v, Scalar b, Scalar c,
                Scalar h, Scalar g, Scalar p, const Tile &A,
                const Tile &seqPrev, bool withC) {
  const int64_t Q = v.chunk, P = v.headdimTile, N = v.dstateTile;
  Chunk k;
  k.d = chunkDt(args, v, b, c, h);
  Tile dA = k.d * A;
  k.cs = cumsum(dA, 0);
  k.total = sum(dA, 0);
  k.xc = loadAs(args["x"], {b, c, h, p}, {1, Q, 1, P}, {Q, P});
  k.Bc = loadAs(args["B"], {b, c, g, 0}, {1, Q, 1, N}, {Q, N});
  if (withC)
    k.Cc = loadAs(args["C"], {b, c, g, 0}, {1, Q, 1, N}, {Q, N});
  k.seqLast = seqPrev;
  if (v.seqIdx) {
    k.seqRow = loadAs(args["seq_idx"], {b, c}, {1, Q}, {Q, 1}, {.padding = -1});
    k.seqLast = max(k.seqRow, 0);
  }
  return k;
}

/// The transposed state after the chunk:
///   h^T = exp(total) h^T + B^T (exp(total - cs) dt' o x);
/// only steps of the chunk's last sequence reach it, and the carried state
/// only if that sequence is the carried one.
Tile nextState(const Chunk &k, const Tile &stateT, const Tile &seqPrev,
               const Variant &v) {
  Tile toEnd = exp(k.total - k.cs);
  Tile carry = exp(k.total);
  if (v.seqIdx) {
    toEnd = where(k.seqRow == k.seqLast, toEnd, 0.0);
    carry = where(k.seqLast == seqPrev, carry, 0.0);
  }
  // B^T (w o x) = (w o B)^T x. Above dstate 64, B is the larger tile: the
  // weights scale x and B goes to the Tensor Cores as loaded (H200: 1.47
  // -> 1.40 ms at dstate 128, 5.8 -> 4.6 at 256); at 64 scaling B
  // measured faster and spills nothing.
  if (v.dstateTile > 64) {
    Tile weighted = cast(cast(k.xc, f32) * (toEnd * k.d), act(v));
    return mma(transpose(cast(k.Bc, act(v))), weighted, carry * stateT);
  }
  Tile weighted = cast(cast(k.Bc, f32) * (toEnd * k.d), act(v));
  return mma(transpose(weighted), cast(k.xc, act(v)), carry * stateT);
}

/// The whole forward in one program per (headdim block, head, batch): walks
/// the chunks in order with the state, transposed (dstate x headdim block,
/// f32), in the Tensor Core accumulator, so it never goes to memory. Each
/// chunk, with cs the cumulative decay and cs_end its last entry:
///   y   = exp(cs) (C h^T)
///         + ((C B^T) o exp(cs_i - cs_j) o dt'_j [j <= i]) x + D x,
///   y  *= silu(z)
///   h^T = exp(cs_end) h^T + B^T (exp(cs_end - cs) dt' o x)
/// `name` is the kernel's name. The split forward runs the same walk over
/// segments of the sequence as "batch" rows (`segmentScan`): its initial
/// states are then "incoming_states", transposed blocks (dstate tile x
/// headdim) as rows of a 2-D view (batch * nheads * dstate tile, headdim),
/// loaded straight into the accumulator's layout.
void buildFused(KernelModule &m, const Variant &v, const std::string &name,
                bool segmentScan = false) {
  const int64_t Q = v.chunk, P = v.headdimTile, N = v.dstateTile;
  const EpilogueLoadsAtUse atUse = epilogueLoadsAtUse(v);
  std::vector<Param> params = {view("x", act(v), 4), view("dt", f32, 3),
                               view("A", f32, 1), view("B", act(v), 4),
                               view("C", act(v), 4)};
  if (v.dtBias)
    params.push_back(view("dt_bias", f32, 1));
  if (v.seqIdx)
    params.push_back(view("seq_idx", i32, 2));
  if (v.D)
    params.push_back(view("D", f32, v.dPerChannel ? 2 : 1));
  if (v.z)
    params.push_back(view("z", act(v), 4));
  if (segmentScan)
    params.push_back(view("incoming_states", f32, 2));
  else if (v.initialStates)
    params.push_back(view("initial_states", f32, 4));
  params.insert(params.end(),
                {scalar("dt_min", f32), scalar("dt_max", f32),
                 scalar("heads_per_group", index), view("y", act(v), 4)});
  if (v.finalStates)
    params.push_back(view("final_states", f32, 4));

  m.kernel(name, params, [&](KernelArgs &args) {
    View x = args["x"], y = args["y"];
    Scalar p = program_id(0), h = program_id(1), b = program_id(2);
    Scalar g = h / args["heads_per_group"];
    Scalar nchunks = ceil_div(x.dim(1), Scalar(Q));
    Tile A = load(args["A"], {h}, {1});

    Tile h0 = segmentScan
                  ? load(args["incoming_states"], {b * x.dim(2) + h, p}, {N, P})
              : v.initialStates
                  ? transpose(loadAs(args["initial_states"], {b, h, p, 0},
                                     {1, 1, P, N}, {P, N}))
                  : zeros({N, P}, f32);
    // The sequence the carried state belongs to (that of position 0 first).
    Tile seq0 =
        v.seqIdx ? load(args["seq_idx"], {b, 0}, {1, 1}) : zeros({1, 1}, i32);
    Tile rows = reshape(iota(Q), {Q, 1}), cols = reshape(iota(Q), {1, Q});

    auto [hT, seqT] = for_range(
        0, nchunks, std::array<Tile, 2>{h0, seq0},
        [&](Scalar c, std::array<Tile, 2> carried) {
          auto [stateT, seqPrev] = carried;
          Chunk k = loadChunk(args, v, b, c, h, g, p, A, seqPrev,
                              /*withC=*/true);

          // From earlier chunks, through the carried state.
          Tile fromPrev = fusedMatmul(k.Cc, stateT, v) * exp(k.cs);
          if (v.seqIdx)
            fromPrev = where(k.seqRow == seqPrev, fromPrev, 0.0);

          Tile nextT = nextState(k, stateT, seqPrev, v);

          // Within the chunk.
          Tile causal = cols <= rows;
          if (v.seqIdx)
            causal = causal && (reshape(k.seqRow, {1, Q}) == k.seqRow);
          // exp(-inf) = 0 masks the non-causal pairs with the exp itself.
          Tile decay =
              exp(where(causal, k.cs - reshape(k.cs, {1, Q}), -INFINITY));
          Tile scores = fusedMatmul(k.Cc, transpose(k.Bc), v) * decay *
                        reshape(k.d, {1, Q});
          Tile out = fusedMatmul(scores, k.xc, v) + fromPrev;
          if (v.D) {
            Tile D = v.dPerChannel ? load(args["D"], {h, p}, {1, P},
                                          {.at_use = atUse.dRow})
                                   : load(args["D"], {h}, {1});
            out = out + cast(k.xc, f32) * D;
          }
          if (v.z)
            out = out * silu(cast(loadAs(args["z"], {b, c, h, p}, {1, Q, 1, P},
                                         {Q, P}, {.at_use = atUse.z}),
                                  f32));
          store(y, {b, c, h, p}, reshape(cast(out, act(v)), {1, Q, 1, P}));
          return std::array<Tile, 2>{nextT, k.seqLast};
        });
    (void)seqT;
    if (v.finalStates)
      store(args["final_states"], {b, h, p, 0},
            reshape(transpose(hT), {1, 1, P, N}));
  });
}

/// The segment-state walk takes chunks this many times the fused walk's.
/// H200, batch 2 x 16K, dstate 128, 8 segments: 1.675 ms with the fused
/// chunk (four stages), 1.558 with twice it (two stages), 1.73 with twice
/// it on four stages and 1.84 with four times it (one CTA per SM).
constexpr int64_t kStatePassChunks = 2;

/// Split forward, first kernel: the state each segment of the sequence
/// ends with when it starts from zero, and the segment's total decay
/// sum(dt' A). The views are those of the split (x, dt, B, seq_idx as
/// (batch * segments, seqlen / segments, ...)); program z = (batch,
/// segment) over the segments whose state is needed: all but the last, or
/// all of them with final states. Grid (headdim blocks, nheads, batch *
/// that many). The states are stored transposed, (dstate tile x headdim)
/// blocks as rows of a 2-D view (batch * computed * nheads * dstate tile,
/// headdim), as the accumulator holds them.
void buildSegmentStates(KernelModule &m, const Variant &fused) {
  // Longer chunks than the fused walk's: without the within-chunk product
  // nothing grows with the chunk but the step, and half the steps are half
  // the serial latency.
  Variant v = fused;
  v.chunk *= kStatePassChunks;
  const int64_t Q = v.chunk, P = v.headdimTile, N = v.dstateTile;
  std::vector<Param> params = stateInputs(v);
  params.insert(params.end(),
                {scalar("segments", index), view("segment_states", f32, 2),
                 view("segment_decay", f32, 2)});

  m.kernel(segmentStatesName(fused), params, [&](KernelArgs &args) {
    Scalar p = program_id(0), h = program_id(1), j = program_id(2);
    Scalar segments = args["segments"];
    Scalar computed = v.finalStates ? segments : segments - 1;
    Scalar row = (j / computed) * segments + j % computed;
    Scalar g = h / args["heads_per_group"];
    Scalar nchunks = ceil_div(View(args["x"]).dim(1), Scalar(Q));
    Tile A = load(args["A"], {h}, {1});
    Tile seq0 =
        v.seqIdx ? load(args["seq_idx"], {row, 0}, {1, 1}) : zeros({1, 1}, i32);
    auto [hT, seqT, decay] = for_range(
        0, nchunks,
        std::array<Tile, 3>{zeros({N, P}, f32), seq0, zeros({1, 1}, f32)},
        [&](Scalar c, std::array<Tile, 3> carried) {
          auto [stateT, seqPrev, total] = carried;
          Chunk k = loadChunk(args, v, row, c, h, g, p, A, seqPrev,
                              /*withC=*/false);
          return std::array<Tile, 3>{nextState(k, stateT, seqPrev, v),
                                     k.seqLast, total + k.total};
        });
    (void)seqT;
    store(args["segment_states"], {j * View(args["x"]).dim(2) + h, p}, hT);
    // Every headdim block computes the same sum; the first stores it.
    if_then(p == Scalar(int64_t(0)), [&] {
      store(args["segment_decay"], {j, h}, reshape(decay, {1, 1}));
    });
  });
}

/// Split forward, second kernel: walks the segments of each (batch, head)
/// in order and writes the state each one starts from,
///   h_in(0) = h0 (or 0),  h_in(s+1) = exp(decay_s) h_in(s) + state_s,
/// with packed sequences the carried state dropped where the sequence
/// changes; then the final state. States are transposed (dstate tile x
/// headdim block) here, as the other two kernels hold them; the caller's
/// initial and final states are (batch, nheads, headdim, dstate). Grid
/// (headdim blocks, nheads, batch).
void buildCombineStates(KernelModule &m, const Variant &v) {
  const int64_t P = v.headdimTile, N = v.dstateTile;
  std::vector<Param> params = {view("segment_states", f32, 2),
                               view("segment_decay", f32, 2)};
  if (v.initialStates)
    params.push_back(view("initial_states", f32, 4));
  if (v.seqIdx)
    params.push_back(view("seq_idx", i32, 2));
  params.insert(params.end(),
                {scalar("segments", index), view("incoming_states", f32, 2)});
  if (v.finalStates)
    params.push_back(view("final_states", f32, 4));

  m.kernel(combineStatesName(v), params, [&](KernelArgs &args) {
    // Elementwise over the (dstate tile x headdim block) state: enough
    // warps that each of the three states live in the loop (carried, start,
    // added) takes at most 32 registers a thread. On the module's four
    // warps, dstate 128 spilled 168 bytes here (H200, 2 x 16K in 8
    // segments: 0.030 ms on four warps, 0.029 on eight). Where four do,
    // the module's warps.
    if (int64_t warps = combineWarps(v); warps > 4)
      num_warps(warps);
    View incoming = args["incoming_states"];
    Scalar p = program_id(0), h = program_id(1), b = program_id(2);
    Scalar heads = num_programs(1);
    Scalar segments = args["segments"];
    Scalar computed = v.finalStates ? segments : segments - 1;
    Tile h0 = v.initialStates
                  ? transpose(loadAs(args["initial_states"], {b, h, p, 0},
                                     {1, 1, P, N}, {P, N}))
                  : zeros({N, P}, f32);
    // The first and last sequence ids of segment s (its row of seq_idx).
    auto seqAt = [&](Scalar s, Scalar t) {
      return load(args["seq_idx"], {b * segments + s, t}, {1, 1});
    };
    Scalar last = v.seqIdx ? View(args["seq_idx"]).dim(1) - 1 : Scalar(0);
    // The carried state belongs to the sequence of position 0 first.
    Tile seq0 = v.seqIdx ? seqAt(Scalar(int64_t(0)), Scalar(int64_t(0)))
                         : zeros({1, 1}, i32);
    // What segment s starts from: the carried state if the sequence goes
    // on into it.
    auto startOf = [&](Scalar s, const Tile &state, const Tile &seq) {
      return v.seqIdx ? where(seqAt(s, Scalar(int64_t(0))) == seq, state, 0.0)
                      : state;
    };
    auto [hEnd, seqEnd] = for_range(
        0, computed, std::array<Tile, 2>{h0, seq0},
        [&](Scalar s, std::array<Tile, 2> carried) {
          auto [state, seq] = carried;
          Tile start = startOf(s, state, seq);
          store(incoming, {(b * segments + s) * heads + h, p}, start);
          Scalar j = b * computed + s;
          Tile carry = exp(load(args["segment_decay"], {j, h}, {1, 1}));
          Tile seqLast = seq;
          if (v.seqIdx) {
            // A segment carries its start state through only if it holds
            // one sequence (ids never decrease).
            seqLast = seqAt(s, last);
            carry = where(seqAt(s, Scalar(int64_t(0))) == seqLast, carry, 0.0);
          }
          Tile added = load(args["segment_states"], {j * heads + h, p}, {N, P});
          return std::array<Tile, 2>{carry * start + added, seqLast};
        });
    if (v.finalStates)
      store(args["final_states"], {b, h, p, 0},
            reshape(transpose(hEnd), {1, 1, P, N}));
    else
      store(incoming, {(b * segments + segments - 1) * heads + h, p},
            startOf(segments - 1, hEnd, seqEnd));
  });
}

void buildFused(KernelModule &m, const Variant &v) {
  buildFused(m, v, fusedKernelName(v));
}

/// The split forward's three kernels.
void buildSplit(KernelModule &m, const Variant &v) {
  if (!splittable(v))
    throw Error("ssd: no split forward at dstate " +
                std::to_string(v.dstateTile) + " (up to 128)");
  buildSegmentStates(m, v);
  buildCombineStates(m, v);
  buildFused(m, segmentScanVariant(v), segmentScanName(v),
             /*segmentScan=*/true);
}

std::string shapeStr(const std::vector<int64_t> &s) {
  std::ostringstream out;
  for (size_t i = 0; i < s.size(); ++i)
    out << (i ? "x" : "") << s[i];
  return out.str();
}

/// Checks one buffer: present iff `wanted`, of `dtype` and `shape`.
std::string checkBuffer(const char *name, const interp::Buffer *buf,
                        bool wanted, interp::DType dtype,
                        const std::vector<int64_t> &shape) {
  if (!wanted)
    return buf ? std::string(name) + " was given but its option is off" : "";
  if (!buf)
    return std::string(name) + " is required (null buffer)";
  if (buf->dtype() != dtype)
    return std::string(name) + " must be " + interp::dtypeName(dtype) +
           ", got " + interp::dtypeName(buf->dtype());
  if (buf->shape() != shape)
    return std::string(name) + " must have shape " + shapeStr(shape) +
           ", got " + shapeStr(buf->shape());
  return "";
}

Variant variantFor(const Shape &s, const Options &o, const Config &cfg) {
  return ssd::variantFor(s, o, elementType(cfg.dtype), cfg.chunk);
}

void buildVariant(KernelModule &m, const Variant &v) {
  buildChunkState(m, v);
  buildStatePassing(m, v);
  buildChunkScan(m, v);
}

} // namespace

ElementType elementType(DType dtype) {
  return dtype == bf16  ? ElementType::bf16
         : dtype == f16 ? ElementType::f16
                        : ElementType::f32;
}

void build(KernelModule &module, const Shape &shape, const Options &options,
           const Config &config) {
  buildVariant(module, variantFor(shape, options, config));
}

void buildFused(KernelModule &module, const Shape &shape,
                const Options &options, DType dtype) {
  buildFused(module, fusedVariantFor(shape, options, elementType(dtype)));
}

void buildSplit(KernelModule &module, const Shape &shape,
                const Options &options, DType dtype) {
  buildSplit(module, fusedVariantFor(shape, options, elementType(dtype)));
}

interp::Status forwardInterpreted(const Shape &s, const Options &o,
                                  const Config &cfg, Buffers &bufs,
                                  int *launches, interp::Mode mode,
                                  const LaunchHook &hook) {
  if (launches)
    *launches = 0;
  // Validate everything before launching anything.
  for (auto [name, value] : {std::pair<const char *, int64_t>{"batch", s.batch},
                             {"seqlen", s.seqlen},
                             {"nheads", s.nheads},
                             {"headdim", s.headdim},
                             {"dstate", s.dstate},
                             {"ngroups", s.ngroups}})
    if (value < 1)
      return interp::Status::error(std::string("ssd: ") + name +
                                   " must be >= 1, got " +
                                   std::to_string(value));
  if (s.nheads % s.ngroups != 0)
    return interp::Status::error("ssd: ngroups (" + std::to_string(s.ngroups) +
                                 ") must divide nheads (" +
                                 std::to_string(s.nheads) + ")");
  if (s.headdim > 256 || s.dstate > 256)
    return interp::Status::error(
        "ssd: headdim and dstate up to 256 are supported, got headdim " +
        std::to_string(s.headdim) + ", dstate " + std::to_string(s.dstate));
  if (cfg.chunk != 32 && cfg.chunk != 64 && cfg.chunk != 128 &&
      cfg.chunk != 256)
    return interp::Status::error("ssd: chunk must be 32, 64, 128 or 256, got " +
                                 std::to_string(cfg.chunk));
  if (cfg.dtype != f32 && cfg.dtype != bf16 && cfg.dtype != f16)
    return interp::Status::error("ssd: dtype must be f32, bf16 or f16");
  if (!(o.dtMin <= o.dtMax))
    return interp::Status::error("ssd: dt limits need dt_min <= dt_max");

  const int64_t Bt = s.batch, L = s.seqlen, H = s.nheads, P = s.headdim,
                N = s.dstate, G = s.ngroups;
  interp::DType act = check::toInterp(cfg.dtype), f = interp::DType::f32;
  std::string err;
  auto check = [&](const char *n, const interp::Buffer *buf, bool want,
                   interp::DType t, std::vector<int64_t> shape) {
    if (err.empty())
      err = checkBuffer(n, buf, want, t, shape);
  };
  check("x", bufs.x, true, act, {Bt, L, H, P});
  check("dt", bufs.dt, true, f, {Bt, L, H});
  check("A", bufs.A, true, f, {H});
  check("B", bufs.B, true, act, {Bt, L, G, N});
  check("C", bufs.C, true, act, {Bt, L, G, N});
  check("D", bufs.D, o.hasD, f,
        o.dPerChannel ? std::vector<int64_t>{H, P} : std::vector<int64_t>{H});
  check("z", bufs.z, o.hasZ, act, {Bt, L, H, P});
  check("dt_bias", bufs.dtBias, o.hasDtBias, f, {H});
  check("initial_states", bufs.initialStates, o.hasInitialStates, f,
        {Bt, H, P, N});
  check("seq_idx", bufs.seqIdx, o.hasSeqIdx, interp::DType::i32, {Bt, L});
  check("y", bufs.y, true, act, {Bt, L, H, P});
  check("final_states", bufs.finalStates, o.returnFinalStates, f,
        {Bt, H, P, N});
  if (!err.empty())
    return interp::Status::error("ssd: " + err);
  if (o.dPerChannel && !o.hasD)
    return interp::Status::error("ssd: dPerChannel needs hasD");
  if (o.hasSeqIdx) {
    // Packed sequences: ids never decrease along a row (the kernels find the
    // sequence of a chunk's last position as the chunk's largest id).
    for (int64_t b = 0; b < Bt; ++b)
      for (int64_t t = 1; t < L; ++t)
        if (bufs.seqIdx->getInt(b * L + t) < bufs.seqIdx->getInt(b * L + t - 1))
          return interp::Status::error(
              "ssd: seq_idx must be nondecreasing along each row (packed "
              "sequences); row " +
              std::to_string(b) + " decreases at position " +
              std::to_string(t));
  }

  if (cfg.fused && cfg.chunk != fusedChunk(elementType(cfg.dtype)))
    return interp::Status::error(
        "ssd: the fused forward runs chunk " +
        std::to_string(fusedChunk(elementType(cfg.dtype))) + " in " +
        dsl::name(cfg.dtype) + ", got " + std::to_string(cfg.chunk));
  Variant v = cfg.fused ? fusedVariantFor(s, o, elementType(cfg.dtype))
                        : variantFor(s, o, cfg);

  const bool split = cfg.fused && cfg.segments > 1;
  if (cfg.segments < 1 || (cfg.segments > 1 && !cfg.fused))
    return interp::Status::error(
        "ssd: segments must be >= 1, and above 1 only for the fused forward");
  if (split && !splittable(v))
    return interp::Status::error("ssd: no split forward at dstate " +
                                 std::to_string(N) + " (up to 128)");
  if (split && L % cfg.segments != 0)
    return interp::Status::error("ssd: seqlen (" + std::to_string(L) +
                                 ") must be a multiple of " + "segments (" +
                                 std::to_string(cfg.segments) + ")");

  // One module per variant and algorithm, built once per process.
  enum Kind { Chunked, Fused, Split };
  const Kind kind = split ? Split : cfg.fused ? Fused : Chunked;
  static std::map<std::pair<Kind, Variant>, std::unique_ptr<KernelModule>>
      cache;
  std::unique_ptr<KernelModule> &module = cache[{kind, v}];
  if (!module) {
    auto built = std::make_unique<KernelModule>();
    try {
      if (kind == Split)
        buildSplit(*built, v);
      else if (kind == Fused)
        buildFused(*built, v);
      else
        buildVariant(*built, v);
    } catch (const Error &e) {
      return interp::Status::error(std::string("ssd: kernel build failed: ") +
                                   e.what());
    }
    module = std::move(built);
  }

  using interp::KernelArg;
  using interp::ViewArg;
  interp::LaunchConfig launch;
  launch.mode = mode;
  const int64_t headsPerGroup = H / G;
  auto run = [&](const std::string &kernel, std::vector<KernelArg> args,
                 std::array<int64_t, 3> grid) {
    launch.grid = grid;
    if (launches)
      ++*launches;
    const std::string name = kernel + "_" + v.suffix();
    if (hook)
      hook(name, args, grid, false);
    interp::Status st = interp::run(module->module(), name, args, launch);
    if (hook && st)
      hook(name, args, grid, true);
    return st;
  };

  if (split) {
    // Rows of (batch * segments) of seqlen / segments positions: the same
    // memory, so the row-major buffers need no copy.
    const int64_t S = cfg.segments, Sp = v.finalStates ? S : S - 1;
    const int64_t Pb = v.headdimTile, pBlocks = (P + Pb - 1) / Pb;
    auto rows = [&](interp::Buffer *buf) {
      ViewArg view{buf};
      view.sizes = buf->shape();
      view.sizes[0] *= S;
      view.sizes[1] /= S;
      view.strides.assign(view.sizes.size(), 1);
      for (int64_t d = int64_t(view.sizes.size()) - 2; d >= 0; --d)
        view.strides[d] = view.strides[d + 1] * view.sizes[d + 1];
      return view;
    };
    // States transposed, (dstate tile x headdim) blocks as rows.
    const int64_t Nt = v.dstateTile;
    interp::Buffer segStates(f, {Bt * Sp * H * Nt, P}),
        segDecay(f, {Bt * Sp, H}), incoming(f, {Bt * S * H * Nt, P});
    std::vector<KernelArg> a1 = {rows(bufs.x), rows(bufs.dt), ViewArg{bufs.A},
                                 rows(bufs.B)};
    if (v.dtBias)
      a1.push_back(ViewArg{bufs.dtBias});
    if (v.seqIdx)
      a1.push_back(rows(bufs.seqIdx));
    a1.insert(a1.end(),
              {KernelArg(o.dtMin), KernelArg(o.dtMax), KernelArg(headsPerGroup),
               KernelArg(S), ViewArg{&segStates}, ViewArg{&segDecay}});
    if (interp::Status st =
            run("ssd_segment_states", a1, {pBlocks, H, Bt * Sp});
        !st)
      return st;

    std::vector<KernelArg> a2 = {ViewArg{&segStates}, ViewArg{&segDecay}};
    if (v.initialStates)
      a2.push_back(ViewArg{bufs.initialStates});
    if (v.seqIdx)
      a2.push_back(rows(bufs.seqIdx));
    a2.insert(a2.end(), {KernelArg(S), ViewArg{&incoming}});
    if (v.finalStates)
      a2.push_back(ViewArg{bufs.finalStates});
    if (interp::Status st = run("ssd_combine_states", a2, {pBlocks, H, Bt});
        !st)
      return st;

    std::vector<KernelArg> a3 = {rows(bufs.x), rows(bufs.dt), ViewArg{bufs.A},
                                 rows(bufs.B), rows(bufs.C)};
    if (v.dtBias)
      a3.push_back(ViewArg{bufs.dtBias});
    if (v.seqIdx)
      a3.push_back(rows(bufs.seqIdx));
    if (v.D)
      a3.push_back(ViewArg{bufs.D});
    if (v.z)
      a3.push_back(rows(bufs.z));
    a3.insert(a3.end(),
              {ViewArg{&incoming}, KernelArg(o.dtMin), KernelArg(o.dtMax),
               KernelArg(headsPerGroup), rows(bufs.y)});
    return run("ssd_segment_scan", a3, {pBlocks, H, Bt * S});
  }

  if (cfg.fused) {
    std::vector<KernelArg> a = {ViewArg{bufs.x}, ViewArg{bufs.dt},
                                ViewArg{bufs.A}, ViewArg{bufs.B},
                                ViewArg{bufs.C}};
    if (v.dtBias)
      a.push_back(ViewArg{bufs.dtBias});
    if (v.seqIdx)
      a.push_back(ViewArg{bufs.seqIdx});
    if (v.D)
      a.push_back(ViewArg{bufs.D});
    if (v.z)
      a.push_back(ViewArg{bufs.z});
    if (v.initialStates)
      a.push_back(ViewArg{bufs.initialStates});
    a.insert(a.end(), {KernelArg(o.dtMin), KernelArg(o.dtMax),
                       KernelArg(headsPerGroup), ViewArg{bufs.y}});
    if (v.finalStates)
      a.push_back(ViewArg{bufs.finalStates});
    const int64_t Pb = v.headdimTile;
    return run("ssd_fused", a, {(P + Pb - 1) / Pb, H, Bt});
  }

  const int64_t Q = cfg.chunk, nc = (L + Q - 1) / Q;
  interp::Buffer states(f, {Bt, nc, H, P, N}), prev(f, {Bt, nc, H, P, N}),
      dAcs(f, {Bt, H, nc, Q}), dtOut(f, {Bt, H, nc, Q});
  std::vector<KernelArg> a1 = {ViewArg{bufs.x}, ViewArg{bufs.dt},
                               ViewArg{bufs.A}, ViewArg{bufs.B}};
  if (v.dtBias)
    a1.push_back(ViewArg{bufs.dtBias});
  if (v.seqIdx)
    a1.push_back(ViewArg{bufs.seqIdx});
  a1.insert(a1.end(),
            {KernelArg(o.dtMin), KernelArg(o.dtMax), KernelArg(headsPerGroup),
             ViewArg{&states}, ViewArg{&dAcs}, ViewArg{&dtOut}});
  if (interp::Status st = run("ssd_chunk_state", a1, {nc, H, Bt}); !st)
    return st;

  std::vector<KernelArg> a2 = {ViewArg{&states}, ViewArg{&dAcs}};
  if (v.initialStates)
    a2.push_back(ViewArg{bufs.initialStates});
  if (v.seqIdx)
    a2.push_back(ViewArg{bufs.seqIdx});
  a2.push_back(ViewArg{&prev});
  if (v.finalStates)
    a2.push_back(ViewArg{bufs.finalStates});
  if (interp::Status st = run("ssd_state_passing", a2, {H, Bt, 1}); !st)
    return st;

  std::vector<KernelArg> a3 = {ViewArg{bufs.x}, ViewArg{bufs.B},
                               ViewArg{bufs.C}, ViewArg{&dAcs},
                               ViewArg{&dtOut}, ViewArg{&prev}};
  if (v.D)
    a3.push_back(ViewArg{bufs.D});
  if (v.z)
    a3.push_back(ViewArg{bufs.z});
  if (v.seqIdx)
    a3.push_back(ViewArg{bufs.seqIdx});
  a3.push_back(KernelArg(headsPerGroup));
  a3.push_back(ViewArg{bufs.y});
  return run("ssd_chunk_scan", a3, {nc, H, Bt});
}

} // namespace tessera::ssd

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

ElementType elementType(DType dtype) {
  return dtype == bf16  ? ElementType::bf16
         : dtype == f16 ? ElementType::f16
                        : ElementType::f32;
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

void buildChunkState(KernelModule &m, const Variant &v) {
  const int64_t Q = v.chunk, P = v.headdimTile, N = v.dstateTile;
  std::vector<Param> params = {view("x", act(v), 4), view("dt", f32, 3),
                               view("A", f32, 1), view("B", act(v), 4)};
  if (v.dtBias)
    params.push_back(view("dt_bias", f32, 1));
  if (v.seqIdx)
    params.push_back(view("seq_idx", i32, 2));
  params.insert(params.end(),
                {scalar("dt_min", f32), scalar("dt_max", f32),
                 scalar("heads_per_group", index), view("states", f32, 5),
                 view("dA_cumsum", f32, 4), view("dt_out", f32, 4)});

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

/// The whole forward in one program per (headdim block, head, batch): walks
/// the chunks in order with the state, transposed (dstate x headdim block,
/// f32), in the Tensor Core accumulator, so it never goes to memory. Each
/// chunk, with cs the cumulative decay and cs_end its last entry:
///   y   = exp(cs) (C h^T)
///         + ((C B^T) o exp(cs_i - cs_j) o dt'_j [j <= i]) x + D x,
///   y  *= silu(z)
///   h^T = exp(cs_end) h^T + B^T (exp(cs_end - cs) dt' o x)
void buildFused(KernelModule &m, const Variant &v) {
  const int64_t Q = v.chunk, P = v.headdimTile, N = v.dstateTile;
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
  if (v.initialStates)
    params.push_back(view("initial_states", f32, 4));
  params.insert(params.end(),
                {scalar("dt_min", f32), scalar("dt_max", f32),
                 scalar("heads_per_group", index), view("y", act(v), 4)});
  if (v.finalStates)
    params.push_back(view("final_states", f32, 4));

  m.kernel(fusedKernelName(v), params, [&](KernelArgs &args) {
    View x = args["x"], B = args["B"], C = args["C"], y = args["y"];
    Scalar p = program_id(0), h = program_id(1), b = program_id(2);
    Scalar g = h / args["heads_per_group"];
    Scalar nchunks = ceil_div(x.dim(1), Scalar(Q));
    Tile A = load(args["A"], {h}, {1});

    Tile h0 = v.initialStates
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
          Tile d = chunkDt(args, v, b, c, h);
          Tile dA = d * A;
          Tile cs = cumsum(dA, 0);
          Tile total = sum(dA, 0);
          Tile xc = loadAs(x, {b, c, h, p}, {1, Q, 1, P}, {Q, P});
          Tile Bc = loadAs(B, {b, c, g, 0}, {1, Q, 1, N}, {Q, N});
          Tile Cc = loadAs(C, {b, c, g, 0}, {1, Q, 1, N}, {Q, N});
          Tile seqRow, seqLast = seqPrev;
          if (v.seqIdx) {
            seqRow = loadAs(args["seq_idx"], {b, c}, {1, Q}, {Q, 1},
                            {.padding = -1});
            seqLast = max(seqRow, 0);
          }

          // From earlier chunks, through the carried state.
          Tile fromPrev = fusedMatmul(Cc, stateT, v) * exp(cs);
          if (v.seqIdx)
            fromPrev = where(seqRow == seqPrev, fromPrev, 0.0);

          // The state after the chunk; only steps of the chunk's last
          // sequence reach it, and the carried state only if that sequence
          // is the carried one.
          Tile toEnd = exp(total - cs);
          Tile carry = exp(total);
          if (v.seqIdx) {
            toEnd = where(seqRow == seqLast, toEnd, 0.0);
            carry = where(seqLast == seqPrev, carry, 0.0);
          }
          // B^T (w o x) = (w o B)^T x. Above dstate 64, B is the larger
          // tile: the weights scale x and B goes to the Tensor Cores as
          // loaded (H200: 1.47 -> 1.40 ms at dstate 128, 5.8 -> 4.6 at
          // 256); at 64 scaling B measured faster and spills nothing.
          Tile nextT;
          if (v.dstateTile > 64) {
            Tile weighted = cast(cast(xc, f32) * (toEnd * d), act(v));
            nextT = mma(transpose(cast(Bc, act(v))), weighted, carry * stateT);
          } else {
            Tile weighted = cast(cast(Bc, f32) * (toEnd * d), act(v));
            nextT = mma(transpose(weighted), cast(xc, act(v)), carry * stateT);
          }

          // Within the chunk.
          Tile causal = cols <= rows;
          if (v.seqIdx)
            causal = causal && (reshape(seqRow, {1, Q}) == seqRow);
          // exp(-inf) = 0 masks the non-causal pairs with the exp itself.
          Tile decay = exp(where(causal, cs - reshape(cs, {1, Q}), -INFINITY));
          Tile scores =
              fusedMatmul(Cc, transpose(Bc), v) * decay * reshape(d, {1, Q});
          Tile out = fusedMatmul(scores, xc, v) + fromPrev;
          if (v.D) {
            Tile D = v.dPerChannel ? load(args["D"], {h, p}, {1, P})
                                   : load(args["D"], {h}, {1});
            out = out + cast(xc, f32) * D;
          }
          if (v.z)
            out =
                out *
                silu(cast(loadAs(args["z"], {b, c, h, p}, {1, Q, 1, P}, {Q, P}),
                          f32));
          store(y, {b, c, h, p}, reshape(cast(out, act(v)), {1, Q, 1, P}));
          return std::array<Tile, 2>{nextT, seqLast};
        });
    (void)seqT;
    if (v.finalStates)
      store(args["final_states"], {b, h, p, 0},
            reshape(transpose(hT), {1, 1, P, N}));
  });
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

void build(KernelModule &module, const Shape &shape, const Options &options,
           const Config &config) {
  buildVariant(module, variantFor(shape, options, config));
}

void buildFused(KernelModule &module, const Shape &shape,
                const Options &options, DType dtype) {
  buildFused(module, fusedVariantFor(shape, options, elementType(dtype)));
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

  // One module per variant and algorithm, built once per process.
  static std::map<std::pair<bool, Variant>, std::unique_ptr<KernelModule>>
      cache;
  std::unique_ptr<KernelModule> &module = cache[{cfg.fused, v}];
  if (!module) {
    auto built = std::make_unique<KernelModule>();
    try {
      if (cfg.fused)
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

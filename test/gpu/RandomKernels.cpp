//===- RandomKernels.cpp - random tile kernels for differential tests ------===//
//
// Each kernel loads tiles of two inputs, applies a random chain of ops that
// keep the (rows, cols) shape (elementwise math, masks from iota, reduce and
// broadcast back, scans, permutes, reshapes, gathers, mma, casts, loops)
// and stores the result. Every op of the dialect appears in some chain;
// values stay O(1) so that the interpreter and the GPU can be compared by
// relative error.
//
//===----------------------------------------------------------------------===//

#include "test/gpu/RandomKernels.h"

#include <random>

namespace tessera::difftest {
using namespace dsl;

RandomKernel buildRandomKernel(KernelModule &module, const std::string &name,
                               uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int n) { return int(rng() % uint64_t(n)); };
  RandomKernel k;
  k.name = name;
  k.seed = seed;
  const DType types[] = {f32, bf16, f16};
  k.inType = types[pick(3)];
  k.outType = types[pick(2)];
  k.sixteenBit = k.inType != f32 || k.outType != f32;
  k.rows = int64_t(1) << pick(7); // 1..64
  k.cols = int64_t(1) << (1 + pick(6)); // 2..64
  while (k.rows * k.cols > 2048)
    k.rows /= 2;
  k.grid = {1 + pick(3), 1, 1};
  k.viewRows = std::max<int64_t>(1, k.grid[0] * k.rows - pick(int(k.rows)));
  k.viewCols = std::max<int64_t>(1, k.cols - pick(int(k.cols)));
  k.alpha = 0.5 + 0.1 * pick(10);
  const int64_t R = k.rows, C = k.cols;
  int steps = 3 + pick(6);
  std::vector<int> chain;
  for (int i = 0; i < steps; ++i)
    chain.push_back(pick(19));

  module.kernel(name,
                {view("x", k.inType, 2), view("u", k.inType, 2),
                 view("w", k.inType, 2), scalar("alpha", f32),
                 view("out", k.outType, 2)},
                [&](KernelArgs &args) {
    Scalar pid = program_id(0);
    Tile t = cast(load(args["x"], {pid, 0}, {R, C}), f32);
    Tile u = cast(load(args["u"], {pid, 0}, {R, C}, {.padding = 0.5}), f32);
    Tile rowsIdx = reshape(iota(R), {R, 1}), colsIdx = reshape(iota(C), {1, C});
    for (int op : chain) {
      switch (op) {
      case 0:
        k.ops.push_back("axpb");
        t = t * Scalar(args["alpha"]) + 0.25;
        break;
      case 1:
        k.ops.push_back("exp2");
        t = exp2(t * 0.5);
        break;
      case 2:
        k.ops.push_back("sin+cos");
        t = sin(t) + cos(u);
        break;
      case 3:
        k.ops.push_back("maximum");
        t = maximum(t, u);
        break;
      case 4:
        k.ops.push_back("where");
        t = where(t > 0.1, t, u * 0.5);
        break;
      case 5:
        k.ops.push_back("reduce-max+broadcast");
        t = t - max(t, pick(2));
        break;
      case 6: {
        bool reverse = pick(2);
        int axis = pick(2);
        k.ops.push_back(std::string("cumsum") + (reverse ? "-reverse" : ""));
        t = cumsum(t, axis, reverse) * (1.0 / double(axis ? C : R));
        break;
      }
      case 7:
        k.ops.push_back("transpose*2");
        t = transpose(transpose(t) * 2.0) * 0.5;
        break;
      case 8:
        k.ops.push_back("reshape-1d");
        t = reshape(reshape(t, {R * C}) + 1.0, {R, C}) - 1.0;
        break;
      case 9: {
        DType mt = k.inType;
        k.ops.push_back(std::string("mma-") + dsl::name(mt));
        Tile w = load(args["w"], {0, 0}, {C, C});
        t = mma(cast(t, mt), cast(w, mt), zeros({R, C}, f32)) *
            (1.0 / double(C));
        break;
      }
      case 10:
        k.ops.push_back("gather-reverse");
        t = gather(t, broadcast_to((double(C) - 1.0) - colsIdx, {R, C}), 1);
        break;
      case 11:
        k.ops.push_back("cast-bf16");
        k.sixteenBit = true;
        t = cast(cast(t, bf16), f32);
        break;
      case 12:
        k.ops.push_back("causal-mask");
        t = where(colsIdx <= rowsIdx, t, 0.0);
        break;
      case 13:
        k.ops.push_back("loop");
        t = for_range(0, 3, t, [&](Scalar, Tile acc) { return acc * 0.5 + u; });
        break;
      case 15:
        k.ops.push_back("if-else");
        t = if_else(pid + Scalar(1) < num_programs(0),
                    [&] { return t * 2.0; }, [&] { return t - 1.0; });
        break;
      case 16: {
        int axis = pick(2);
        k.ops.push_back("cummax");
        t = cummax(t, axis, pick(2) == 1);
        break;
      }
      case 17:
        k.ops.push_back("reduce-min+prod");
        t = t + min(t, pick(2)) * 0.5 + prod(1.0 + t * 0.01, pick(2)) * 0.1;
        break;
      case 18: {
        k.ops.push_back("int-arith");
        Tile ti = cast(t * 8.0, i32);
        ti = ti * 3.0 + broadcast_to(colsIdx, {R, C}) - 5.0;
        t = cast(ti % 7.0, f32) * 0.1 + t;
        break;
      }
      default:
        k.ops.push_back("sqrt-abs+sum");
        t = sqrt(abs(t) + 1.0) + sum(t, 1 - pick(2)) * 0.01;
        break;
      }
    }
    store(args["out"], {pid, 0}, cast(t, k.outType));
  });
  return k;
}

} // namespace tessera::difftest

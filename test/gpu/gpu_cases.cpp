//===- gpu_cases.cpp - record GPU test cases on the build machine
//----------===//
//
//   tessera-gpu-cases OUT_DIR [--count N] [--seed S]
//
// Compiles kernels to PTX for sm_90a and sm_80 and records, for each, the
// inputs and the expected outputs (GpuCase.h):
//  - the shipped GEMM, softmax and fused long convolution against their
//    float64 references, at sizes that are and are not tile multiples;
//  - N random kernels (differential tests) against the device-faithful
//    interpreter, seeds S, S+1, ... (printed).
//
//===----------------------------------------------------------------------===//

#include "interpreter/Interpreter.h"
#include "kernels-src/common/Check.h"
#include "kernels-src/conv/Conv.h"
#include "kernels-src/gemm/Gemm.h"
#include "kernels-src/softmax/Softmax.h"
#include "kernels-src/ssd/Ssd.h"
#include "lowering/Compile.h"

#include "mlir/Parser/Parser.h"
#include "runtime/GpuCase.h"
#include "test/gpu/RandomKernels.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <unistd.h>

using namespace tessera;

namespace {

const char *kTargets[] = {"sm_90a", "sm_80"};

rt::ScalarType rtType(dsl::DType t) {
  switch (t) {
  case dsl::DType::f16:
    return rt::ScalarType::f16;
  case dsl::DType::bf16:
    return rt::ScalarType::bf16;
  case dsl::DType::f64:
    return rt::ScalarType::f64;
  default:
    return rt::ScalarType::f32;
  }
}

/// ptxas of the CUDA toolkit, when installed ("" otherwise).
std::string ptxasPath() {
  const char *home = std::getenv("CUDA_HOME");
  std::string path =
      std::string(home ? home : "/usr/local/cuda") + "/bin/ptxas";
  return std::filesystem::exists(path) ? path : "";
}

/// Runs ptxas on `ptx` for `target`; returns its error output, "" if it
/// accepts the PTX (or is not installed).
std::string ptxasErrors(const std::string &ptx, const std::string &target) {
  static const std::string ptxas = ptxasPath();
  if (ptxas.empty())
    return "";
  std::string file =
      std::filesystem::temp_directory_path() /
      ("tessera-gpu-cases-" + std::to_string(::getpid()) + ".ptx");
  {
    std::ofstream out(file);
    out << ptx;
  }
  std::string command =
      ptxas + " -arch=" + target + " " + file + " -o /dev/null 2>&1";
  std::string output;
  if (FILE *pipe = ::popen(command.c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, pipe))
      output += buf;
    int rc = ::pclose(pipe);
    if (rc == 0)
      output.clear();
    else if (output.empty())
      output = "ptxas failed";
  }
  std::filesystem::remove(file);
  return output;
}

/// Compiles `module` for `target` and fills the case's PTX and info; the
/// PTX must pass ptxas when the toolkit is installed.
bool compile(dsl::KernelModule &module, const std::string &target,
             gpucase::Case &c, lowering::CompileOptions options = {}) {
  options.target = target;
  std::string error;
  auto compiled = lowering::compileToPtx(module.module(), options, &error);
  if (mlir::failed(compiled)) {
    std::cerr << "error: " << c.name << ": " << error << "\n";
    return false;
  }
  c.ptx = compiled->ptx;
  c.info = compiled->kernels.front();
  std::string errors = ptxasErrors(c.ptx, target);
  if (!errors.empty()) {
    std::cerr << "error: " << c.name << ": ptxas rejects the PTX:\n" << errors;
    return false;
  }
  return true;
}

/// Applies a kernel library's tile-compile flags (ssd::compileFlags,
/// conv::compileFlags) to `options`, so a case compiles what the library
/// ships; says which case they broke otherwise.
bool applyLibraryFlags(const std::string &flags, const std::string &name,
                       lowering::CompileOptions &options) {
  std::string bad = lowering::applyCompileFlags(flags, options);
  if (!bad.empty())
    std::cerr << "error: " << name << ": " << bad << "\n";
  return bad.empty();
}

gpucase::Arg viewArg(dsl::DType t, std::vector<int64_t> shape,
                     std::vector<double> input,
                     std::vector<double> expected = {}) {
  gpucase::Arg a;
  a.view.type = rtType(t);
  a.view.shape = std::move(shape);
  a.view.input = std::move(input);
  a.view.expected = std::move(expected);
  return a;
}

int emit(const gpucase::Case &c, const std::string &dir) {
  std::string error = gpucase::write(c, dir);
  if (!error.empty()) {
    std::cerr << "error: " << c.name << ": " << error << "\n";
    return 1;
  }
  return 0;
}

/// Transposed operands: C = op(A) op(B) with A stored K x M (A^T) and/or B
/// stored N x K (B^T); the kernel loads the stored tile and permutes it.
int transposedGemmCases(const std::string &dir, std::mt19937_64 &rng) {
  using namespace dsl;
  // f32 on sm_90a also with tf32 wgmma (tf32wg): K-major operands only.
  struct Variant {
    DType in;
    double tol;
    bool tf32 = false;
  };
  const Variant variants[] = {{bf16, 1e-5}, {f32, 2e-3}, {f32, 2e-3, true}};
  const int64_t m = 200, n = 136, k = 96, BM = 64, BN = 64, BK = 32;
  int failures = 0;
  for (const char *target : kTargets)
    for (const Variant &v : variants)
      for (auto [transA, transB] :
           {std::pair{true, false}, {false, true}, {true, true}}) {
        if (v.tf32 && std::string(target) != "sm_90a")
          continue;
        std::string name = std::string("gemm_") + (transA ? "t" : "n") +
                           (transB ? "t" : "n") + "_" + dsl::name(v.in) +
                           (v.tf32 ? "_tf32wg" : "");
        KernelModule module;
        module.kernel(
            name, {view("a", v.in, 2), view("b", v.in, 2), view("c", f32, 2)},
            [&](KernelArgs &args) {
              View a = args["a"], b = args["b"], c = args["c"];
              Scalar row = program_id(0), col = program_id(1);
              Scalar kTiles = ceil_div(transA ? a.dim(0) : a.dim(1), BK);
              Tile acc = zeros({BM, BN}, f32);
              acc = for_range(0, kTiles, acc, [&](Scalar kk, Tile acc) {
                Tile ta = transA ? permute(load(a, {kk, row}, {BK, BM}), {1, 0})
                                 : load(a, {row, kk}, {BM, BK});
                Tile tb = transB ? permute(load(b, {col, kk}, {BN, BK}), {1, 0})
                                 : load(b, {kk, col}, {BK, BN});
                return mma(ta, tb, acc);
              });
              store(c, {row, col}, acc);
            });
        gpucase::Case c;
        c.name = name + "_" + std::to_string(m) + "x" + std::to_string(n) +
                 "x" + std::to_string(k) + "_" + target;
        lowering::CompileOptions options;
        options.wgmmaTf32 = v.tf32;
        if (!compile(module, target, c, options)) {
          ++failures;
          continue;
        }
        std::vector<int64_t> aShape =
            transA ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k};
        std::vector<int64_t> bShape =
            transB ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n};
        interp::Buffer a(check::toInterp(v.in), aShape),
            b(check::toInterp(v.in), bShape);
        auto av = check::fillUniform(a, rng), bv = check::fillUniform(b, rng);
        std::vector<double> expected(m * n, 0.0);
        for (int64_t i = 0; i < m; ++i)
          for (int64_t p = 0; p < k; ++p) {
            double aip = transA ? av[p * m + i] : av[i * k + p];
            for (int64_t j = 0; j < n; ++j)
              expected[i * n + j] +=
                  aip * (transB ? bv[j * k + p] : bv[p * n + j]);
          }
        c.grid = {(m + BM - 1) / BM, (n + BN - 1) / BN, 1};
        c.tolerance = v.tol;
        c.args = {viewArg(v.in, aShape, av), viewArg(v.in, bShape, bv),
                  viewArg(f32, {m, n}, {}, expected)};
        failures += emit(c, dir);
      }
  return failures;
}

/// Chained products E = round(s (A B)) F: the first product's accumulator,
/// scaled and rounded to the input type in its registers, is the A operand
/// of the second (on sm_90a a wgmma with A from registers; on sm_80
/// mma.sync fragments converted in registers). 4 warps take 64 rows, 8
/// warps 128 (two warpgroups along M).
int chainedGemmCases(const std::string &dir, std::mt19937_64 &rng) {
  using namespace dsl;
  const int64_t m = 200, k = 32, n = 64, p = 32;
  int failures = 0;
  for (const char *target : kTargets)
    for (DType in : {bf16, f16})
      for (unsigned warps : {4u, 8u}) {
        const int64_t BM = 16 * warps;
        std::string name = std::string("gemm_chain_") + dsl::name(in) + "_w" +
                           std::to_string(warps);
        KernelModule module;
        module.kernel(
            name,
            {view("a", in, 2), view("b", in, 2), view("f", in, 2),
             view("e", f32, 2)},
            [&](KernelArgs &args) {
              View a = args["a"], b = args["b"], f = args["f"], e = args["e"];
              Scalar row = program_id(0), zero = 0;
              Tile d = mma(load(a, {row, zero}, {BM, k}),
                           load(b, {zero, zero}, {k, n}), zeros({BM, n}, f32));
              Tile h = cast(d * 0.5, in);
              store(e, {row, zero},
                    mma(h, load(f, {zero, zero}, {n, p}), zeros({BM, p}, f32)));
            });
        gpucase::Case c;
        c.name = name + "_" + std::to_string(m) + "x" + std::to_string(p) +
                 "_" + target;
        lowering::CompileOptions options;
        options.numWarps = warps;
        if (!compile(module, target, c, options)) {
          ++failures;
          continue;
        }
        interp::Buffer a(check::toInterp(in), {m, k}),
            b(check::toInterp(in), {k, n}), fb(check::toInterp(in), {n, p});
        auto av = check::fillUniform(a, rng), bv = check::fillUniform(b, rng),
             fv = check::fillUniform(fb, rng);
        std::vector<double> expected(m * p, 0.0);
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double dij = 0;
            for (int64_t q = 0; q < k; ++q)
              dij += av[i * k + q] * bv[q * n + j];
            const double hij = interp::roundTo(check::toInterp(in), 0.5 * dij);
            for (int64_t q = 0; q < p; ++q)
              expected[i * p + q] += hij * fv[j * p + q];
          }
        c.grid = {(m + BM - 1) / BM, 1, 1};
        // The products are exact in f32 up to summation order; h's rounding
        // can differ by one unit where s (A B) sits near a tie.
        c.tolerance = 1e-3;
        c.args = {viewArg(in, {m, k}, av), viewArg(in, {k, n}, bv),
                  viewArg(in, {n, p}, fv), viewArg(f32, {m, p}, {}, expected)};
        failures += emit(c, dir);
      }
  return failures;
}

/// A program stores a Tensor Core result to a workspace view and loads the
/// other half of its rows back: rows other warps wrote, so the load reads
/// them only after tile-order-global-memory's barrier. e = 2 * (the second
/// half of each program's rows of A B).
int workspaceReloadCases(const std::string &dir, std::mt19937_64 &rng) {
  using namespace dsl;
  const int64_t m = 256, k = 32, n = 64, BM = 64;
  int failures = 0;
  for (const char *target : kTargets) {
    std::string name = "workspace_reload_bf16";
    KernelModule module;
    module.kernel(
        name,
        {view("a", bf16, 2), view("b", bf16, 2), view("work", f32, 2),
         view("e", f32, 2)},
        [&](KernelArgs &args) {
          View a = args["a"], b = args["b"], work = args["work"], e = args["e"];
          Scalar row = program_id(0), zero = 0;
          Tile d = mma(load(a, {row, zero}, {BM, k}),
                       load(b, {zero, zero}, {k, n}), zeros({BM, n}, f32));
          store(work, {row, zero}, d);
          // Tile index 2 row + 1 of BM / 2 rows: the second half.
          Tile back =
              load(work, {row * Scalar(2) + Scalar(1), zero}, {BM / 2, n});
          store(e, {row, zero}, back * 2.0);
        });
    gpucase::Case c;
    c.name = name + "_" + target;
    lowering::CompileOptions options;
    if (!compile(module, target, c, options)) {
      ++failures;
      continue;
    }
    interp::Buffer ab(interp::DType::bf16, {m, k}),
        bb(interp::DType::bf16, {k, n});
    auto av = check::fillUniform(ab, rng), bv = check::fillUniform(bb, rng);
    std::vector<double> d(m * n, 0.0), expected(m / 2 * n);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t q = 0; q < k; ++q)
          d[i * n + j] += av[i * k + q] * bv[q * n + j];
    for (int64_t p = 0; p < m / BM; ++p)
      for (int64_t i = 0; i < BM / 2; ++i)
        for (int64_t j = 0; j < n; ++j)
          expected[(p * BM / 2 + i) * n + j] =
              2.0 * d[(p * BM + BM / 2 + i) * n + j];
    c.grid = {m / BM, 1, 1};
    // Exact products summed in f32.
    c.tolerance = 1e-5;
    c.args = {viewArg(bf16, {m, k}, av), viewArg(bf16, {k, n}, bv),
              viewArg(f32, {m, n}, {}, d),
              viewArg(f32, {m / 2, n}, {}, expected)};
    failures += emit(c, dir);
  }
  return failures;
}

int gemmCases(const std::string &dir, std::mt19937_64 &rng) {
  struct Shape {
    int64_t m, n, k;
  };
  struct Variant {
    dsl::DType in, out;
    double tol;
  };
  const Shape shapes[] = {{256, 256, 256},
                          {200, 136, 100},
                          {64, 64, 64},
                          {128, 256, 640},
                          {1000, 64, 96}};
  const Variant variants[] = {{dsl::bf16, dsl::f32, 1e-5},
                              {dsl::f16, dsl::f16, 2e-3},
                              {dsl::f32, dsl::f32, 2e-3}};
  // The mma.sync-sized tile (wgmma with 4 warps on sm_90a) and, on sm_90a,
  // the Hopper tile (128 x 256 x 64, 8 warps) and 64-row tiles on 8 warps
  // with warpgroups along N (two warpgroups: instruction N 64, and 32 with
  // B's swizzle narrowed to 64 bytes). TMA (tile-pipeline) needs 16-byte
  // aligned rows; other shapes take the unpipelined wgmma path.
  // f32 inputs on sm_90a also with tf32 wgmma (rounded operands, B
  // transposed in registers): the 64 x 64 x 32 tile and 128 x 128 x 32 on
  // 8 warps, at the two smallest shapes (the bundle's cases must stay
  // under the GPU host's 64 MiB transfer limit).
  struct Tile {
    int64_t m, n, k;
    unsigned warps;
    bool alongN = false, tf32 = false;
  };
  const Tile tiles[] = {{64, 64, 32, 4},
                        {128, 256, 64, 8},
                        {64, 128, 32, 8, true},
                        {64, 64, 32, 8, true},
                        {64, 64, 32, 4, false, true},
                        {128, 128, 32, 8, false, true}};
  int failures = 0;
  for (const char *target : kTargets)
    for (const Variant &v : variants)
      for (const Shape &s : shapes)
        for (const Tile &t : tiles) {
          const bool hopper = std::string(target) == "sm_90a";
          if (t.tf32 ? !(hopper && v.in == dsl::f32) ||
                           s.m * s.n * s.k > 200 * 136 * 100
                     : t.warps == 8 && (!hopper || v.in == dsl::f32))
            continue;
          gemm::Config cfg{v.in, v.out, t.m, t.n, t.k};
          dsl::KernelModule module;
          gemm::build(module, cfg);
          gpucase::Case c;
          const int64_t eb = v.in == dsl::f32 ? 4 : 2;
          lowering::CompileOptions options;
          options.numWarps = t.warps;
          options.warpgroupsAlongN = t.alongN;
          options.wgmmaTf32 = t.tf32;
          // cp.async (sm_80) copies misaligned rows element by element.
          options.pipeline = std::string(target) == "sm_80" ||
                             ((s.k * eb) % 16 == 0 && (s.n * eb) % 16 == 0);
          c.name = "gemm_" + std::string(dsl::name(v.in)) + "_" +
                   dsl::name(v.out) + "_" + std::to_string(s.m) + "x" +
                   std::to_string(s.n) + "x" + std::to_string(s.k) + "_tile" +
                   std::to_string(t.m) + "x" + std::to_string(t.n) + "_w" +
                   std::to_string(t.warps) + (t.alongN ? "n" : "") +
                   (t.tf32 ? "_tf32wg" : "") + "_" + target;
          if (!compile(module, target, c, options)) {
            ++failures;
            continue;
          }
          interp::Buffer a(check::toInterp(v.in), {s.m, s.k}),
              b(check::toInterp(v.in), {s.k, s.n});
          auto av = check::fillUniform(a, rng), bv = check::fillUniform(b, rng);
          c.grid = gemm::grid(cfg, s.m, s.n);
          c.tolerance = v.tol;
          c.args = {viewArg(v.in, {s.m, s.k}, av),
                    viewArg(v.in, {s.k, s.n}, bv),
                    viewArg(v.out, {s.m, s.n}, {},
                            gemm::reference(av, bv, s.m, s.n, s.k))};
          failures += emit(c, dir);
        }
  return failures;
}

rt::ScalarType rtType(interp::DType t) {
  switch (t) {
  case interp::DType::f16:
    return rt::ScalarType::f16;
  case interp::DType::bf16:
    return rt::ScalarType::bf16;
  case interp::DType::f64:
    return rt::ScalarType::f64;
  case interp::DType::i32:
    return rt::ScalarType::i32;
  case interp::DType::i64:
    return rt::ScalarType::i64;
  default:
    return rt::ScalarType::f32;
  }
}

/// The Mamba-2 SSD forward, launch by launch: the interpreter runs the three
/// kernels of the chunked forward, or the one of the fused forward, and each
/// launch is recorded as one case (its inputs as they were before it, its
/// outputs as the interpreter left them). Buffers a launch changes are
/// outputs (poisoned on the GPU), the others inputs.
int ssdCases(const std::string &dir, std::mt19937_64 &rng) {
  struct Problem {
    const char *name;
    ssd::Shape shape;
    bool allOptions;
    dsl::DType dtype;
    int64_t chunk;
    bool fused = false;
    /// Initial and final states with the layer options only (allOptions
    /// false): the kernel copying states on four warps at dstate 128.
    bool statesOnly = false;
  };
  const Problem problems[] = {
      {"all_bf16", {2, 200, 4, 64, 64, 2}, true, dsl::bf16, 64},
      {"plain_f32", {1, 200, 2, 32, 16, 1}, false, dsl::f32, 64},
      {"plain_f16_q128", {1, 256, 2, 64, 128, 1}, false, dsl::f16, 128},
      // The fused forward: several headdim blocks (dstate 256), masked
      // sizes, every option.
      {"fused_all_bf16", {2, 200, 4, 64, 64, 2}, true, dsl::bf16, 64, true},
      {"fused_all_f16_n256",
       {1, 150, 2, 128, 256, 1},
       true,
       dsl::f16,
       64,
       true},
      {"fused_all_f32", {2, 130, 2, 48, 24, 2}, true, dsl::f32, 32, true},
      // Every option at dstate 128: eight warps along N (ssd::fusedWarps),
      // headdim blocks of 64 also for wider heads.
      {"fused_all_bf16_n128",
       {2, 200, 4, 64, 128, 2},
       true,
       dsl::bf16,
       64,
       true},
      {"fused_all_bf16_n128_p80",
       {1, 150, 2, 80, 128, 1},
       true,
       dsl::bf16,
       64,
       true},
      {"fused_plain_bf16_n128",
       {1, 256, 2, 64, 128, 1},
       false,
       dsl::bf16,
       64,
       true},
      // State copies without z or seq_idx at dstate 128: four warps.
      {"fused_states_bf16_n128",
       {2, 200, 4, 64, 128, 2},
       false,
       dsl::bf16,
       64,
       true,
       true},
      // dstate 64 without state copies: the library hoists loop invariants.
      {"fused_plain_bf16_n64",
       {1, 256, 2, 64, 64, 1},
       false,
       dsl::bf16,
       64,
       true}};
  int failures = 0;
  for (const Problem &pb : problems) {
    const ssd::Shape &s = pb.shape;
    ssd::Options o;
    if (pb.allOptions) {
      o.hasD = o.hasZ = o.hasDtBias = o.dtSoftplus = o.hasSeqIdx = true;
      o.hasInitialStates = o.returnFinalStates = true;
    } else if (pb.statesOnly) {
      o.hasD = o.hasDtBias = o.dtSoftplus = true;
      o.hasInitialStates = o.returnFinalStates = true;
    }
    using interp::Buffer;
    const interp::DType io = check::toInterp(pb.dtype), f = interp::DType::f32;
    const int64_t b = s.batch, L = s.seqlen, H = s.nheads, P = s.headdim,
                  N = s.dstate, G = s.ngroups;
    Buffer x(io, {b, L, H, P}), dt(f, {b, L, H}), A(f, {H}),
        B(io, {b, L, G, N}), C(io, {b, L, G, N}), y(io, {b, L, H, P}),
        D(f, {H}), z(io, {b, L, H, P}), dtBias(f, {H}), h0(f, {b, H, P, N}),
        hT(f, {b, H, P, N}), seq(interp::DType::i32, {b, L});
    for (Buffer *buf : {&x, &B, &C, &D, &z, &h0})
      check::fillUniform(*buf, rng);
    check::fillUniform(dtBias, rng, -0.5, 0.5);
    std::uniform_real_distribution<double> logA(0.0, std::log(16.0)),
        logDt(std::log(1e-3), std::log(0.1));
    for (int64_t h = 0; h < H; ++h)
      A.set(h, -std::exp(logA(rng)));
    // dt' in [1e-3, 0.1): dt is drawn so that bias and softplus land there
    // (a negative dt' would make the states grow without bound).
    for (int64_t i = 0; i < dt.numElements(); ++i) {
      double target = std::exp(logDt(rng));
      double pre = o.dtSoftplus ? std::log(std::expm1(target)) : target;
      dt.set(i, pre - (o.hasDtBias ? dtBias.get(i % H) : 0.0));
    }
    // Two packed sequences per row, the second starting mid-chunk.
    for (int64_t i = 0; i < b * L; ++i)
      seq.setInt(i, (i % L) < L / 2 + 7 ? 0 : 1);
    ssd::Buffers bufs;
    bufs.x = &x, bufs.dt = &dt, bufs.A = &A, bufs.B = &B, bufs.C = &C,
    bufs.y = &y;
    if (o.hasD)
      bufs.D = &D;
    if (o.hasZ)
      bufs.z = &z;
    if (o.hasDtBias)
      bufs.dtBias = &dtBias;
    if (o.hasInitialStates)
      bufs.initialStates = &h0;
    if (o.returnFinalStates)
      bufs.finalStates = &hT;
    if (o.hasSeqIdx)
      bufs.seqIdx = &seq;
    ssd::Config cfg{pb.dtype, pb.chunk, pb.fused};
    const size_t launches = pb.fused ? 1 : 3;

    for (const char *target : kTargets) {
      dsl::KernelModule module;
      if (pb.fused)
        ssd::buildFused(module, s, o, pb.dtype);
      else
        ssd::build(module, s, o, cfg);
      std::vector<gpucase::Case> cases;
      std::vector<std::vector<double>> before;
      auto values = [](const Buffer &buf) {
        std::vector<double> v(buf.numElements());
        for (int64_t i = 0; i < buf.numElements(); ++i)
          v[i] = buf.get(i);
        return v;
      };
      lowering::CompileOptions options;
      options.target = target;
      if (pb.fused) {
        // The options the kernel library compiles it with (ssd::fusedCompile),
        // so the GPU runs the shipped PTX; on sm_80 only the warps (no
        // stmatrix or wgmma there).
        const ssd::FusedCompile library = ssd::fusedCompile(
            ssd::fusedVariantFor(s, o, ssd::elementType(pb.dtype)),
            ssd::Module::Fused);
        options.numWarps = unsigned(library.warps);
        if (std::string(target) == "sm_90a") {
          if (!applyLibraryFlags(ssd::compileFlags(library),
                                 "ssd " + std::string(pb.name), options)) {
            ++failures;
            continue;
          }
        }
      }
      std::string error;
      auto compiled = lowering::compileToPtx(module.module(), options, &error);
      std::string ptxasReport =
          succeeded(compiled) ? ptxasErrors(compiled->ptx, target) : "";
      if (failed(compiled) || !ptxasReport.empty()) {
        std::cerr << "error: ssd " << pb.name << ": " << error << ptxasReport
                  << "\n";
        ++failures;
        continue;
      }
      const char *stepNames[] = {"chunk_state", "state_passing", "chunk_scan"};
      auto hook = [&](const std::string &kernel,
                      const std::vector<interp::KernelArg> &args,
                      const std::array<int64_t, 3> &grid, bool after) {
        if (!after) {
          before.clear();
          for (const interp::KernelArg &a : args)
            if (auto *v = std::get_if<interp::ViewArg>(&a))
              before.push_back(values(*v->buffer));
          return;
        }
        gpucase::Case c;
        c.name = "ssd_" + std::string(pb.name) + "_" +
                 (pb.fused ? "forward"
                           : stepNames[std::min<size_t>(cases.size(), 2)]) +
                 "_" + target;
        // The module has the three kernels: describe the one launched.
        c.ptx = compiled->ptx;
        for (const rt::KernelInfo &k : compiled->kernels)
          if (k.name == kernel)
            c.info = k;
        c.grid = grid;
        c.tolerance = pb.dtype == dsl::f32 ? (pb.fused ? 1e-3 : 1e-5) : 1e-2;
        size_t view = 0;
        for (auto [i, a] : llvm::enumerate(args)) {
          gpucase::Arg arg;
          if (auto *v = std::get_if<interp::ViewArg>(&a)) {
            arg.view.type = rtType(v->buffer->dtype());
            arg.view.shape = v->buffer->shape();
            std::vector<double> now = values(*v->buffer), &was = before[view++];
            bool changed = false;
            for (size_t e = 0; e < now.size() && !changed; ++e)
              changed = !(now[e] == was[e] ||
                          (std::isnan(now[e]) && std::isnan(was[e])));
            if (changed)
              arg.view.expected = now;
            else
              arg.view.input = was;
          } else {
            arg.isView = false;
            arg.scalarType = c.info.args[i].type;
            arg.scalar = std::holds_alternative<double>(a)
                             ? std::get<double>(a)
                             : double(std::get<int64_t>(a));
          }
          c.args.push_back(arg);
        }
        cases.push_back(c);
      };
      interp::Status st = ssd::forwardInterpreted(
          s, o, cfg, bufs, nullptr, interp::Mode::DeviceFaithful, hook);
      if (!st || cases.size() != launches) {
        std::cerr << "error: ssd " << pb.name << ": " << st.message << "\n";
        ++failures;
        continue;
      }
      for (const gpucase::Case &c : cases)
        failures += emit(c, dir);
    }
  }
  return failures;
}

int softmaxCases(const std::string &dir, std::mt19937_64 &rng) {
  struct Shape {
    int64_t rows, cols;
  };
  const Shape shapes[] = {{64, 128}, {50, 1000}, {33, 77}};
  int failures = 0;
  for (const char *target : kTargets)
    for (dsl::DType t : {dsl::f32, dsl::bf16})
      for (const Shape &s : shapes) {
        softmax::Config cfg{t, 4, softmax::blockColsFor(s.cols)};
        dsl::KernelModule module;
        softmax::build(module, cfg);
        gpucase::Case c;
        c.name = "softmax_" + std::string(dsl::name(t)) + "_" +
                 std::to_string(s.rows) + "x" + std::to_string(s.cols) + "_" +
                 target;
        if (!compile(module, target, c)) {
          ++failures;
          continue;
        }
        interp::Buffer x(check::toInterp(t), {s.rows, s.cols});
        auto xv = check::fillUniform(x, rng, -4, 4);
        c.grid = softmax::grid(cfg, s.rows);
        c.tolerance = t == dsl::f32 ? 1e-5 : 1e-2;
        c.args = {viewArg(t, {s.rows, s.cols}, xv),
                  viewArg(t, {s.rows, s.cols}, {},
                          softmax::reference(xv, s.rows, s.cols))};
        failures += emit(c, dir);
      }
  return failures;
}

/// The fused long convolution (one launch) at seqlen 1024 with both gates
/// and without (three CTAs an SM there), on sm_90a with the kernel
/// library's flags (conv::compileFlags).
int convCases(const std::string &dir, std::mt19937_64 &rng) {
  int failures = 0;
  for (const char *target : kTargets)
    for (dsl::DType t : {dsl::f16, dsl::bf16})
      for (bool gated : {true, false}) {
        const int64_t B = 2, H = 3, L = 1024;
        conv::Config cfg{t, gated, gated, false};
        dsl::KernelModule module;
        conv::build(module, L, cfg);
        gpucase::Case c;
        c.name = "conv_fused_" + std::string(dsl::name(t)) +
                 (gated ? "" : "_nogates") + "_2x3x1024_" + target;
        lowering::CompileOptions options;
        if (std::string(target) == "sm_90a" &&
            !applyLibraryFlags(
                conv::compileFlags(conv::plan(L), cfg.preGate, cfg.postGate),
                c.name, options)) {
          ++failures;
          continue;
        }
        if (!compile(module, target, c, options)) {
          ++failures;
          continue;
        }
        interp::Buffer u(check::toInterp(t), {B, H, L}),
            pre(check::toInterp(t), {B, H, L}),
            post(check::toInterp(t), {B, H, L});
        auto uv = check::fillUniform(u, rng);
        std::vector<double> pv, qv;
        if (gated) {
          pv = check::fillUniform(pre, rng, 0.5, 1.5);
          qv = check::fillUniform(post, rng, 0.5, 1.5);
        }
        std::normal_distribution<double> normal;
        std::vector<double> k(H * L);
        for (int64_t h = 0; h < H; ++h) {
          double norm = 0;
          for (int64_t s = 0; s < L; ++s)
            norm += std::abs(k[h * L + s] = normal(rng) * std::exp(-s / 200.0));
          for (int64_t s = 0; s < L; ++s)
            k[h * L + s] /= norm;
        }
        std::vector<double> spec = conv::prepareSpectrum(H, L, k);
        for (double &v : spec)
          v = double(float(v));
        c.grid = conv::fusedGrid(conv::plan(L), B, H);
        c.tolerance = t == dsl::f16 ? 2e-3 : 1e-2;
        // The kernel views (B, H, L) as (B, H, L / 2, 2): the same bytes.
        // u, the spectrum, [pre, post,] y.
        c.args = {viewArg(t, {B, H, L / 2, 2}, uv),
                  viewArg(dsl::f32,
                          conv::fusedSpectrumView(conv::plan(L), H).sizes,
                          spec)};
        if (gated)
          c.args.insert(c.args.end(), {viewArg(t, {B, H, L / 2, 2}, pv),
                                       viewArg(t, {B, H, L / 2, 2}, qv)});
        c.args.push_back(
            viewArg(t, {B, H, L / 2, 2}, {},
                    conv::reference(conv::Shape{B, H, L}, uv, k, pv, qv)));
        failures += emit(c, dir);
      }
  return failures;
}

/// Hand-written level-2 kernels (test/gpu/kernels/<name>.mlir, kernel
/// @<name>) with two rank-2 f32 views (x in, y out) of 64 rows per program,
/// against the interpreter, or against a host formula of x for kernels with
/// ops the interpreter does not run (shared-memory buffers).
int levelTwoCases(const std::string &dir, std::mt19937_64 &rng) {
  int failures = 0;
  struct LevelTwo {
    const char *name;
    double tolerance;
    std::function<double(double)> reference; // y of x, elementwise
    bool storeMatrices = false;
    int64_t cols = 30; // of the views: ragged against the 32 of a tile
  };
  const LevelTwo kernels[] = {
      {"layouts", 1e-6, nullptr},
      // Tree-order (shuffle) combines on the GPU, index order in the
      // interpreter: rounding apart.
      {"scans", 1e-5, nullptr},
      // In-place reductions of accumulator layouts: tree order too.
      {"reductions", 1e-5, nullptr},
      // Masks from iota compares, one difference a thread (same order of
      // f32 operations as the interpreter); every column of the tile, so
      // that the whole diagonal is checked.
      {"masks", 1e-6, nullptr, false, 32},
      // Round trips through swizzled shared memory are exact.
      {"stmatrix", 0,
       [](double x) {
         return interp::roundToBF16(x) + 2 * interp::roundToF16(x);
       },
       /*storeMatrices=*/true}};
  for (const LevelTwo &k : kernels) {
    const char *name = k.name;
    const double tolerance = k.tolerance;
    const std::string path =
        std::string(TESSERA_SOURCE_DIR) + "/test/gpu/kernels/" + name + ".mlir";
    mlir::DialectRegistry registry;
    lowering::registerLoweringDialects(registry);
    mlir::MLIRContext context(registry);
    context.loadAllAvailableDialects();
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceFile<mlir::ModuleOp>(path, &context);
    if (!module) {
      std::cerr << "error: cannot parse " << path << "\n";
      ++failures;
      continue;
    }
    // 3 programs; ragged rows, and ragged columns below 32.
    const int64_t rows = 150, cols = k.cols;
    interp::Buffer x(interp::DType::f32, {rows, cols}),
        y(interp::DType::f32, {rows, cols});
    auto xv = check::fillUniform(x, rng);
    y.poison();
    interp::LaunchConfig launch;
    launch.grid = {3, 1, 1};
    if (k.reference) {
      for (int64_t e = 0; e < rows * cols; ++e)
        y.set(e, k.reference(xv[e]));
    } else if (interp::Status st = interp::run(
                   *module, name, {interp::ViewArg{&x}, interp::ViewArg{&y}},
                   launch);
               !st) {
      std::cerr << "error: " << name << ": interpreter: " << st.message << "\n";
      ++failures;
      continue;
    }
    for (const char *target : kTargets) {
      gpucase::Case c;
      c.name = std::string(name) + "_" + target;
      lowering::CompileOptions options;
      options.target = target;
      options.storeMatrices = k.storeMatrices;
      std::string error;
      auto compiled = lowering::compileToPtx(*module, options, &error);
      if (mlir::failed(compiled)) {
        std::cerr << "error: " << c.name << ": " << error << "\n";
        ++failures;
        continue;
      }
      c.ptx = compiled->ptx;
      c.info = compiled->kernels.front();
      std::string errors = ptxasErrors(c.ptx, target);
      if (!errors.empty()) {
        std::cerr << "error: " << c.name << ": ptxas: " << errors;
        ++failures;
        continue;
      }
      c.grid = launch.grid;
      c.tolerance = tolerance;
      c.args = {viewArg(dsl::f32, {rows, cols}, xv),
                viewArg(dsl::f32, {rows, cols}, {}, check::values(y))};
      failures += emit(c, dir);
    }
  }
  return failures;
}

int randomCases(const std::string &dir, int count, uint64_t seed) {
  int failures = 0;
  for (int i = 0; i < count; ++i) {
    uint64_t s = seed + uint64_t(i);
    dsl::KernelModule module;
    std::string name = "diff_" + std::to_string(s);
    difftest::RandomKernel k;
    try {
      k = difftest::buildRandomKernel(module, name, s);
    } catch (const dsl::Error &e) {
      std::cerr << "error: seed " << s << ": " << e.what() << "\n";
      ++failures;
      continue;
    }
    std::mt19937_64 rng(s ^ 0x9e3779b97f4a7c15ull);
    interp::Buffer x(check::toInterp(k.inType), {k.viewRows, k.viewCols}),
        u(check::toInterp(k.inType), {k.viewRows, k.viewCols}),
        w(check::toInterp(k.inType), {k.cols, k.cols}),
        out(check::toInterp(k.outType), {k.viewRows, k.viewCols});
    auto xv = check::fillUniform(x, rng), uv = check::fillUniform(u, rng),
         wv = check::fillUniform(w, rng);
    out.poison();
    interp::LaunchConfig launch;
    launch.grid = k.grid;
    interp::Status st =
        interp::run(module.module(), name,
                    {interp::ViewArg{&x}, interp::ViewArg{&u},
                     interp::ViewArg{&w}, k.alpha, interp::ViewArg{&out}},
                    launch);
    if (!st) {
      std::cerr << "error: seed " << s << ": interpreter: " << st.message
                << "\n";
      ++failures;
      continue;
    }
    std::string chain;
    for (const std::string &op : k.ops)
      chain += (chain.empty() ? "" : " ") + op;
    std::printf("seed %llu: %s %lldx%lld tile, view %lldx%lld, grid %lld, %s "
                "-> %s: %s\n",
                (unsigned long long)s, dsl::name(k.inType), (long long)k.rows,
                (long long)k.cols, (long long)k.viewRows, (long long)k.viewCols,
                (long long)k.grid[0], dsl::name(k.inType), dsl::name(k.outType),
                chain.c_str());
    for (const char *target : kTargets) {
      gpucase::Case c;
      c.name = name + "_" + target;
      if (!compile(module, target, c)) {
        ++failures;
        continue;
      }
      c.grid = k.grid;
      // Summation order is the interpreter's; what differs is the PTX
      // approximations of transcendentals (a few ulp), amplified at most by
      // one 16-bit rounding.
      c.tolerance = k.sixteenBit ? 1e-2 : 1e-4;
      gpucase::Arg alpha;
      alpha.isView = false;
      alpha.scalarType = rt::ScalarType::f32;
      alpha.scalar = k.alpha;
      c.args = {
          viewArg(k.inType, {k.viewRows, k.viewCols}, xv),
          viewArg(k.inType, {k.viewRows, k.viewCols}, uv),
          viewArg(k.inType, {k.cols, k.cols}, wv), alpha,
          viewArg(k.outType, {k.viewRows, k.viewCols}, {}, check::values(out))};
      failures += emit(c, dir);
    }
  }
  return failures;
}

} // namespace

int main(int argc, char **argv) {
  const char *usage =
      "usage: tessera-gpu-cases OUT_DIR [--count N] [--seed S]\n";
  // OUT_DIR first, never a flag (`--help` is not a folder to write into).
  if (argc < 2 || argv[1][0] == '-') {
    std::cerr << usage;
    return 2;
  }
  std::string dir = argv[1];
  int count = 40;
  uint64_t seed = 1000;
  for (int i = 2; i < argc; i += 2) {
    std::string a = argv[i];
    std::optional<uint64_t> n;
    if (i + 1 < argc) {
      uint64_t v = 0;
      if (llvm::to_integer(llvm::StringRef(argv[i + 1]), v, 10))
        n = v;
    }
    if (a == "--count" && n && *n >= 1 && *n <= 100000)
      count = int(*n);
    else if (a == "--seed" && n)
      seed = *n;
    else {
      std::cerr << "tessera-gpu-cases: bad argument '" << a << "'\n" << usage;
      return 2;
    }
  }
  std::mt19937_64 rng(seed);
  int failures = gemmCases(dir, rng) + transposedGemmCases(dir, rng) +
                 chainedGemmCases(dir, rng) + workspaceReloadCases(dir, rng) +
                 softmaxCases(dir, rng) + ssdCases(dir, rng) +
                 convCases(dir, rng) + levelTwoCases(dir, rng) +
                 randomCases(dir, count, seed);
  std::printf("cases written to %s (%d failures)\n", dir.c_str(), failures);
  return failures ? 1 : 0;
}

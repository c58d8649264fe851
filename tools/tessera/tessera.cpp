//===- tessera.cpp - build, print and run the shipped kernels
//--------------===//
//
//   tessera list                       the shipped kernels
//   tessera print KERNEL [--dtype T]   the kernel's tile IR (level 1)
//   tessera ssd-flags|conv-flags ...   the tile-compile flags the SSD or
//                                      conv kernel library builds with
//   tessera demo [--seed N]            build every kernel, run it through the
//                                      interpreter on random inputs and
//                                      report the error against float64
//
//===----------------------------------------------------------------------===//

#include "kernels-src/common/Check.h"
#include "kernels-src/conv/Conv.h"
#include "kernels-src/gemm/Gemm.h"
#include "kernels-src/softmax/Softmax.h"
#include "kernels-src/ssd/Ssd.h"
#include "lowering/Compile.h"
#include "runtime/GpuCase.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

using namespace tessera;

namespace {

/// An SSD option list ("layer", "all", "none" or names joined by commas),
/// or false after saying what is wrong.
bool parseSsdOptions(const std::string &list, ssd::Options &o) {
  if (ssd::parseOptionList(list, o))
    return true;
  std::cerr << "error: unknown SSD option in '" << list
            << "' (layer, all, none, or D, Dpc, z, bias, softplus, seq, h0, "
               "hT)\n";
  return false;
}

/// A conv gate list (none, pre, post or pre,post), or false after saying
/// what is wrong.
bool isGateList(const std::string &gates) {
  if (gates == "none" || gates == "pre" || gates == "post" ||
      gates == "pre,post")
    return true;
  std::cerr << "error: --gates is none, pre, post or pre,post\n";
  return false;
}

int usage() {
  std::cerr
      << "usage: tessera list\n"
         "       tessera print gemm [--tile MxNxK] (default 64x64x32)\n"
         "       tessera print ssd-layer [--tile 0xDSTATExCHUNK] (D, "
         "dt_bias, softplus)\n"
         "       tessera print ssd-fused|ssd-split [--dtype T] [--dstate N] "
         "[--headdim P] [--options "
         "layer|all|none|D,Dpc,z,bias,softplus,seq,h0,hT]\n"
         "       tessera ssd-flags [ssd-fused|ssd-split] [--dtype T] "
         "[--dstate N] [--headdim P] [--options ...]  (tile-compile flags of "
         "the SSD library)\n"
         "       tessera print conv [--dtype T] [--seqlen L] [--gates "
         "none|pre|post|pre,post]\n"
         "       tessera conv-flags [--seqlen L] [--gates ...]  (tile-compile "
         "flags of the conv library)\n"
         "       tessera print conv-baseline [--dtype T] [--gates ...] "
         "(the cuFFT baseline's elementwise kernels)\n"
         "       tessera print conv-copy [--dtype T] (padding and cropping "
         "copies)\n"
         "       tessera print gemm|softmax|ssd|conv|conv-multipass "
         "[--dtype T]\n"
         "       tessera demo [--seed N]\n";
  return 2;
}

std::optional<dsl::DType> parseDType(const std::string &s) {
  if (s == "f16")
    return dsl::f16;
  if (s == "bf16")
    return dsl::bf16;
  if (s == "f32")
    return dsl::f32;
  return std::nullopt;
}

struct Row {
  std::string kernel, shape;
  double err, bound;
  int64_t unwritten;
  double seconds;
  std::string where = "interpreter";
  int64_t ptxBytes = 0;
  double compileSeconds = 0;
};

/// The GPU, when there is one (null otherwise, with the reason printed once).
rt::Runtime *gpu() {
  static std::unique_ptr<rt::Runtime> runtime;
  static bool tried = false;
  if (!tried) {
    tried = true;
    rt::Status st = rt::Runtime::create(runtime);
    if (!st) {
      std::printf("no GPU here (%s): kernels run through the interpreter\n\n",
                  st.message.substr(0, st.message.find('\n')).c_str());
      runtime.reset();
    } else {
      std::printf("GPU: %s (sm_%d): kernels run there\n\n",
                  runtime->deviceName().c_str(), runtime->computeCapability());
    }
  }
  return runtime.get();
}

rt::ScalarType rtType(dsl::DType t) {
  return t == dsl::f16    ? rt::ScalarType::f16
         : t == dsl::bf16 ? rt::ScalarType::bf16
                          : rt::ScalarType::f32;
}

/// A view argument of a one-launch kernel run, for the GPU path.
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

/// Compiles `module` to sm_90a PTX (always: the main job shows the compiled
/// path works) and, when there is a GPU, replaces the row's interpreter run
/// by a run of the PTX checked against the same float64 reference.
void compileAndRunOnGpu(dsl::KernelModule &module, Row &row,
                        std::array<int64_t, 3> grid,
                        std::vector<gpucase::Arg> args) {
  lowering::CompileOptions options;
  options.target = "sm_90a";
  std::string error;
  auto t0 = std::chrono::steady_clock::now();
  auto compiled = lowering::compileToPtx(module.module(), options, &error);
  row.compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  if (mlir::failed(compiled))
    throw std::runtime_error(row.kernel + ": " + error);
  row.ptxBytes = int64_t(compiled->ptx.size());
  rt::Runtime *runtime = gpu();
  if (!runtime)
    return;
  gpucase::Case c;
  c.name = row.kernel;
  c.ptx = compiled->ptx;
  c.info = compiled->kernels.front();
  c.grid = grid;
  c.tolerance = row.bound;
  c.args = std::move(args);
  auto t1 = std::chrono::steady_clock::now();
  gpucase::Outcome o = gpucase::run(*runtime, c);
  row.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t1)
          .count();
  if (!o.ok && o.error == 0)
    throw std::runtime_error(row.kernel + " on the GPU: " + o.message);
  row.err = o.ok ? o.error : std::max(o.error, row.bound * 2);
  row.unwritten = 0;
  row.where = "GPU";
}

Row demoGemm(dsl::DType in, dsl::DType out, int64_t m, int64_t n, int64_t k,
             double bound, std::mt19937_64 &rng) {
  gemm::Config cfg{in, out, 64, 64, 32};
  dsl::KernelModule module;
  gemm::build(module, cfg);
  interp::Buffer a(check::toInterp(in), {m, k}), b(check::toInterp(in), {k, n}),
      c(check::toInterp(out), {m, n});
  auto av = check::fillUniform(a, rng), bv = check::fillUniform(b, rng);
  c.poison();
  interp::LaunchConfig launch;
  launch.grid = gemm::grid(cfg, m, n);
  auto t0 = std::chrono::steady_clock::now();
  interp::Status st = interp::run(
      module.module(), cfg.kernelName(),
      {interp::ViewArg{&a}, interp::ViewArg{&b}, interp::ViewArg{&c}}, launch);
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  if (!st.ok)
    throw std::runtime_error(st.message);
  std::vector<double> ref = gemm::reference(av, bv, m, n, k);
  Row row{cfg.kernelName(),
          std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
          check::relativeL2(check::values(c), ref),
          bound,
          check::countPoisoned(c),
          secs};
  compileAndRunOnGpu(module, row, launch.grid,
                     {viewArg(in, {m, k}, av), viewArg(in, {k, n}, bv),
                      viewArg(out, {m, n}, {}, ref)});
  return row;
}

Row demoSoftmax(dsl::DType dtype, int64_t rows, int64_t cols, double bound,
                std::mt19937_64 &rng) {
  softmax::Config cfg{dtype, 4, softmax::blockColsFor(cols)};
  dsl::KernelModule module;
  softmax::build(module, cfg);
  interp::Buffer x(check::toInterp(dtype), {rows, cols}),
      y(check::toInterp(dtype), {rows, cols});
  auto xv = check::fillUniform(x, rng, -4, 4);
  y.poison();
  interp::LaunchConfig launch;
  launch.grid = softmax::grid(cfg, rows);
  auto t0 = std::chrono::steady_clock::now();
  interp::Status st =
      interp::run(module.module(), cfg.kernelName(),
                  {interp::ViewArg{&x}, interp::ViewArg{&y}}, launch);
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  if (!st.ok)
    throw std::runtime_error(st.message);
  std::vector<double> ref = softmax::reference(xv, rows, cols);
  Row row{cfg.kernelName(),
          std::to_string(rows) + "x" + std::to_string(cols),
          check::relativeL2(check::values(y), ref),
          bound,
          check::countPoisoned(y),
          secs};
  compileAndRunOnGpu(module, row, launch.grid,
                     {viewArg(dtype, {rows, cols}, xv),
                      viewArg(dtype, {rows, cols}, {}, ref)});
  return row;
}

/// The fused SSD forward (one launch, as the GPU runs it) against the
/// float64 recurrence, with D, z, dt_bias, softplus, initial and final
/// states.
Row demoSsd(dsl::DType dtype, double bound, std::mt19937_64 &rng) {
  ssd::Shape s{2, 300, 4, 32, 16, 2};
  ssd::Options o;
  o.hasD = o.hasZ = o.hasDtBias = o.dtSoftplus = true;
  o.hasInitialStates = o.returnFinalStates = true;
  ssd::Config cfg{dtype, ssd::fusedChunk(ssd::elementType(dtype)),
                  /*fused=*/true};
  interp::DType act = check::toInterp(dtype), f = interp::DType::f32;
  interp::Buffer x(act, {s.batch, s.seqlen, s.nheads, s.headdim}),
      dt(f, {s.batch, s.seqlen, s.nheads}), A(f, {s.nheads}),
      B(act, {s.batch, s.seqlen, s.ngroups, s.dstate}),
      C(act, {s.batch, s.seqlen, s.ngroups, s.dstate}), D(f, {s.nheads}),
      z(act, {s.batch, s.seqlen, s.nheads, s.headdim}), bias(f, {s.nheads}),
      h0(f, {s.batch, s.nheads, s.headdim, s.dstate}),
      y(act, {s.batch, s.seqlen, s.nheads, s.headdim}),
      hT(f, {s.batch, s.nheads, s.headdim, s.dstate});
  ssd::HostInputs in;
  in.x = check::fillUniform(x, rng);
  in.B = check::fillUniform(B, rng);
  in.C = check::fillUniform(C, rng);
  in.z = check::fillUniform(z, rng);
  in.D = check::fillUniform(D, rng);
  in.initialStates = check::fillUniform(h0, rng);
  in.dtBias = check::fillUniform(bias, rng, -0.5, 0.5);
  // A in [-16, -1); dt' = softplus(dt + bias) in [1e-3, 1e-1).
  std::uniform_real_distribution<double> u(0, 1);
  for (int64_t i = 0; i < A.numElements(); ++i)
    A.set(i, -std::exp(u(rng) * std::log(16.0)));
  for (int64_t i = 0; i < dt.numElements(); ++i) {
    double target = std::exp(std::log(1e-3) + u(rng) * std::log(100.0));
    dt.set(i, std::log(std::expm1(target)) - in.dtBias[i % s.nheads]);
  }
  in.A = check::values(A);
  in.dt = check::values(dt);
  y.poison();
  hT.poison();
  ssd::Buffers bufs;
  bufs.x = &x, bufs.dt = &dt, bufs.A = &A, bufs.B = &B, bufs.C = &C;
  bufs.D = &D, bufs.z = &z, bufs.dtBias = &bias, bufs.initialStates = &h0;
  bufs.y = &y, bufs.finalStates = &hT;
  int launches = 0;
  auto t0 = std::chrono::steady_clock::now();
  interp::Status st = ssd::forwardInterpreted(s, o, cfg, bufs, &launches);
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  if (!st.ok)
    throw std::runtime_error(st.message);
  ssd::HostOutputs ref = ssd::reference(s, o, in);
  double errY = check::relativeL2(check::values(y), ref.y);
  double errH = check::relativeL2(check::values(hT), ref.finalStates);
  Row row{std::string("ssd_forward_") + dsl::name(dtype) + " (" +
              std::to_string(launches) + " launches)",
          "2x300x4x32x16",
          std::max(errY, errH),
          bound,
          check::countPoisoned(y) + check::countPoisoned(hT),
          secs};
  dsl::KernelModule module;
  ssd::buildFused(module, s, o, dtype);
  lowering::CompileOptions options;
  std::string error;
  auto t1 = std::chrono::steady_clock::now();
  auto compiled = lowering::compileToPtx(module.module(), options, &error);
  if (mlir::failed(compiled))
    throw std::runtime_error("ssd: " + error);
  row.compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t1)
          .count();
  row.ptxBytes = int64_t(compiled->ptx.size());
  return row;
}

/// The butterfly long convolution against the float64 direct convolution,
/// with both gates, on random inputs and a kernel decaying along the
/// sequence.
Row demoConv(dsl::DType dtype, int64_t seqlen, bool multiPass, double bound,
             std::mt19937_64 &rng) {
  conv::Shape s{2, 2, seqlen};
  conv::Config cfg{dtype, true, true, multiPass};
  interp::DType act = check::toInterp(dtype);
  interp::Buffer u(act, {s.batch, s.channels, seqlen}),
      pre(act, {s.batch, s.channels, seqlen}),
      post(act, {s.batch, s.channels, seqlen}),
      y(act, {s.batch, s.channels, seqlen});
  auto uv = check::fillUniform(u, rng);
  auto prev = check::fillUniform(pre, rng, 0.5, 1.5);
  auto postv = check::fillUniform(post, rng, 0.5, 1.5);
  std::normal_distribution<double> normal;
  std::vector<double> k(s.channels * seqlen);
  for (int64_t h = 0; h < s.channels; ++h) {
    double tau = seqlen / (4.0 + 8.0 * h), norm = 0;
    for (int64_t t = 0; t < seqlen; ++t)
      norm += std::abs(k[h * seqlen + t] = normal(rng) * std::exp(-t / tau));
    for (int64_t t = 0; t < seqlen; ++t)
      k[h * seqlen + t] /= norm;
  }
  // In the order the kernels of this plan read (conv::spectrumIndex:
  // [k1][k2] for row-column plans, rows of the inner pass for three passes).
  std::vector<double> spec =
      conv::prepareSpectrum(s.channels, seqlen, k, multiPass);
  interp::Buffer spectrum(interp::DType::f32,
                          {s.channels, 4, conv::fftSize(seqlen)});
  for (int64_t i = 0; i < spectrum.numElements(); ++i)
    spectrum.set(i, spec[i]);
  y.poison();
  conv::Buffers bufs{&u, &spectrum, &pre, &post, &y};
  int launches = 0;
  auto t0 = std::chrono::steady_clock::now();
  interp::Status st = conv::forwardInterpreted(s, cfg, bufs, &launches);
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  if (!st.ok)
    throw std::runtime_error(st.message);
  std::vector<double> ref = conv::reference(s, uv, k, prev, postv);
  double err = check::relativeL2(check::values(y), ref);
  Row row{std::string("conv_") + (multiPass ? "multipass_" : "fused_") +
              dsl::name(dtype) + " (" + std::to_string(launches) +
              (launches == 1 ? " launch)" : " launches)"),
          "2x2x" + std::to_string(seqlen),
          err,
          bound,
          check::countPoisoned(y),
          secs};
  dsl::KernelModule module;
  conv::build(module, seqlen, cfg);
  if (multiPass) {
    lowering::CompileOptions options;
    std::string error;
    auto t1 = std::chrono::steady_clock::now();
    auto compiled = lowering::compileToPtx(module.module(), options, &error);
    if (mlir::failed(compiled))
      throw std::runtime_error("conv: " + error);
    row.compileSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t1)
            .count();
    row.ptxBytes = int64_t(compiled->ptx.size());
    return row;
  }
  // The fused kernel views (B, H, L) as (B, H, L / 2, 2): the same bytes.
  const int64_t B = s.batch, H = s.channels, L = seqlen;
  std::vector<double> specF32(spec);
  for (double &v : specF32)
    v = double(float(v));
  const conv::Plan plan = conv::plan(L);
  compileAndRunOnGpu(
      module, row, conv::fusedGrid(plan, B, H),
      {viewArg(dtype, {B, H, L / 2, 2}, uv),
       viewArg(dsl::f32, conv::fusedSpectrumView(plan, H).sizes, specF32),
       viewArg(dtype, {B, H, L / 2, 2}, prev),
       viewArg(dtype, {B, H, L / 2, 2}, postv),
       viewArg(dtype, {B, H, L / 2, 2}, {}, ref)});
  return row;
}

int demo(uint64_t seed) {
  std::printf("tessera demo: every shipped kernel compiled to PTX (sm_90a) and "
              "run against its float64 reference, seed %llu\n",
              (unsigned long long)seed);
  gpu();
  std::mt19937_64 rng(seed);
  std::vector<Row> rows;
  rows.push_back(demoGemm(dsl::bf16, dsl::f32, 200, 136, 100, 1e-5, rng));
  rows.push_back(demoGemm(dsl::f16, dsl::f16, 129, 64, 96, 2e-3, rng));
  rows.push_back(demoGemm(dsl::f32, dsl::f32, 100, 70, 64, 2e-3, rng));
  rows.push_back(demoSoftmax(dsl::f32, 50, 1000, 1e-6, rng));
  rows.push_back(demoSoftmax(dsl::bf16, 33, 77, 1e-2, rng));
  rows.push_back(demoSsd(dsl::f32, 5e-3, rng)); // tf32 Tensor Cores
  rows.push_back(demoSsd(dsl::bf16, 1e-2, rng));
  rows.push_back(demoConv(dsl::f16, 1024, false, 2e-3, rng));
  rows.push_back(demoConv(dsl::bf16, 1024, false, 1e-2, rng));
  rows.push_back(demoConv(dsl::f16, 1024, true, 2e-3, rng));
  std::printf("%-34s %-14s %9s %10s %-11s %11s %8s %9s %8s  %s\n", "kernel",
              "shape", "PTX KB", "compile s", "ran on", "rel L2 err", "bound",
              "unwritten", "time s", "result");
  bool ok = true;
  for (const Row &r : rows) {
    bool pass = r.err < r.bound && r.unwritten == 0;
    ok &= pass;
    std::printf("%-34s %-14s %9.1f %10.2f %-11s %11.3e %8.0e %9lld %8.3f  %s\n",
                r.kernel.c_str(), r.shape.c_str(), r.ptxBytes / 1024.0,
                r.compileSeconds, r.where.c_str(), r.err, r.bound,
                (long long)r.unwritten, r.seconds, pass ? "PASS" : "FAIL");
  }
  std::printf("\n%s\n", ok ? "all kernels match their float64 references"
                           : "SOME KERNELS FAILED");
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage();
  std::string cmd = argv[1];
  std::string kernel;
  dsl::DType dtype = dsl::bf16;
  uint64_t seed = check::freshSeed();
  int64_t tile[3] = {64, 64, 32};
  bool tileSet = false;
  int64_t dstate = 128, headdim = 64;
  std::string optionSet = "layer";
  int64_t seqlen = 1024;
  std::string gateSet;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--dtype" && i + 1 < argc) {
      auto t = parseDType(argv[++i]);
      if (!t) {
        std::cerr << "error: unknown dtype '" << argv[i] << "'\n";
        return 2;
      }
      dtype = *t;
    } else if (arg == "--tile" && i + 1 < argc) {
      tileSet = true;
      if (std::sscanf(argv[++i], "%ldx%ldx%ld", &tile[0], &tile[1], &tile[2]) !=
          3) {
        std::cerr << "error: --tile expects MxNxK, got '" << argv[i] << "'\n";
        return 2;
      }
    } else if (arg == "--dstate" && i + 1 < argc) {
      dstate = std::strtoll(argv[++i], nullptr, 10);
    } else if (arg == "--headdim" && i + 1 < argc) {
      headdim = std::strtoll(argv[++i], nullptr, 10);
    } else if (arg == "--seqlen" && i + 1 < argc) {
      seqlen = std::strtoll(argv[++i], nullptr, 10);
    } else if (arg == "--gates" && i + 1 < argc) {
      gateSet = argv[++i];
    } else if (arg == "--options" && i + 1 < argc) {
      optionSet = argv[++i];
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (kernel.empty() && arg[0] != '-') {
      kernel = arg;
    } else {
      std::cerr << "error: unexpected argument '" << arg << "'\n";
      return usage();
    }
  }
  try {
    if (cmd == "list") {
      std::printf("gemm     tiled GEMM (kernels-src/gemm)\n"
                  "softmax  row-wise softmax (kernels-src/softmax)\n"
                  "ssd      Mamba-2 SSD forward, 3 kernels (kernels-src/ssd)\n"
                  "ssd-fused  Mamba-2 SSD forward in one kernel, as the GPU "
                  "runs it\n"
                  "ssd-split  the same over segments of the sequence (three "
                  "kernels)\n"
                  "conv     butterfly long convolution, fused or 3 passes "
                  "(kernels-src/conv)\n");
      return 0;
    }
    if (cmd == "ssd-flags") {
      // The tile-compile flags the kernel library compiles the fused
      // forward of this dtype, dstate, headdim and option list with
      // (scripts/build-ssd-kernels.sh); `ssd-split` names the split
      // forward's module instead.
      if (!kernel.empty() && kernel != "ssd-fused" && kernel != "ssd-split") {
        std::cerr << "error: ssd-flags takes ssd-fused (the default) or "
                     "ssd-split, not '"
                  << kernel << "'\n";
        return 2;
      }
      ssd::Options o;
      if (!parseSsdOptions(optionSet, o))
        return 2;
      const ssd::Variant v = ssd::fusedVariantFor(
          ssd::Shape{1, 1, 8, headdim, dstate, 1}, o, ssd::elementType(dtype));
      const bool split = kernel == "ssd-split";
      if (split && !ssd::splittable(v)) {
        std::cerr << "error: ssd: no split forward at dstate " << dstate
                  << " (up to 128)\n";
        return 2;
      }
      std::cout << ssd::compileFlags(ssd::fusedCompile(
                       v, split ? ssd::Module::Split : ssd::Module::Fused))
                << "\n";
      return 0;
    }
    if (cmd == "conv-flags") {
      // The tile-compile flags the kernel library compiles the kernels of
      // this length's plan with (scripts/build-conv-kernels.sh).
      if (!kernel.empty()) {
        std::cerr << "error: conv-flags takes no kernel name (use --seqlen)\n";
        return 2;
      }
      if (seqlen < 2 || seqlen > 65536) {
        std::cerr << "error: --seqlen must be in [2, 65536]\n";
        return 2;
      }
      // Gates as `print conv` takes them (default both).
      std::string gates = gateSet.empty() ? "pre,post" : gateSet;
      if (!isGateList(gates))
        return 2;
      std::cout << conv::compileFlags(conv::plan(seqlen),
                                      gates.find("pre") != std::string::npos,
                                      gates.find("post") != std::string::npos)
                << "\n";
      return 0;
    }
    if (cmd == "print") {
      dsl::KernelModule module;
      if (kernel == "gemm")
        gemm::build(module,
                    gemm::Config{dtype, dsl::f32, tile[0], tile[1], tile[2]});
      else if (kernel == "softmax")
        softmax::build(module, softmax::Config{dtype, 4, 128});
      else if (kernel == "conv-copy")
        // Zero-padding and cropping copies of the GPU path (lengths the
        // kernels do not take as they are).
        conv::buildCopyRows(module, dtype);
      else if (kernel == "conv-baseline") {
        // The cuFFT baseline's elementwise kernels (conv::buildTorchBaseline).
        std::string gates = gateSet.empty() ? "none" : gateSet;
        conv::buildTorchBaseline(module, dtype,
                                 gates.find("pre") != std::string::npos,
                                 gates.find("post") != std::string::npos);
      } else if (kernel == "conv") {
        // The plan of --seqlen (default 1024: M = 64 x 16, fused), gates
        // from --gates (default both).
        std::string gates = gateSet.empty() ? "pre,post" : gateSet;
        if (!isGateList(gates))
          return 2;
        if (seqlen < 2 || seqlen > 65536) {
          std::cerr << "error: --seqlen must be in [2, 65536]\n";
          return 2;
        }
        conv::build(module, seqlen,
                    conv::Config{dtype, gates.find("pre") != std::string::npos,
                                 gates.find("post") != std::string::npos,
                                 false});
      } else if (kernel == "conv-multipass")
        conv::build(module, 1024, conv::Config{dtype, false, false, true});
      else if (kernel == "ssd") {
        // Every option on, headdim 64, dstate 128, chunk 64.
        ssd::Options o;
        o.hasD = o.hasZ = o.hasDtBias = o.dtSoftplus = o.hasSeqIdx = true;
        o.hasInitialStates = o.returnFinalStates = true;
        ssd::build(module, ssd::Shape{1, 1, 8, 64, 128, 1}, o,
                   ssd::Config{dtype, 64});
      } else if (kernel == "ssd-fused") {
        // The fused forward the GPU runs, for one dtype, dstate, headdim
        // and option list: "layer" (D per head, dt_bias, softplus, as
        // mamba_ssm runs the Mamba-2 layer), "all", "none", or names from
        // D, Dpc, z, bias, softplus, seq, h0, hT joined by commas.
        ssd::Options o;
        if (!parseSsdOptions(optionSet, o))
          return 2;
        ssd::buildFused(module, ssd::Shape{1, 1, 8, headdim, dstate, 1}, o,
                        dtype);
      } else if (kernel == "ssd-split") {
        // The split forward's three kernels (long sequences on small
        // grids), same arguments as ssd-fused; dstate up to 128.
        ssd::Options o;
        if (!parseSsdOptions(optionSet, o))
          return 2;
        ssd::buildSplit(module, ssd::Shape{1, 1, 8, headdim, dstate, 1}, o,
                        dtype);
      } else if (kernel == "ssd-layer") {
        // The Mamba-2 layer as mamba_ssm runs it by default: D per head,
        // dt_bias, softplus; headdim 64; dstate and chunk from the tile
        // option (--tile 0xDSTATExCHUNK, default 128 and 256).
        ssd::Options o;
        o.hasD = o.hasDtBias = o.dtSoftplus = true;
        int64_t dstate = tileSet ? tile[1] : 128,
                chunk = tileSet ? tile[2] : 256;
        ssd::build(module, ssd::Shape{1, 1, 8, 64, dstate, 1}, o,
                   ssd::Config{dtype, chunk});
      } else {
        std::cerr << "error: unknown kernel '" << kernel
                  << "' (try: tessera list)\n";
        return 2;
      }
      std::cout << module.str();
      return 0;
    }
    if (cmd == "demo")
      return demo(seed);
  } catch (const std::exception &e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return usage();
}

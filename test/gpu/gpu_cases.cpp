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
#include "lowering/Compile.h"

#include "mlir/Parser/Parser.h"
#include "runtime/GpuCase.h"
#include "test/gpu/RandomKernels.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
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
                          {384, 512, 640},
                          {1000, 64, 96}};
  const Variant variants[] = {{dsl::bf16, dsl::f32, 1e-5},
                              {dsl::f16, dsl::f16, 2e-3},
                              {dsl::f32, dsl::f32, 2e-3}};
  // The mma.sync-sized tile (wgmma with 4 warps on sm_90a) and, on sm_90a,
  // the Hopper tile (128 x 256 x 64, 8 warps). TMA (tile-pipeline) needs
  // 16-byte aligned rows; other shapes take the unpipelined wgmma path.
  struct Tile {
    int64_t m, n, k;
    unsigned warps;
  };
  const Tile tiles[] = {{64, 64, 32, 4}, {128, 256, 64, 8}};
  int failures = 0;
  for (const char *target : kTargets)
    for (const Variant &v : variants)
      for (const Shape &s : shapes)
        for (const Tile &t : tiles) {
          if (t.warps == 8 &&
              (std::string(target) != "sm_90a" || v.in == dsl::f32))
            continue;
          gemm::Config cfg{v.in, v.out, t.m, t.n, t.k};
          dsl::KernelModule module;
          gemm::build(module, cfg);
          gpucase::Case c;
          const int64_t eb = v.in == dsl::f32 ? 4 : 2;
          lowering::CompileOptions options;
          options.numWarps = t.warps;
          options.pipeline = (s.k * eb) % 16 == 0 && (s.n * eb) % 16 == 0;
          c.name = "gemm_" + std::string(dsl::name(v.in)) + "_" +
                   dsl::name(v.out) + "_" + std::to_string(s.m) + "x" +
                   std::to_string(s.n) + "x" + std::to_string(s.k) + "_tile" +
                   std::to_string(t.m) + "x" + std::to_string(t.n) + "_" +
                   target;
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

/// The fused long convolution (one launch) at seqlen 1024 with gates.
int convCases(const std::string &dir, std::mt19937_64 &rng) {
  int failures = 0;
  for (const char *target : kTargets)
    for (dsl::DType t : {dsl::f16, dsl::bf16}) {
      const int64_t B = 2, H = 3, L = 1024;
      conv::Config cfg{t, true, true, false};
      dsl::KernelModule module;
      conv::build(module, L, cfg);
      gpucase::Case c;
      c.name =
          "conv_fused_" + std::string(dsl::name(t)) + "_2x3x1024_" + target;
      if (!compile(module, target, c)) {
        ++failures;
        continue;
      }
      interp::Buffer u(check::toInterp(t), {B, H, L}),
          pre(check::toInterp(t), {B, H, L}),
          post(check::toInterp(t), {B, H, L});
      auto uv = check::fillUniform(u, rng);
      auto pv = check::fillUniform(pre, rng, 0.5, 1.5);
      auto qv = check::fillUniform(post, rng, 0.5, 1.5);
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
      c.grid = {H, B, 1};
      c.tolerance = t == dsl::f16 ? 2e-3 : 1e-2;
      // The kernel views (B, H, L) as (B, H, L / 2, 2): the same bytes.
      c.args = {
          viewArg(t, {B, H, L / 2, 2}, uv), viewArg(dsl::f32, {H, 4, L}, spec),
          viewArg(t, {B, H, L / 2, 2}, pv), viewArg(t, {B, H, L / 2, 2}, qv),
          viewArg(t, {B, H, L / 2, 2}, {},
                  conv::reference(conv::Shape{B, H, L}, uv, k, pv, qv))};
      failures += emit(c, dir);
    }
  return failures;
}

/// Hand-written level-2 kernels (test/gpu/kernels/*.mlir) with two rank-2
/// f32 views (x in, y out) of 64 rows per program, against the interpreter.
int levelTwoCases(const std::string &dir, std::mt19937_64 &rng) {
  int failures = 0;
  const std::string path =
      std::string(TESSERA_SOURCE_DIR) + "/test/gpu/kernels/layouts.mlir";
  mlir::DialectRegistry registry;
  lowering::registerLoweringDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(path, &context);
  if (!module) {
    std::cerr << "error: cannot parse " << path << "\n";
    return 1;
  }
  const int64_t rows = 150, cols = 30; // 3 programs, ragged edges
  interp::Buffer x(interp::DType::f32, {rows, cols}),
      y(interp::DType::f32, {rows, cols});
  auto xv = check::fillUniform(x, rng);
  y.poison();
  interp::LaunchConfig launch;
  launch.grid = {3, 1, 1};
  interp::Status st = interp::run(
      *module, "layouts", {interp::ViewArg{&x}, interp::ViewArg{&y}}, launch);
  if (!st) {
    std::cerr << "error: layouts: interpreter: " << st.message << "\n";
    return 1;
  }
  for (const char *target : kTargets) {
    gpucase::Case c;
    c.name = std::string("layouts_") + target;
    lowering::CompileOptions options;
    options.target = target;
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
    c.tolerance = 1e-6;
    c.args = {viewArg(dsl::f32, {rows, cols}, xv),
              viewArg(dsl::f32, {rows, cols}, {}, check::values(y))};
    failures += emit(c, dir);
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
  if (argc < 2) {
    std::cerr << "usage: tessera-gpu-cases OUT_DIR [--count N] [--seed S]\n";
    return 2;
  }
  std::string dir = argv[1];
  int count = 40;
  uint64_t seed = 1000;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--count")
      count = std::atoi(argv[i + 1]);
    else if (a == "--seed")
      seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  std::mt19937_64 rng(seed);
  int failures = gemmCases(dir, rng) + softmaxCases(dir, rng) +
                 convCases(dir, rng) + levelTwoCases(dir, rng) +
                 randomCases(dir, count, seed);
  std::printf("cases written to %s (%d failures)\n", dir.c_str(), failures);
  return failures ? 1 : 0;
}

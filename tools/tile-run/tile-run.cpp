//===- tile-run.cpp - run a tile kernel through the reference interpreter -===//
//
//   tile-run FILE.mlir [--kernel NAME] --grid X[,Y[,Z]] --arg SPEC ...
//            [--seed N] [--print] [--mode faithful|f64|both]
//
// Every --arg gives one kernel argument, in order: a view's run-time sizes
// (`100x200`; the element type comes from the signature) or a scalar's
// value. Views are filled with uniform random values in [-1, 1) (integers:
// small random integers) drawn from the seed, which is printed. The kernel
// runs in device-faithful and float64 modes on identical inputs; for each
// view the relative L2 and max abs differences between the two are printed.
//
// Exit status: 0 on success, 1 on an error (parse, launch or run time),
// 2 on a usage error.
//
//===----------------------------------------------------------------------===//

#include "interpreter/Interpreter.h"

#include "dialect/TileDialect.h"
#include "dialect/TileOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace tessera::interp;

namespace {

const char *kUsage =
    "usage: tile-run FILE.mlir [--kernel NAME] --grid X[,Y[,Z]] --arg SPEC "
    "...\n"
    "                [--seed N] [--print] [--mode faithful|f64|both]\n"
    "\n"
    "  --kernel NAME  the tile.kernel to run (default: the only one)\n"
    "  --grid X,Y,Z   program instances along x, y, z (Y and Z default to 1)\n"
    "  --arg SPEC     one per kernel argument, in order: a view's sizes\n"
    "                 (e.g. 100x200) or a scalar's value (e.g. 64, 0.5)\n"
    "  --seed N       seed of the random inputs (default: random, printed)\n"
    "  --print        print the values of every view after the run\n"
    "  --mode M       faithful, f64 or both (default both: compares them)\n";

[[noreturn]] void usageError(const std::string &message) {
  std::fprintf(stderr,
               "tile-run: %s\n"
               "usage: tile-run FILE.mlir [--kernel NAME] --grid X[,Y[,Z]] "
               "--arg SPEC ... [--seed N] [--print] "
               "[--mode faithful|f64|both]\n"
               "(tile-run --help explains the options)\n",
               message.c_str());
  std::exit(2);
}

[[noreturn]] void runError(const std::string &message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  std::exit(1);
}

std::optional<int64_t> parseInt(const std::string &s) {
  if (s.empty())
    return std::nullopt;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 0);
  if (errno != 0 || end != s.c_str() + s.size())
    return std::nullopt;
  return static_cast<int64_t>(v);
}

std::optional<double> parseDouble(const std::string &s) {
  if (s.empty())
    return std::nullopt;
  char *end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size())
    return std::nullopt;
  return v;
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos - start));
    if (pos == std::string::npos)
      return parts;
    start = pos + 1;
  }
}

std::string typeString(mlir::Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

struct Options {
  std::string file;
  std::string kernel;
  std::array<int64_t, 3> grid = {0, 0, 0};
  bool haveGrid = false;
  std::vector<std::string> args;
  std::optional<uint64_t> seed;
  bool print = false;
  bool faithful = true, f64 = true;
};

Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    std::string value;
    bool hasInline = false;
    if (a.rfind("--", 0) == 0) {
      size_t eq = a.find('=');
      if (eq != std::string::npos) {
        value = a.substr(eq + 1);
        a = a.substr(0, eq);
        hasInline = true;
      }
    }
    auto next = [&]() -> std::string {
      if (hasInline)
        return value;
      if (i + 1 >= argc)
        usageError(a + " needs a value");
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (a == "--kernel") {
      o.kernel = next();
      if (!o.kernel.empty() && o.kernel[0] == '@')
        o.kernel = o.kernel.substr(1);
    } else if (a == "--grid") {
      std::vector<std::string> parts = split(next(), ',');
      if (parts.size() > 3)
        usageError("--grid takes at most three sizes, X[,Y[,Z]]");
      o.grid = {1, 1, 1};
      for (size_t d = 0; d < parts.size(); ++d) {
        std::optional<int64_t> v = parseInt(parts[d]);
        if (!v || *v < 1)
          usageError("bad --grid size '" + parts[d] +
                     "' (expected an integer >= 1)");
        o.grid[d] = *v;
      }
      o.haveGrid = true;
    } else if (a == "--arg") {
      o.args.push_back(next());
    } else if (a == "--seed") {
      std::string s = next();
      std::optional<int64_t> v = parseInt(s);
      if (!v || *v < 0)
        usageError("bad --seed '" + s + "' (expected a non-negative integer)");
      o.seed = static_cast<uint64_t>(*v);
    } else if (a == "--print") {
      if (hasInline)
        usageError("--print takes no value");
      o.print = true;
    } else if (a == "--mode") {
      std::string m = next();
      if (m == "faithful") {
        o.faithful = true;
        o.f64 = false;
      } else if (m == "f64" || m == "float64") {
        o.faithful = false;
        o.f64 = true;
      } else if (m == "both") {
        o.faithful = o.f64 = true;
      } else {
        usageError("bad --mode '" + m + "' (expected faithful, f64 or both)");
      }
    } else if (a.rfind("-", 0) == 0 && a.size() > 1) {
      usageError("unknown option '" + a + "'");
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      usageError("more than one input file ('" + o.file + "' and '" + a + "')");
    }
  }
  if (o.file.empty())
    usageError("no input file");
  if (!o.haveGrid)
    usageError("--grid is required");
  return o;
}

/// A kernel argument prepared for both runs.
struct Arg {
  bool isView = false;
  mlir::Type type;
  DType dtype = DType::f32;
  std::vector<int64_t> sizes;
  std::unique_ptr<Buffer> faithful; // the view's own element type
  std::unique_ptr<Buffer> f64;      // f64 for float views, else same dtype
  KernelArg scalar;
};

struct DiffStats {
  double relL2 = 0, maxAbs = 0, refNorm = 0;
  int64_t nonFiniteMismatch = 0;
};

DiffStats compare(const Buffer &test, const Buffer &ref) {
  DiffStats s;
  double num = 0, den = 0;
  for (int64_t k = 0; k < test.numElements(); ++k) {
    double a = test.get(k), b = ref.get(k);
    if (!std::isfinite(a) || !std::isfinite(b)) {
      bool same = (std::isnan(a) && std::isnan(b)) || a == b;
      if (!same)
        ++s.nonFiniteMismatch;
      continue;
    }
    double d = a - b;
    num += d * d;
    den += b * b;
    s.maxAbs = std::max(s.maxAbs, std::fabs(d));
  }
  s.refNorm = std::sqrt(den);
  s.relL2 = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  return s;
}

void printBuffer(const Buffer &b, const std::vector<int64_t> &sizes) {
  const int64_t n = b.numElements();
  if (n == 0) {
    std::printf("  (empty)\n");
    return;
  }
  const int64_t row = sizes.empty() ? n : std::max<int64_t>(sizes.back(), 1);
  std::vector<int64_t> strides(sizes.size(), 1);
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * sizes[d + 1];
  const bool isInt = !isFloat(b.dtype());
  for (int64_t start = 0; start < n; start += row) {
    std::printf("  [");
    for (size_t d = 0; d + 1 < sizes.size(); ++d)
      std::printf("%s%" PRId64, d ? ", " : "", (start / strides[d]) % sizes[d]);
    std::printf("%s:]", sizes.size() > 1 ? ", " : "");
    for (int64_t k = start; k < start + row && k < n; ++k) {
      if (isInt)
        std::printf(" %" PRId64, b.getInt(k));
      else
        std::printf(" %.8g", b.get(k));
    }
    std::printf("\n");
  }
}

} // namespace

int main(int argc, char **argv) {
  Options opts = parseOptions(argc, argv);

  mlir::DialectRegistry registry;
  tessera::tile::registerTileKernelDialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(opts.file);
  if (!buffer)
    runError("cannot read '" + opts.file + "': " + buffer.getError().message());
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &ctx);
  if (!module)
    runError("could not parse '" + opts.file + "' (see the diagnostics above)");

  // Pick the kernel.
  std::vector<tessera::tile::KernelOp> kernels;
  module->walk([&](tessera::tile::KernelOp k) { kernels.push_back(k); });
  std::string names;
  for (auto k : kernels) {
    names += names.empty() ? "@" : ", @";
    names += k.getSymName().str();
  }
  tessera::tile::KernelOp kernel;
  if (opts.kernel.empty()) {
    if (kernels.size() != 1)
      usageError("'" + opts.file + "' has " + std::to_string(kernels.size()) +
                 " kernels" + (names.empty() ? "" : " (" + names + ")") +
                 "; choose one with --kernel");
    kernel = kernels.front();
  } else {
    for (auto k : kernels)
      if (k.getSymName() == opts.kernel)
        kernel = k;
    if (!kernel)
      usageError("no kernel @" + opts.kernel + " in '" + opts.file + "'" +
                 (names.empty() ? "" : " (kernels: " + names + ")"));
  }
  const std::string kname = kernel.getSymName().str();
  llvm::ArrayRef<mlir::Type> inputs = kernel.getArgumentTypes();
  if (opts.args.size() != inputs.size()) {
    std::string sig;
    for (size_t i = 0; i < inputs.size(); ++i)
      sig += "\n  #" + std::to_string(i) + ": " + typeString(inputs[i]);
    usageError("@" + kname + " takes " + std::to_string(inputs.size()) +
               " arguments but " + std::to_string(opts.args.size()) +
               " --arg were given; its arguments are:" +
               (sig.empty() ? std::string(" (none)") : sig));
  }

  // Parse every --arg first, so that usage errors come before any output.
  std::vector<Arg> args(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    Arg &arg = args[i];
    arg.type = inputs[i];
    const std::string &spec = opts.args[i];
    const std::string where = "--arg #" + std::to_string(i) + " ('" + spec +
                              "', for " + typeString(inputs[i]) + ")";
    if (auto view = llvm::dyn_cast<tessera::tile::ViewType>(inputs[i])) {
      arg.isView = true;
      std::optional<DType> dt = dtypeOf(view.getElementType());
      if (!dt)
        runError(where + ": unsupported view element type");
      arg.dtype = *dt;
      for (const std::string &part : split(spec, 'x')) {
        std::optional<int64_t> v = parseInt(part);
        if (!v || *v < 0)
          usageError(where + ": expected sizes like 100x200");
        arg.sizes.push_back(*v);
      }
      if (static_cast<int64_t>(arg.sizes.size()) != view.getRank())
        usageError(where + ": the view has rank " +
                   std::to_string(view.getRank()) + " but " +
                   std::to_string(arg.sizes.size()) + " sizes were given");
      int64_t numel = 1;
      for (int64_t s : arg.sizes)
        if (__builtin_mul_overflow(numel, s, &numel) ||
            numel > (int64_t(1) << 32))
          usageError(where + ": the view is too large");
    } else if (inputs[i].isIntOrIndex()) {
      std::optional<int64_t> v = parseInt(spec);
      if (!v)
        usageError(where + ": expected an integer");
      arg.scalar = *v;
    } else {
      std::optional<double> v = parseDouble(spec);
      if (!v)
        usageError(where + ": expected a number");
      arg.scalar = *v;
    }
  }

  // Random inputs, identical for both modes.
  const uint64_t seed = opts.seed ? *opts.seed : std::random_device{}();
  std::printf("seed: %" PRIu64 "\n", seed);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (Arg &arg : args) {
    if (!arg.isView)
      continue;
    const DType dt = arg.dtype;
    arg.faithful = std::make_unique<Buffer>(dt, arg.sizes);
    arg.f64 =
        std::make_unique<Buffer>(isFloat(dt) ? DType::f64 : dt, arg.sizes);
    const unsigned width = intWidth(dt);
    std::uniform_int_distribution<int64_t> ints(width == 1 ? 0 : -8,
                                                width == 1 ? 1 : 8);
    for (int64_t k = 0; k < arg.faithful->numElements(); ++k) {
      if (isFloat(dt)) {
        arg.faithful->set(k, uniform(rng));
        arg.f64->set(k, arg.faithful->get(k));
      } else {
        int64_t v = ints(rng);
        arg.faithful->setInt(k, v);
        arg.f64->setInt(k, v);
      }
    }
  }

  auto launch = [&](Mode mode) {
    std::vector<KernelArg> kargs;
    for (Arg &arg : args) {
      if (arg.isView)
        kargs.push_back(
            ViewArg{mode == Mode::Float64 ? arg.f64.get() : arg.faithful.get(),
                    arg.sizes,
                    {},
                    0});
      else
        kargs.push_back(arg.scalar);
    }
    LaunchConfig config;
    config.grid = opts.grid;
    config.mode = mode;
    auto start = std::chrono::steady_clock::now();
    Status st = run(*module, kname, kargs, config);
    double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (!st)
      runError(st.message);
    std::printf("%s run: %.3f s\n",
                mode == Mode::Float64 ? "float64" : "faithful", secs);
  };

  std::printf("kernel @%s, grid %" PRId64 "x%" PRId64 "x%" PRId64 "\n",
              kname.c_str(), opts.grid[0], opts.grid[1], opts.grid[2]);
  if (opts.faithful)
    launch(Mode::DeviceFaithful);
  if (opts.f64)
    launch(Mode::Float64);

  for (size_t i = 0; i < args.size(); ++i) {
    const Arg &arg = args[i];
    if (!arg.isView)
      continue;
    std::string sizes;
    for (size_t d = 0; d < arg.sizes.size(); ++d) {
      if (d)
        sizes += 'x';
      sizes += std::to_string(arg.sizes[d]);
    }
    std::printf("arg %zu (%s, %s): ", i, typeString(arg.type).c_str(),
                sizes.c_str());
    if (opts.faithful && opts.f64) {
      DiffStats s = compare(*arg.faithful, *arg.f64);
      std::printf("rel L2 diff %.3e, max abs diff %.3e", s.relL2, s.maxAbs);
      if (s.nonFiniteMismatch)
        std::printf(", %" PRId64 " NaN/inf mismatches", s.nonFiniteMismatch);
      std::printf("\n");
    } else {
      const Buffer &b = opts.faithful ? *arg.faithful : *arg.f64;
      double sum2 = 0, maxAbs = 0;
      for (int64_t k = 0; k < b.numElements(); ++k) {
        double v = b.get(k);
        sum2 += v * v;
        maxAbs = std::max(maxAbs, std::fabs(v));
      }
      std::printf("L2 norm %.6e, max abs %.6e\n", std::sqrt(sum2), maxAbs);
    }
    if (opts.print)
      printBuffer(opts.faithful ? *arg.faithful : *arg.f64, arg.sizes);
  }
  return 0;
}

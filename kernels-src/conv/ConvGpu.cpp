//===- ConvGpu.cpp - butterfly long convolution on the GPU ----------------===//

#include "kernels-src/conv/ConvGpu.h"

namespace tessera::conv {

namespace {
/// Bytes of one multi-pass work buffer: (batch, channels, 2, outer, inner)
/// two-byte elements (bf16 or f16).
size_t oneWorkBufferBytes(const Shape &s, const Plan &p) {
  return size_t(s.batch * s.channels * 2 * p.M) * 2;
}

/// Bytes of the scale per sequence (batch, channels) in f32 of the f16
/// forward buffer (forwardInF16), rounded up to 16; reserved for either
/// element type, since workspaceBytes is not told which.
size_t scaleBytes(const Shape &s, const Plan &p) {
  if (!forwardInF16(p, ElementType::bf16))
    return 0;
  return (size_t(s.batch * s.channels) * 4 + 15) / 16 * 16;
}

/// Bytes of the multi-pass work buffers, pass 1 -> 2 and pass 2 -> 3, then
/// the scales.
size_t workBufferBytes(const Shape &s, const Plan &p) {
  if (p.fused)
    return 0;
  return 2 * oneWorkBufferBytes(s, p) + scaleBytes(s, p);
}

/// Bytes of one zero-padded copy (batch, channels, paddedLength), rounded
/// up to 16 so that the next one stays aligned; 0 when none is needed.
size_t paddedCopyBytes(const Shape &s, const Plan &p) {
  const int64_t Lp = paddedLength(p, s.seqlen);
  if (Lp == s.seqlen)
    return 0;
  return (size_t(s.batch * s.channels * Lp) * 2 + 15) / 16 * 16;
}
} // namespace

size_t workspaceBytes(const Shape &s, Gates g) {
  const Plan p = plan(s.seqlen);
  // The work buffers, then padded copies of u, [pre], [post] and y.
  return workBufferBytes(s, p) + (2 + g.pre + g.post) * paddedCopyBytes(s, p);
}

rt::Status prepare(rt::Runtime &runtime, const Shape &s, const DeviceTensor &k,
                   const DeviceTensor &spectrum) {
  const int64_t H = s.channels, L = s.seqlen, M = fftSize(L);
  if (H < 1 || L < 2 || L > 65536)
    return rt::Status::error(
        "conv: prepare needs channels >= 1 and seqlen in [2, 65536]");
  for (std::string err :
       {checkDeviceTensor("k", k, true, 4, {H, L}),
        checkDeviceTensor("spectrum", spectrum, true, 4, {H, 4, M})})
    if (!err.empty())
      return rt::Status::error("conv: " + err);
  if (!k.strides.empty() || !spectrum.strides.empty())
    return rt::Status::error("conv: prepare takes row-major k and spectrum");
  std::vector<float> host(size_t(H * L));
  if (rt::Status st = runtime.copyToHost(host.data(), k.ptr, host.size() * 4);
      !st)
    return st;
  std::vector<double> kd(host.begin(), host.end());
  std::vector<double> spec = prepareSpectrum(H, L, kd);
  std::vector<float> out(spec.begin(), spec.end());
  return runtime.copyToDevice(spectrum.ptr, out.data(), out.size() * 4);
}

std::string validate(const Shape &s, ElementType dtype, Gates g,
                     const ConvArgs &a) {
  if (s.batch < 1 || s.channels < 1)
    return "batch and channels must be >= 1";
  if (s.seqlen < 2 || s.seqlen > 65536)
    return "seqlen must be in [2, 65536], got " + std::to_string(s.seqlen);
  if (s.channels > 65535 || s.batch > 65535)
    return "channels and batch must be at most 65535 (grid), got " +
           std::to_string(s.channels) + " and " + std::to_string(s.batch);
  const Plan p = plan(s.seqlen);
  const int64_t B = s.batch, H = s.channels, L = s.seqlen;
  std::string err;
  auto check = [&](const char *n, const DeviceTensor &t, bool want,
                   int64_t bytes, std::vector<int64_t> shape) {
    if (err.empty())
      err = checkDeviceTensor(n, t, want, bytes, shape);
    if (err.empty() && want && !t.strides.empty() && t.strides.back() != 1)
      err = std::string(n) + " must be contiguous along the sequence";
  };
  (void)dtype; // both element types are 2 bytes
  check("u", a.u, true, 2, {B, H, L});
  check("spectrum", a.spectrum, true, 4, {H, 4, p.M});
  check("pre", a.pre, g.pre, 2, {B, H, L});
  check("post", a.post, g.post, 2, {B, H, L});
  check("y", a.y, true, 2, {B, H, L});
  if (err.empty() && !a.spectrum.strides.empty())
    err = "spectrum must be row-major";
  if (!err.empty())
    return err;
  if (const size_t need = workspaceBytes(s, g)) {
    if (!a.workspace || a.workspaceSize < need)
      return std::string("this length runs ") +
             (p.fused ? "" : "in three passes ") +
             (paddedLength(p, L) != L ? "on zero-padded copies " : "") +
             "and needs a workspace of " + std::to_string(need) + " bytes";
    if (a.workspace % 16 != 0)
      return "the workspace must be 16-byte aligned";
    if (!spanFits(a.workspace, a.workspaceSize))
      return "the workspace spans more memory than 64-bit addressing reaches";
  }
  return "";
}

namespace {
/// How to compile the module `tessera print <what>` into a library folder:
/// the files are named after the module's first kernel, as
/// scripts/build-conv-kernels.sh names them (one pair per module).
std::string compileCommand(const std::string &what, const std::string &flags,
                           const std::string &firstKernel) {
  return "tessera print " + what + " | tile-compile - --target sm_90a " +
         (flags.empty() ? "" : flags + " ") + "-o " + firstKernel +
         ".ptx --info " + firstKernel + ".json";
}
} // namespace

std::string buildCommand(int64_t seqlen, ElementType dtype, Gates g) {
  std::string gates = g.pre && g.post ? "pre,post"
                      : g.pre         ? "pre"
                      : g.post        ? "post"
                                      : "none";
  // With the library's flags: a kernel built otherwise runs, but slower.
  const Plan p = plan(seqlen);
  return compileCommand(
      "conv --dtype " + std::string(name(dtype)) + " --seqlen " +
          std::to_string(seqlen) + " --gates " + gates,
      compileFlags(p, g.pre, g.post),
      kernelName(planKernels(p, dtype).front(), p, dtype, g.pre, g.post));
}

namespace {
/// Finds kernel `name` in the library, or says how to build it.
rt::Status findKernel(const rt::KernelLibrary &library, const std::string &name,
                      const std::string &buildWith, const std::string *&ptx,
                      const rt::KernelInfo *&info) {
  if (rt::Status st = library.find(name, ptx, info); !st)
    return rt::Status::error("conv: " + st.message +
                             "; build it with: " + buildWith);
  return rt::Status::success();
}

/// Launches kernel `name` of the library, or says how to build it.
rt::Status launchFromLibrary(rt::Runtime &runtime,
                             const rt::KernelLibrary &library,
                             const std::string &name,
                             const std::string &buildWith,
                             const std::vector<rt::Arg> &args,
                             std::array<int64_t, 3> grid) {
  const std::string *ptx = nullptr;
  const rt::KernelInfo *info = nullptr;
  if (rt::Status st = findKernel(library, name, buildWith, ptx, info); !st)
    return st;
  return runtime.launch(*ptx, *info, grid, args, /*sync=*/false);
}

std::string copyKernelName(ElementType dtype) {
  return std::string("conv_copy_rows_") + name(dtype);
}
std::string copyBuildCommand(ElementType dtype) {
  return compileCommand("conv-copy --dtype " + std::string(name(dtype)), "",
                        copyKernelName(dtype));
}

/// Every kernel a call launches is looked up before the first launch, so
/// a library that lacks one (a plan kernel, or the padding copies) fails
/// the call with nothing launched.
rt::Status findCallKernels(const rt::KernelLibrary &library, const Plan &p,
                           const Shape &s, ElementType dtype, Gates g) {
  const std::string *ptx = nullptr;
  const rt::KernelInfo *info = nullptr;
  if (paddedLength(p, s.seqlen) != s.seqlen)
    if (rt::Status st = findKernel(library, copyKernelName(dtype),
                                   copyBuildCommand(dtype), ptx, info);
        !st)
      return st;
  for (const char *kernel : planKernels(p, dtype))
    if (rt::Status st =
            findKernel(library, kernelName(kernel, p, dtype, g.pre, g.post),
                       buildCommand(s.seqlen, dtype, g), ptx, info);
        !st)
      return st;
  return rt::Status::success();
}

/// The plan's kernels on tensors `a` of `len` (paddedLength) samples.
rt::Status runPlan(rt::Runtime &runtime, const rt::KernelLibrary &library,
                   const Plan &p, const Shape &s, int64_t len,
                   ElementType dtype, Gates g, const ConvArgs &a) {
  const int64_t B = s.batch, H = s.channels, L = len, M = p.M;
  auto launch = [&](const char *kernel, const std::vector<rt::Arg> &args,
                    std::array<int64_t, 3> grid) {
    return launchFromLibrary(runtime, library,
                             kernelName(kernel, p, dtype, g.pre, g.post),
                             buildCommand(s.seqlen, dtype, g), args, grid);
  };
  // A (batch, channels, seqlen) tensor over `shape` with its batch and
  // channel strides and the sequence split as `inner` strides.
  auto over = [](const DeviceTensor &t, std::vector<int64_t> shape,
                 std::vector<int64_t> inner) -> rt::Arg {
    std::vector<int64_t> st = t.effectiveStrides();
    std::vector<int64_t> strides = {st[0], st[1]};
    strides.insert(strides.end(), inner.begin(), inner.end());
    return rt::ViewArg{t.ptr, shape, strides};
  };
  if (p.fused) {
    // (batch, channels, seqlen / 2, 2): pairs of samples.
    auto pairs = [&](const DeviceTensor &t) {
      return over(t, {B, H, L / 2, 2}, {2, 1});
    };
    ViewShape sv = fusedSpectrumView(p, H);
    std::vector<rt::Arg> args = {
        pairs(a.u), rt::ViewArg{a.spectrum.ptr, sv.sizes, sv.strides}};
    if (g.pre)
      args.push_back(pairs(a.pre));
    if (g.post)
      args.push_back(pairs(a.post));
    args.push_back(pairs(a.y));
    return launch("conv_fused", args, fusedGrid(p, B, H));
  }
  const int64_t Mo = p.outer, Mi = M / Mo;
  const ViewShape ov = outerSequenceView(p, B, H);
  auto grid = [&](const DeviceTensor &t) {
    return over(t, ov.sizes, {ov.strides[2], 1});
  };
  // Two buffers: the inner pass reads one and writes the other.
  const rt::DevicePtr inverseBuffer =
      a.workspace + rt::DevicePtr(oneWorkBufferBytes(s, p));
  rt::Arg work =
      rt::ViewArg{a.workspace, {B, H, 2, Mo, Mi}, {H * 2 * M, 2 * M, M, Mi, 1}};
  rt::Arg inverse = rt::ViewArg{
      inverseBuffer, {B, H, 2, Mo, Mi}, {H * 2 * M, 2 * M, M, Mi, 1}};
  // The scales of the f16 forward buffer, after both buffers.
  const bool f16Forward = forwardInF16(p, dtype);
  rt::Arg scales =
      rt::ViewArg{inverseBuffer + rt::DevicePtr(oneWorkBufferBytes(s, p)),
                  {B, H, 1},
                  {H, 1, 1}};
  if (f16Forward) {
    auto rows = [&](const DeviceTensor &t) { return over(t, {B, H, L}, {1}); };
    std::vector<rt::Arg> a0 = {rows(a.u)};
    if (g.pre)
      a0.push_back(rows(a.pre));
    a0.push_back(scales);
    if (rt::Status st = launch("conv_bound", a0, {H, B, 1}); !st)
      return st;
  }
  std::vector<rt::Arg> a1 = {grid(a.u)};
  if (g.pre)
    a1.push_back(grid(a.pre));
  a1.push_back(work);
  if (f16Forward)
    a1.push_back(scales);
  if (rt::Status st = launch("conv_outer_fwd", a1, outerGrid(p, B, H)); !st)
    return st;
  const ViewShape sv = innerSpectrumView(p, H), wv = innerWorkView(p, B, H);
  rt::Arg spectrum = rt::ViewArg{a.spectrum.ptr, sv.sizes, sv.strides};
  std::vector<rt::Arg> a2 = {rt::ViewArg{a.workspace, wv.sizes, wv.strides},
                             spectrum,
                             rt::ViewArg{inverseBuffer, wv.sizes, wv.strides}};
  if (rt::Status st = launch("conv_inner", a2, innerGrid(p, B, H)); !st)
    return st;
  std::vector<rt::Arg> a3 = {inverse};
  if (g.post)
    a3.push_back(grid(a.post));
  a3.push_back(grid(a.y));
  if (f16Forward)
    a3.push_back(scales);
  return launch("conv_outer_inv", a3, outerGrid(p, B, H));
}

} // namespace

rt::Status convolve(rt::Runtime &runtime, const rt::KernelLibrary &library,
                    const Shape &s, ElementType dtype, Gates g,
                    const ConvArgs &a) {
  if (std::string err = validate(s, dtype, g, a); !err.empty())
    return rt::Status::error("conv: " + err);
  const Plan p = plan(s.seqlen);
  if (rt::Status st = findCallKernels(library, p, s, dtype, g); !st)
    return st;
  const int64_t B = s.batch, H = s.channels, L = s.seqlen;
  const int64_t Lp = paddedLength(p, L);
  if (Lp == L)
    return runPlan(runtime, library, p, s, L, dtype, g, a);
  // Zero-padded copies of u and the gates in the workspace, after the work
  // buffers; the plan writes a padded y there, cropped back into y.
  auto copy = [&](const DeviceTensor &src, const DeviceTensor &dst) {
    return launchFromLibrary(runtime, library, copyKernelName(dtype),
                             copyBuildCommand(dtype), {src.view(), dst.view()},
                             {(dst.shape[2] + 1023) / 1024, H, B});
  };
  const size_t bytes = paddedCopyBytes(s, p);
  const rt::DevicePtr first = a.workspace + workBufferBytes(s, p);
  int slots = 0; // u, [pre], [post], y in turn
  auto padded = [&]() {
    return DeviceTensor{first + rt::DevicePtr(slots++ * bytes), {B, H, Lp}, {}};
  };
  ConvArgs run = a;
  run.u = padded();
  if (rt::Status st = copy(a.u, run.u); !st)
    return st;
  if (g.pre) {
    run.pre = padded();
    if (rt::Status st = copy(a.pre, run.pre); !st)
      return st;
  }
  if (g.post) {
    run.post = padded();
    if (rt::Status st = copy(a.post, run.post); !st)
      return st;
  }
  run.y = padded();
  if (rt::Status st = runPlan(runtime, library, p, s, Lp, dtype, g, run); !st)
    return st;
  return copy(run.y, a.y);
}

} // namespace tessera::conv

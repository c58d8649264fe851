//===- SsdGpu.cpp - Mamba-2 SSD forward on the GPU ------------------------===//

#include "kernels-src/ssd/SsdGpu.h"

#include <optional>

namespace tessera::ssd {

namespace {

/// Where the split forward's scratch arrays sit in the workspace (bytes,
/// each 256-byte aligned): the segments' own states (batch * computed *
/// nheads * dstate tile, headdim: transposed blocks as rows) and decays
/// (batch * computed, nheads), and the states they start from (batch *
/// segments * nheads * dstate tile, headdim); computed = segments, or
/// segments - 1 without final states.
struct WorkspaceLayout {
  size_t states = 0, decay = 0, incoming = 0, total = 0;
  int64_t computed = 0, dstateTile = 0;
};

size_t roundUp(size_t n) { return (n + 255) / 256 * 256; }

WorkspaceLayout workspaceLayout(const Shape &s, const Options &o,
                                ElementType dtype, int64_t segments) {
  WorkspaceLayout w;
  if (segments <= 1)
    return w;
  w.computed = o.returnFinalStates ? segments : segments - 1;
  w.dstateTile = fusedVariantFor(s, o, dtype).dstateTile;
  const size_t state =
      size_t(s.batch * s.nheads * s.headdim * w.dstateTile) * 4;
  w.decay = roundUp(size_t(w.computed) * state);
  w.incoming = w.decay + roundUp(size_t(s.batch * w.computed * s.nheads) * 4);
  w.total = w.incoming + size_t(segments) * state;
  return w;
}

/// `t` (batch, seqlen, ...) as rows of (batch * segments, seqlen /
/// segments, ...), the same memory; nothing when its batch stride is not
/// seqlen times its sequence stride. Absent tensors stay absent.
std::optional<DeviceTensor> segmentRows(const DeviceTensor &t,
                                        int64_t segments) {
  if (!t.ptr)
    return t;
  std::vector<int64_t> strides = t.effectiveStrides();
  if (t.shape[0] > 1 && strides[0] != strides[1] * t.shape[1])
    return std::nullopt;
  DeviceTensor rows = t;
  rows.shape[0] *= segments;
  rows.shape[1] /= segments;
  rows.strides = strides;
  rows.strides[0] = strides[1] * rows.shape[1];
  return rows;
}

/// A device tensor over part of the workspace.
DeviceTensor scratch(const DeviceTensor &workspace, size_t offset,
                     std::vector<int64_t> shape) {
  return DeviceTensor{workspace.ptr + offset, std::move(shape), {}};
}

/// Whether `workspace` (validated: a 1-D shape in bytes) has `bytes`.
bool workspaceFits(const DeviceTensor &workspace, size_t bytes) {
  return workspace.ptr && workspace.shape.size() == 1 &&
         size_t(workspace.shape[0]) >= bytes;
}

/// "" when the split forward can run a call in `segments`, else why not.
std::string splitProblem(const KernelLibrary &library, const Shape &s,
                         const Options &o, ElementType dtype,
                         const DeviceArgs &a, int64_t segments,
                         bool checkWorkspace = true) {
  const Variant v = fusedVariantFor(s, o, dtype);
  if (!splittable(v))
    return "no split forward at dstate " + std::to_string(s.dstate) +
           " (up to 128)";
  // The first launch's grid z is batch x segments; the bound also keeps
  // every size of the workspace well inside int64.
  if (segments > 65535 / s.batch)
    return "batch x segments must be at most 65535 (grid z), got " +
           std::to_string(s.batch) + " x " + std::to_string(segments);
  if (s.seqlen % segments != 0)
    return "seqlen (" + std::to_string(s.seqlen) +
           ") is not a multiple of the segments";
  const std::string *ptx = nullptr;
  const rt::KernelInfo *info = nullptr;
  for (const std::string &name :
       {segmentStatesName(v), combineStatesName(v), segmentScanName(v)})
    if (rt::Status st = library.find(name, ptx, info); !st)
      return st.message +
             "; build it with: " + buildCommand(s, o, dtype, /*split=*/true);
  for (auto [name, t] :
       {std::pair<const char *, const DeviceTensor *>{"x", &a.x},
        {"dt", &a.dt},
        {"B", &a.B},
        {"C", &a.C},
        {"z", &a.z},
        {"seq_idx", &a.seqIdx},
        {"y", &a.y}})
    if (!segmentRows(*t, segments))
      return std::string(name) +
             "'s batch stride is not seqlen times its sequence stride";
  const size_t need = workspaceBytes(s, o, dtype, segments);
  if (checkWorkspace && !workspaceFits(a.workspace, need))
    return "the workspace must have " + std::to_string(need) + " bytes";
  return "";
}

/// Programs of `info` that fit on one multiprocessor, asked once per kernel
/// and device.
int programsPerMultiprocessor(rt::Runtime &runtime, const std::string &ptx,
                              const rt::KernelInfo &info) {
  static std::map<std::string, int> known;
  const std::string key = info.name + "@" + runtime.deviceName();
  auto it = known.find(key);
  if (it != known.end())
    return it->second;
  int blocks = 0;
  if (!runtime.blocksPerMultiprocessor(ptx, info, blocks))
    blocks = 0;
  return known[key] = blocks;
}

} // namespace

size_t workspaceBytes(const Shape &s, const Options &o, ElementType dtype,
                      int64_t segments) {
  return workspaceLayout(s, o, dtype, segments).total;
}

int64_t automaticSegments(rt::Runtime &runtime, const KernelLibrary &library,
                          const Shape &s, const Options &o, ElementType dtype,
                          const DeviceArgs &a) {
  const Variant v = fusedVariantFor(s, o, dtype);
  const std::string *ptx = nullptr;
  const rt::KernelInfo *info = nullptr;
  if (!splittable(v) || !library.find(fusedKernelName(v), ptx, info))
    return 1;
  const int64_t segments =
      segmentsFor(s, v, runtime.multiprocessors(),
                  programsPerMultiprocessor(runtime, *ptx, *info));
  if (segments > 1 &&
      !splitProblem(library, s, o, dtype, a, segments, /*checkWorkspace=*/false)
           .empty())
    return 1;
  return segments;
}

std::string buildCommand(const Shape &s, const Options &o, ElementType t,
                         bool split) {
  const Variant v = fusedVariantFor(s, o, t);
  const std::string name = split ? segmentStatesName(v) : fusedKernelName(v);
  return "tessera print " + std::string(split ? "ssd-split" : "ssd-fused") +
         " --dtype " + std::string(ssd::name(t)) + " --dstate " +
         std::to_string(s.dstate) + " --headdim " + std::to_string(s.headdim) +
         " --options " + optionList(o) + " | tile-compile - --target sm_90a " +
         compileFlags(fusedCompile(v, split ? Module::Split : Module::Fused)) +
         " -o " + name + ".ptx --info " + name + ".json";
}

std::string validate(const Shape &s, const Options &o, ElementType dtype,
                     const DeviceArgs &a) {
  for (auto [name, value] : {std::pair<const char *, int64_t>{"batch", s.batch},
                             {"seqlen", s.seqlen},
                             {"nheads", s.nheads},
                             {"headdim", s.headdim},
                             {"dstate", s.dstate},
                             {"ngroups", s.ngroups}})
    if (value < 1)
      return std::string(name) + " must be >= 1, got " + std::to_string(value);
  if (s.nheads % s.ngroups != 0)
    return "ngroups (" + std::to_string(s.ngroups) + ") must divide nheads (" +
           std::to_string(s.nheads) + ")";
  if (s.headdim > 256 || s.dstate > 256)
    return "headdim and dstate up to 256 are supported, got headdim " +
           std::to_string(s.headdim) + ", dstate " + std::to_string(s.dstate);
  // The grid is (headdim blocks, nheads, batch).
  if (s.nheads > 65535 || s.batch > 65535)
    return "nheads and batch must be at most 65535 (grid y and z), got " +
           std::to_string(s.nheads) + " and " + std::to_string(s.batch);
  if (!(o.dtMin <= o.dtMax))
    return "dt limits need dt_min <= dt_max";
  if (o.dPerChannel && !o.hasD)
    return "dPerChannel needs hasD";
  const int64_t Bt = s.batch, L = s.seqlen, H = s.nheads, P = s.headdim,
                N = s.dstate, G = s.ngroups;
  const int64_t act = dtype == ElementType::f32 ? 4 : 2;
  std::string err;
  auto check = [&](const char *n, const DeviceTensor &t, bool want,
                   int64_t bytes, std::vector<int64_t> shape) {
    if (err.empty())
      err = checkDeviceTensor(n, t, want, bytes, shape);
  };
  check("x", a.x, true, act, {Bt, L, H, P});
  check("dt", a.dt, true, 4, {Bt, L, H});
  check("A", a.A, true, 4, {H});
  check("B", a.B, true, act, {Bt, L, G, N});
  check("C", a.C, true, act, {Bt, L, G, N});
  check("D", a.D, o.hasD, 4,
        o.dPerChannel ? std::vector<int64_t>{H, P} : std::vector<int64_t>{H});
  check("z", a.z, o.hasZ, act, {Bt, L, H, P});
  check("dt_bias", a.dtBias, o.hasDtBias, 4, {H});
  check("initial_states", a.initialStates, o.hasInitialStates, 4,
        {Bt, H, P, N});
  check("seq_idx", a.seqIdx, o.hasSeqIdx, 4, {Bt, L});
  check("y", a.y, true, act, {Bt, L, H, P});
  check("final_states", a.finalStates, o.returnFinalStates, 4, {Bt, H, P, N});
  if (err.empty() && (a.workspace.ptr || !a.workspace.shape.empty())) {
    if (!a.workspace.ptr)
      err = "workspace has a shape but a null pointer";
    else if (a.workspace.ptr % 16 != 0)
      err = "workspace is misaligned: its address must be a multiple of 16 "
            "bytes";
    else if (a.workspace.shape.size() != 1 || a.workspace.shape[0] < 1)
      err = "workspace must have the shape (bytes)";
    else if (!spanFits(a.workspace.ptr, uint64_t(a.workspace.shape[0])))
      err = "workspace spans more memory than 64-bit addressing reaches";
  }
  return err;
}

/// The split forward's three launches (splitProblem already checked).
static rt::Status forwardSplit(rt::Runtime &runtime,
                               const KernelLibrary &library, const Shape &s,
                               const Options &o, ElementType dtype,
                               const DeviceArgs &a, int64_t segments) {
  const Variant v = fusedVariantFor(s, o, dtype);
  const WorkspaceLayout w = workspaceLayout(s, o, dtype, segments);
  const int64_t Bt = s.batch, H = s.nheads, P = s.headdim, Nt = w.dstateTile;
  auto rows = [&](const DeviceTensor &t) {
    return segmentRows(t, segments)->view();
  };
  const DeviceTensor states =
      scratch(a.workspace, w.states, {Bt * w.computed * H * Nt, P});
  const DeviceTensor decay =
      scratch(a.workspace, w.decay, {Bt * w.computed, H});
  const DeviceTensor incoming =
      scratch(a.workspace, w.incoming, {Bt * segments * H * Nt, P});
  const int64_t pBlocks = (P + v.headdimTile - 1) / v.headdimTile;
  auto launch = [&](const std::string &name, const std::vector<rt::Arg> &args,
                    std::array<int64_t, 3> grid) {
    const std::string *ptx = nullptr;
    const rt::KernelInfo *info = nullptr;
    if (rt::Status st = library.find(name, ptx, info); !st)
      return st;
    return runtime.launch(*ptx, *info, grid, args, /*sync=*/false);
  };
  const rt::Arg headsPerGroup(int64_t(s.nheads / s.ngroups));

  std::vector<rt::Arg> a1 = {rows(a.x), rows(a.dt), a.A.view(), rows(a.B)};
  if (v.dtBias)
    a1.push_back(a.dtBias.view());
  if (v.seqIdx)
    a1.push_back(rows(a.seqIdx));
  a1.insert(a1.end(), {rt::Arg(o.dtMin), rt::Arg(o.dtMax), headsPerGroup,
                       rt::Arg(segments), states.view(), decay.view()});
  if (rt::Status st =
          launch(segmentStatesName(v), a1, {pBlocks, H, Bt * w.computed});
      !st)
    return st;

  std::vector<rt::Arg> a2 = {states.view(), decay.view()};
  if (v.initialStates)
    a2.push_back(a.initialStates.view());
  if (v.seqIdx)
    a2.push_back(rows(a.seqIdx));
  a2.insert(a2.end(), {rt::Arg(segments), incoming.view()});
  if (v.finalStates)
    a2.push_back(a.finalStates.view());
  if (rt::Status st = launch(combineStatesName(v), a2, {pBlocks, H, Bt}); !st)
    return st;

  std::vector<rt::Arg> a3 = {rows(a.x), rows(a.dt), a.A.view(), rows(a.B),
                             rows(a.C)};
  if (v.dtBias)
    a3.push_back(a.dtBias.view());
  if (v.seqIdx)
    a3.push_back(rows(a.seqIdx));
  if (v.D)
    a3.push_back(a.D.view());
  if (v.z)
    a3.push_back(rows(a.z));
  a3.insert(a3.end(), {incoming.view(), rt::Arg(o.dtMin), rt::Arg(o.dtMax),
                       headsPerGroup, rows(a.y)});
  return launch(segmentScanName(v), a3, {pBlocks, H, Bt * segments});
}

rt::Status forward(rt::Runtime &runtime, const KernelLibrary &library,
                   const Shape &s, const Options &o, ElementType dtype,
                   const DeviceArgs &a, int64_t segments) {
  if (std::string err = validate(s, o, dtype, a); !err.empty())
    return rt::Status::error("ssd: " + err);
  if (segments < 0)
    return rt::Status::error("ssd: segments must be >= 0 (0: automatic), got " +
                             std::to_string(segments));
  if (segments > 1)
    if (std::string err = splitProblem(library, s, o, dtype, a, segments);
        !err.empty())
      return rt::Status::error("ssd: cannot split the sequence into " +
                               std::to_string(segments) + " segments: " + err);
  const Variant v = fusedVariantFor(s, o, dtype);
  const std::string name = fusedKernelName(v);
  const std::string *ptx = nullptr;
  const rt::KernelInfo *info = nullptr;
  if (rt::Status st = library.find(name, ptx, info); !st)
    return rt::Status::error(st.message +
                             "; build it with: " + buildCommand(s, o, dtype));
  if (o.hasSeqIdx) {
    // Packed sequences: ids never decrease along a row (the kernel takes
    // the sequence of a chunk's last position as the chunk's largest id).
    const int64_t L = s.seqlen;
    std::vector<int32_t> ids(size_t(s.batch * L));
    const int64_t rowStride =
        a.seqIdx.strides.empty() ? L : a.seqIdx.strides[0];
    const int64_t colStride =
        a.seqIdx.strides.empty() ? 1 : a.seqIdx.strides[1];
    if (colStride != 1)
      return rt::Status::error("ssd: seq_idx rows must be contiguous");
    for (int64_t b = 0; b < s.batch; ++b)
      if (rt::Status st = runtime.copyToHost(
              ids.data() + b * L, a.seqIdx.ptr + uint64_t(b * rowStride * 4),
              size_t(L) * 4);
          !st)
        return st;
    for (int64_t b = 0; b < s.batch; ++b)
      for (int64_t t = 1; t < L; ++t)
        if (ids[b * L + t] < ids[b * L + t - 1])
          return rt::Status::error(
              "ssd: seq_idx must be nondecreasing along each row (packed "
              "sequences); row " +
              std::to_string(b) + " decreases at position " +
              std::to_string(t));
  }
  if (segments == 0) {
    segments = automaticSegments(runtime, library, s, o, dtype, a);
    // Without room for the split's scratch, one walk.
    if (segments > 1 &&
        !workspaceFits(a.workspace, workspaceBytes(s, o, dtype, segments)))
      segments = 1;
  }
  if (segments > 1)
    return forwardSplit(runtime, library, s, o, dtype, a, segments);
  std::vector<rt::Arg> args = {a.x.view(), a.dt.view(), a.A.view(), a.B.view(),
                               a.C.view()};
  if (v.dtBias)
    args.push_back(a.dtBias.view());
  if (v.seqIdx)
    args.push_back(a.seqIdx.view());
  if (v.D)
    args.push_back(a.D.view());
  if (v.z)
    args.push_back(a.z.view());
  if (v.initialStates)
    args.push_back(a.initialStates.view());
  args.insert(args.end(), {rt::Arg(o.dtMin), rt::Arg(o.dtMax),
                           rt::Arg(int64_t(s.nheads / s.ngroups)), a.y.view()});
  if (v.finalStates)
    args.push_back(a.finalStates.view());
  const int64_t Pb = v.headdimTile;
  return runtime.launch(*ptx, *info,
                        {(s.headdim + Pb - 1) / Pb, s.nheads, s.batch}, args,
                        /*sync=*/false);
}

} // namespace tessera::ssd

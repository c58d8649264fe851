//===- SsdGpu.cpp - Mamba-2 SSD forward on the GPU ------------------------===//

#include "kernels-src/ssd/SsdGpu.h"

namespace tessera::ssd {

std::string buildCommand(const Shape &s, const Options &o, ElementType t) {
  const Variant v = fusedVariantFor(s, o, t);
  const std::string name = fusedKernelName(v);
  return "tessera print ssd-fused --dtype " + std::string(ssd::name(t)) +
         " --dstate " + std::to_string(s.dstate) + " --headdim " +
         std::to_string(s.headdim) + " --options " + optionList(o) +
         " | tile-compile - --target sm_90a " + compileFlags(fusedCompile(v)) +
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
  return err;
}

rt::Status forward(rt::Runtime &runtime, const KernelLibrary &library,
                   const Shape &s, const Options &o, ElementType dtype,
                   const DeviceArgs &a) {
  if (std::string err = validate(s, o, dtype, a); !err.empty())
    return rt::Status::error("ssd: " + err);
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

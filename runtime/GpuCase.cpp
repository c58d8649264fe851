//===- GpuCase.cpp - a kernel run recorded for the GPU host
//----------------===//

#include "runtime/GpuCase.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tessera::gpucase {
namespace fs = std::filesystem;

static uint32_t f32Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

static float f32FromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// Round-to-nearest-even of a double to a float format with `mant` explicit
/// mantissa bits and exponent bias `bias` (via f32, which is exact for the
/// 16-bit formats' subnormal handling below).
static uint16_t toHalfLike(double v, bool bf16) {
  float f = float(v); // both formats are subsets of f32 precision
  uint32_t x = f32Bits(f);
  if (bf16) {
    if ((x & 0x7fffffff) > 0x7f800000)
      return uint16_t((x >> 16) | 0x40);
    uint32_t rounding = 0x7fff + ((x >> 16) & 1);
    return uint16_t((x + rounding) >> 16);
  }
  // f16: handle through explicit arithmetic.
  uint32_t sign = (x >> 16) & 0x8000;
  float a = std::fabs(f);
  if (std::isnan(f))
    return uint16_t(sign | 0x7e00);
  if (a >= 65520.0f)
    return uint16_t(sign | 0x7c00);
  if (a < 6.103515625e-05f) { // subnormal: multiples of 2^-24
    float q = std::nearbyint(a * 16777216.0f);
    return uint16_t(sign | uint32_t(q));
  }
  int e;
  float m = std::frexp(a, &e);                // a = m * 2^e, m in [0.5, 1)
  float scaled = std::nearbyint(m * 2048.0f); // 11 significant bits
  if (scaled >= 2048.0f) {
    scaled /= 2;
    ++e;
  }
  uint32_t exp = uint32_t(e - 1 + 15);
  if (exp >= 31)
    return uint16_t(sign | 0x7c00);
  return uint16_t(sign | (exp << 10) | (uint32_t(scaled) & 0x3ff));
}

static double fromHalfLike(uint16_t h, bool bf16) {
  if (bf16)
    return f32FromBits(uint32_t(h) << 16);
  uint32_t sign = h & 0x8000, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(double(mant), -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp(double(mant | 0x400), int(exp) - 25);
  return sign ? -v : v;
}

uint64_t encode(rt::ScalarType type, double value) {
  switch (type) {
  case rt::ScalarType::bf16:
    return toHalfLike(value, true);
  case rt::ScalarType::f16:
    return toHalfLike(value, false);
  case rt::ScalarType::f32:
    return f32Bits(float(value));
  case rt::ScalarType::f64: {
    uint64_t u;
    std::memcpy(&u, &value, 8);
    return u;
  }
  default:
    return uint64_t(int64_t(value));
  }
}

double decode(rt::ScalarType type, uint64_t bits) {
  switch (type) {
  case rt::ScalarType::bf16:
    return fromHalfLike(uint16_t(bits), true);
  case rt::ScalarType::f16:
    return fromHalfLike(uint16_t(bits), false);
  case rt::ScalarType::f32:
    return f32FromBits(uint32_t(bits));
  case rt::ScalarType::f64: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  case rt::ScalarType::i1:
  case rt::ScalarType::i8:
    return double(int8_t(bits));
  case rt::ScalarType::i16:
    return double(int16_t(bits));
  case rt::ScalarType::i32:
    return double(int32_t(bits));
  default:
    return double(int64_t(bits));
  }
}

static std::string dims(const std::vector<int64_t> &s) {
  std::ostringstream out;
  for (size_t i = 0; i < s.size(); ++i)
    out << (i ? "x" : "") << s[i];
  return out.str();
}

static bool writeFile(const fs::path &p, const void *data, size_t bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(static_cast<const char *>(data), std::streamsize(bytes));
  return bool(out);
}

std::string write(const Case &c, const std::string &dir) {
  fs::path folder = fs::path(dir) / c.name;
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec)
    return "cannot create " + folder.string() + ": " + ec.message();
  if (!writeFile(folder / "kernel.ptx", c.ptx.data(), c.ptx.size()))
    return "cannot write kernel.ptx";
  std::string json = rt::toJson(c.info);
  if (!writeFile(folder / "kernel.json", json.data(), json.size()))
    return "cannot write kernel.json";
  std::ostringstream txt;
  txt.precision(17);
  txt << "grid " << c.grid[0] << " " << c.grid[1] << " " << c.grid[2] << "\n";
  txt << "tolerance " << c.tolerance << "\n";
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Arg &a = c.args[i];
    if (!a.isView) {
      txt << "scalar " << rt::scalarTypeName(a.scalarType) << " " << a.scalar
          << "\n";
      continue;
    }
    const ViewData &v = a.view;
    std::string in = "-", out = "-";
    int size = rt::scalarTypeSize(v.type);
    if (!v.input.empty()) {
      in = "in" + std::to_string(i) + ".bin";
      std::vector<unsigned char> bytes(v.input.size() * size);
      for (size_t k = 0; k < v.input.size(); ++k) {
        uint64_t bits = encode(v.type, v.input[k]);
        std::memcpy(&bytes[k * size], &bits, size);
      }
      if (!writeFile(folder / in, bytes.data(), bytes.size()))
        return "cannot write " + in;
    }
    if (!v.expected.empty()) {
      out = "expected" + std::to_string(i) + ".bin";
      if (!writeFile(folder / out, v.expected.data(),
                     v.expected.size() * sizeof(double)))
        return "cannot write " + out;
    }
    txt << "view " << rt::scalarTypeName(v.type) << " " << dims(v.shape)
        << " in " << in << " out " << out << "\n";
  }
  std::string s = txt.str();
  if (!writeFile(folder / "case.txt", s.data(), s.size()))
    return "cannot write case.txt";
  return "";
}

static bool readFile(const fs::path &p, std::string &out) {
  std::ifstream in(p, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string read(const std::string &path, Case &c) {
  fs::path folder(path);
  c = Case();
  c.name = folder.filename().string();
  if (!readFile(folder / "kernel.ptx", c.ptx))
    return "missing kernel.ptx";
  std::string json, txt;
  if (!readFile(folder / "kernel.json", json))
    return "missing kernel.json";
  std::string error;
  auto info = rt::fromJson(json, &error);
  if (!info)
    return "kernel.json: " + error;
  c.info = *info;
  if (!readFile(folder / "case.txt", txt))
    return "missing case.txt";
  std::istringstream lines(txt);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream w(line);
    std::string kind;
    w >> kind;
    if (kind.empty())
      continue;
    if (kind == "grid") {
      w >> c.grid[0] >> c.grid[1] >> c.grid[2];
    } else if (kind == "tolerance") {
      w >> c.tolerance;
    } else if (kind == "scalar") {
      Arg a;
      a.isView = false;
      std::string type, value;
      w >> type >> value;
      // strtod, not operator>>: the latter rejects "inf" and "nan" (the SSD
      // kernels take dt limits of -inf and inf).
      char *end = nullptr;
      a.scalar = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0')
        return "bad scalar value '" + value + "'";
      auto t = rt::parseScalarType(type);
      if (!t)
        return "unknown scalar type " + type;
      a.scalarType = *t;
      c.args.push_back(a);
    } else if (kind == "view") {
      Arg a;
      std::string type, shape, kin, in, kout, out;
      w >> type >> shape >> kin >> in >> kout >> out;
      auto t = rt::parseScalarType(type);
      if (!t || kin != "in" || kout != "out")
        return "bad view line: " + line;
      a.view.type = *t;
      int64_t numel = 1;
      std::istringstream ds(shape);
      std::string d;
      while (std::getline(ds, d, 'x')) {
        a.view.shape.push_back(std::stoll(d));
        numel *= a.view.shape.back();
      }
      int size = rt::scalarTypeSize(*t);
      if (in != "-") {
        std::string bytes;
        if (!readFile(folder / in, bytes) ||
            int64_t(bytes.size()) != numel * size)
          return "bad input file " + in;
        a.view.input.resize(numel);
        for (int64_t k = 0; k < numel; ++k) {
          uint64_t bits = 0;
          std::memcpy(&bits, &bytes[k * size], size);
          a.view.input[k] = decode(*t, bits);
        }
      }
      if (out != "-") {
        std::string bytes;
        if (!readFile(folder / out, bytes) ||
            int64_t(bytes.size()) != numel * 8)
          return "bad expected file " + out;
        a.view.expected.resize(numel);
        std::memcpy(a.view.expected.data(), bytes.data(), bytes.size());
      }
      c.args.push_back(a);
    } else {
      return "unknown line: " + line;
    }
  }
  return "";
}

Outcome run(rt::Runtime &runtime, const Case &c) {
  Outcome out;
  std::vector<rt::DevicePtr> buffers(c.args.size(), 0);
  std::vector<rt::Arg> args;
  auto release = [&] {
    for (rt::DevicePtr p : buffers)
      if (p)
        (void)runtime.free(p);
  };
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Arg &a = c.args[i];
    if (!a.isView) {
      if (a.scalarType == rt::ScalarType::f32 ||
          a.scalarType == rt::ScalarType::f64)
        args.push_back(a.scalar);
      else
        args.push_back(int64_t(a.scalar));
      continue;
    }
    const ViewData &v = a.view;
    int64_t numel = 1;
    for (int64_t d : v.shape)
      numel *= d;
    int size = rt::scalarTypeSize(v.type);
    size_t bytes = size_t(std::max<int64_t>(numel, 1) * size);
    if (rt::Status st = runtime.alloc(bytes, buffers[i]); !st) {
      out.message = st.message;
      release();
      return out;
    }
    std::vector<unsigned char> host(bytes, 0xff); // poison: NaN everywhere
    for (size_t k = 0; k < v.input.size(); ++k) {
      uint64_t bits = encode(v.type, v.input[k]);
      std::memcpy(&host[k * size], &bits, size);
    }
    if (rt::Status st = runtime.copyToDevice(buffers[i], host.data(), bytes);
        !st) {
      out.message = st.message;
      release();
      return out;
    }
    rt::ViewArg view;
    view.data = buffers[i];
    view.sizes = v.shape;
    view.strides.assign(v.shape.size(), 1);
    for (int d = int(v.shape.size()) - 2; d >= 0; --d)
      view.strides[d] = view.strides[d + 1] * v.shape[d + 1];
    args.push_back(view);
  }
  if (rt::Status st = runtime.launch(c.ptx, c.info, c.grid, args); !st) {
    out.message = st.message;
    release();
    return out;
  }
  out.ok = true;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Arg &a = c.args[i];
    if (!a.isView || a.view.expected.empty())
      continue;
    const ViewData &v = a.view;
    int size = rt::scalarTypeSize(v.type);
    std::vector<unsigned char> host(v.expected.size() * size);
    if (rt::Status st =
            runtime.copyToHost(host.data(), buffers[i], host.size());
        !st) {
      out.ok = false;
      out.message = st.message;
      break;
    }
    double num = 0, den = 0;
    for (size_t k = 0; k < v.expected.size(); ++k) {
      uint64_t bits = 0;
      std::memcpy(&bits, &host[k * size], size);
      double got = decode(v.type, bits), want = v.expected[k];
      if (!std::isfinite(got) && std::isfinite(want)) {
        out.ok = false;
        out.message = "argument " + std::to_string(i) + " element " +
                      std::to_string(k) + " is " + std::to_string(got) +
                      " (unwritten or NaN), expected " + std::to_string(want);
        break;
      }
      num += (got - want) * (got - want);
      den += want * want;
    }
    double err = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
    out.error = std::max(out.error, err);
    if (!out.ok)
      break;
    if (!(err <= c.tolerance)) {
      out.ok = false;
      out.message = "argument " + std::to_string(i) + ": relative L2 error " +
                    std::to_string(err) + " above " +
                    std::to_string(c.tolerance);
      break;
    }
  }
  release();
  return out;
}

} // namespace tessera::gpucase

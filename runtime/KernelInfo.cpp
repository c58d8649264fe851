//===- KernelInfo.cpp - the kernel ABI and its JSON form ------------------===//
//
// A small hand-written JSON writer and parser, enough for the KernelInfo
// schema:
//
//   {"name": "k", "target": "sm_90a", "num_warps": 4, "shared_bytes": 0,
//    "args": [{"name": "x", "kind": "view", "type": "bf16", "rank": 2,
//              "align": 16},
//             {"name": "n", "kind": "scalar", "type": "i32"}],
//    "tma": [{"arg": 0, "box": [128, 64], "swizzle": 128}]}
//
// "tma" is optional (written only when there are tensor maps); each entry
// is checked against "args" with checkTmaInfo.
//
// Parsing is strict: unknown or duplicate keys, unknown kinds and types,
// values of the wrong JSON type or out of range, and malformed JSON are
// errors whose message names the key (args[1].kind) or the position (line,
// column).
//
//===----------------------------------------------------------------------===//

#include "runtime/KernelInfo.h"
#include "runtime/Json.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>

namespace tessera::rt {

//===----------------------------------------------------------------------===//
// Scalar types
//===----------------------------------------------------------------------===//

namespace {
struct TypeEntry {
  ScalarType type;
  const char *name;
  int size;
};
constexpr TypeEntry kTypes[] = {
    {ScalarType::f16, "f16", 2}, {ScalarType::bf16, "bf16", 2},
    {ScalarType::f32, "f32", 4}, {ScalarType::f64, "f64", 8},
    {ScalarType::i1, "i1", 1},   {ScalarType::i8, "i8", 1},
    {ScalarType::i16, "i16", 2}, {ScalarType::i32, "i32", 4},
    {ScalarType::i64, "i64", 8}, {ScalarType::index, "index", 8},
};
} // namespace

const char *scalarTypeName(ScalarType type) {
  for (const TypeEntry &e : kTypes)
    if (e.type == type)
      return e.name;
  return "<invalid type>";
}

std::optional<ScalarType> parseScalarType(const std::string &name) {
  for (const TypeEntry &e : kTypes)
    if (name == e.name)
      return e.type;
  return std::nullopt;
}

int scalarTypeSize(ScalarType type) {
  for (const TypeEntry &e : kTypes)
    if (e.type == type)
      return e.size;
  return 0;
}

int KernelInfo::numParams() const {
  int n = 0;
  for (const ArgInfo &arg : args)
    n += arg.kind == ArgInfo::Kind::View ? 1 + 2 * arg.rank : 1;
  return n + static_cast<int>(tma.size());
}

std::string checkTmaInfo(const TmaInfo &tma, const std::vector<ArgInfo> &args,
                         std::string *field) {
  auto fail = [&](const std::string &where, const std::string &what) {
    if (field)
      *field = where;
    return what;
  };
  if (tma.arg < 0 || static_cast<size_t>(tma.arg) >= args.size())
    return fail("arg", "argument index " + std::to_string(tma.arg) +
                           " is out of range (the kernel has " +
                           std::to_string(args.size()) + " arguments)");
  const ArgInfo &arg = args[tma.arg];
  std::string which =
      "argument " + std::to_string(tma.arg) + " '" + arg.name + "'";
  if (arg.kind != ArgInfo::Kind::View)
    return fail("arg", which + " is a scalar; tensor maps describe views");
  if (arg.rank < 1 || arg.rank > kMaxTmaRank)
    return fail("arg", which + " is a rank-" + std::to_string(arg.rank) +
                           " view; tensor maps describe views of rank 1 to " +
                           std::to_string(kMaxTmaRank));
  switch (arg.type) {
  case ScalarType::f16:
  case ScalarType::bf16:
  case ScalarType::f32:
  case ScalarType::f64:
  case ScalarType::i8:
  case ScalarType::i16:
  case ScalarType::i32:
  case ScalarType::i64:
    break;
  default:
    return fail("arg", which + " has element type " + scalarTypeName(arg.type) +
                           ", which tensor maps do not support (f16, bf16, "
                           "f32, f64, i8, i16, i32 or i64)");
  }
  if (tma.box.size() != static_cast<size_t>(arg.rank))
    return fail("box", "the box has " + std::to_string(tma.box.size()) +
                           " dimensions, but " + which + " has rank " +
                           std::to_string(arg.rank));
  for (size_t d = 0; d < tma.box.size(); ++d)
    if (tma.box[d] < 1 || tma.box[d] > kMaxTmaBoxDim)
      return fail("box[" + std::to_string(d) + "]",
                  "box dimension " + std::to_string(tma.box[d]) +
                      " is out of range [1, " + std::to_string(kMaxTmaBoxDim) +
                      "]");
  if (tma.swizzle != 0 && tma.swizzle != 32 && tma.swizzle != 64 &&
      tma.swizzle != 128)
    return fail("swizzle", "swizzle " + std::to_string(tma.swizzle) +
                               " is not 0, 32, 64 or 128 (bytes)");
  // The driver's rules for the contiguous (last) box dimension.
  size_t inner = tma.box.size() - 1;
  int64_t innerBytes = tma.box[inner] * scalarTypeSize(arg.type);
  std::string innerText =
      "the box's innermost dimension (box[" + std::to_string(inner) +
      "] = " + std::to_string(tma.box[inner]) + " " + scalarTypeName(arg.type) +
      ") is " + std::to_string(innerBytes) + " bytes";
  if (innerBytes % 16 != 0)
    return fail("box[" + std::to_string(inner) + "]",
                innerText + ", not a multiple of 16");
  if (tma.swizzle != 0 && innerBytes > tma.swizzle)
    return fail("box[" + std::to_string(inner) + "]",
                innerText + ", more than the " + std::to_string(tma.swizzle) +
                    "-byte swizzle span");
  return "";
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

std::string toJson(const KernelInfo &info) {
  std::string out = "{\"name\": ";
  json::writeString(out, info.name);
  out += ", \"target\": ";
  json::writeString(out, info.target);
  out += ", \"num_warps\": " + std::to_string(info.numWarps);
  out += ", \"shared_bytes\": " + std::to_string(info.sharedBytes);
  out += ",\n \"args\": [";
  for (size_t i = 0; i < info.args.size(); ++i) {
    const ArgInfo &arg = info.args[i];
    out += i ? ",\n  {" : "\n  {";
    out += "\"name\": ";
    json::writeString(out, arg.name);
    bool view = arg.kind == ArgInfo::Kind::View;
    out += view ? ", \"kind\": \"view\"" : ", \"kind\": \"scalar\"";
    out += ", \"type\": ";
    json::writeString(out, scalarTypeName(arg.type));
    if (view) {
      out += ", \"rank\": " + std::to_string(arg.rank);
      out += ", \"align\": " + std::to_string(arg.align);
      if (arg.written)
        out += ", \"written\": true";
    }
    out += "}";
  }
  out += info.args.empty() ? "]" : "\n ]";
  if (!info.tma.empty()) {
    out += ",\n \"tma\": [";
    for (size_t i = 0; i < info.tma.size(); ++i) {
      const TmaInfo &t = info.tma[i];
      out += i ? ",\n  {" : "\n  {";
      out += "\"arg\": " + std::to_string(t.arg) + ", \"box\": [";
      for (size_t d = 0; d < t.box.size(); ++d)
        out += (d ? ", " : "") + std::to_string(t.box[d]);
      out += "], \"swizzle\": " + std::to_string(t.swizzle) + "}";
    }
    out += "\n ]";
  }
  out += "}\n";
  return out;
}

//===----------------------------------------------------------------------===//
// Parser: JSON text -> a small value tree -> KernelInfo
//===----------------------------------------------------------------------===//

namespace {

/// Maps the value tree onto KernelInfo, naming the key of every problem.
class SchemaReader {
public:
  explicit SchemaReader(const std::string &text) : text_(text) {}

  bool read(const json::Value &root, KernelInfo &info) {
    if (root.type != json::Value::Type::Object)
      return fail("", root,
                  std::string("expected a JSON object, found ") +
                      json::typeName(root.type));
    bool haveName = false, haveArgs = false;
    const json::Value *tma = nullptr; // read last: it refers to "args"
    for (const auto &[key, value] : root.object) {
      if (key == "name") {
        if (!getString(key, value, info.name))
          return false;
        if (info.name.empty())
          return fail(key, value, "the kernel name is empty");
        haveName = true;
      } else if (key == "target") {
        if (!getString(key, value, info.target))
          return false;
      } else if (key == "num_warps") {
        if (!getInt(key, value, 1, 32, info.numWarps))
          return false;
      } else if (key == "shared_bytes") {
        if (!getInt(key, value, 0, std::numeric_limits<int>::max(),
                    info.sharedBytes))
          return false;
      } else if (key == "args") {
        if (!readArgs(value, info.args))
          return false;
        haveArgs = true;
      } else if (key == "tma") {
        tma = &value;
      } else {
        return fail(key, value,
                    "unknown key (expected name, target, num_warps, "
                    "shared_bytes, args, tma)");
      }
    }
    if (!haveName)
      return fail("", root, "missing key \"name\"");
    if (!haveArgs)
      return fail("", root, "missing key \"args\"");
    if (tma && !readTmas(*tma, info.args, info.tma))
      return false;
    return true;
  }

  const std::string &error() const { return error_; }

private:
  bool fail(const std::string &key, const json::Value &at,
            const std::string &what) {
    error_ = "KernelInfo JSON";
    if (!key.empty())
      error_ += ", key \"" + key + "\"";
    error_ += " (" + json::where(text_, at.offset) + "): " + what;
    return false;
  }

  bool getString(const std::string &key, const json::Value &value,
                 std::string &out) {
    if (value.type != json::Value::Type::String)
      return fail(key, value,
                  std::string("expected a string, found ") +
                      json::typeName(value.type));
    out = value.string;
    return true;
  }

  bool getInt(const std::string &key, const json::Value &value, int64_t min,
              int64_t max, int &out) {
    if (value.type != json::Value::Type::Number)
      return fail(key, value,
                  std::string("expected an integer, found ") +
                      json::typeName(value.type));
    if (!value.isInteger)
      return fail(key, value, "expected an integer, found " + value.string);
    if (value.integer < min || value.integer > max)
      return fail(key, value,
                  value.string + " is out of range [" + std::to_string(min) +
                      ", " + std::to_string(max) + "]");
    out = static_cast<int>(value.integer);
    return true;
  }

  bool readArgs(const json::Value &value, std::vector<ArgInfo> &args) {
    if (value.type != json::Value::Type::Array)
      return fail("args", value,
                  std::string("expected an array, found ") +
                      json::typeName(value.type));
    args.clear();
    for (size_t i = 0; i < value.array.size(); ++i) {
      ArgInfo arg;
      if (!readArg(value.array[i], "args[" + std::to_string(i) + "]", arg))
        return false;
      args.push_back(std::move(arg));
    }
    return true;
  }

  bool readArg(const json::Value &value, const std::string &path,
               ArgInfo &arg) {
    if (value.type != json::Value::Type::Object)
      return fail(path, value,
                  std::string("expected an object, found ") +
                      json::typeName(value.type));
    const json::Value *name = nullptr, *kind = nullptr, *type = nullptr,
                      *rank = nullptr, *align = nullptr, *written = nullptr;
    for (const auto &[key, member] : value.object) {
      if (key == "name")
        name = &member;
      else if (key == "kind")
        kind = &member;
      else if (key == "type")
        type = &member;
      else if (key == "rank")
        rank = &member;
      else if (key == "align")
        align = &member;
      else if (key == "written")
        written = &member;
      else
        return fail(path + "." + key, member,
                    "unknown key (expected name, kind, type, rank, align, "
                    "written)");
    }
    if (!name)
      return fail(path, value, "missing key \"name\"");
    if (!kind)
      return fail(path, value, "missing key \"kind\"");
    if (!type)
      return fail(path, value, "missing key \"type\"");
    if (!getString(path + ".name", *name, arg.name))
      return false;

    std::string kindName, typeText;
    if (!getString(path + ".kind", *kind, kindName))
      return false;
    if (kindName == "view")
      arg.kind = ArgInfo::Kind::View;
    else if (kindName == "scalar")
      arg.kind = ArgInfo::Kind::Scalar;
    else
      return fail(path + ".kind", *kind,
                  "unknown kind \"" + kindName +
                      "\" (expected \"view\" or \"scalar\")");

    if (!getString(path + ".type", *type, typeText))
      return false;
    std::optional<ScalarType> parsed = parseScalarType(typeText);
    if (!parsed)
      return fail(path + ".type", *type,
                  "unknown type \"" + typeText +
                      "\" (expected f16, bf16, f32, f64, i1, i8, i16, i32, "
                      "i64 or index)");
    arg.type = *parsed;

    if (arg.kind == ArgInfo::Kind::View) {
      if (!rank)
        return fail(path, value, "missing key \"rank\" (views need one)");
      if (!getInt(path + ".rank", *rank, 0, 64, arg.rank))
        return false;
      if (align) {
        if (!getInt(path + ".align", *align, 1, 1 << 20, arg.align))
          return false;
        if (arg.align & (arg.align - 1))
          return fail(path + ".align", *align,
                      std::to_string(arg.align) + " is not a power of two");
      }
      if (written) {
        if (written->type != json::Value::Type::Bool)
          return fail(path + ".written", *written,
                      std::string("expected true or false, found ") +
                          json::typeName(written->type));
        arg.written = written->boolean;
      }
    } else {
      // Scalars: no rank (0 tolerated), no pointer alignment.
      if (rank) {
        int r = 0;
        if (!getInt(path + ".rank", *rank, 0, 0, r))
          return false;
      }
      if (align)
        return fail(path + ".align", *align, "scalars take no \"align\"");
      if (written)
        return fail(path + ".written", *written, "scalars take no \"written\"");
      switch (arg.type) {
      case ScalarType::index:
      case ScalarType::i64:
      case ScalarType::i32:
      case ScalarType::f32:
      case ScalarType::f64:
        break;
      default:
        return fail(path + ".type", *type,
                    "scalar arguments of type " + typeText +
                        " are not part of the kernel ABI (index, i64, i32, "
                        "f32 or f64)");
      }
    }
    return true;
  }

  bool readTmas(const json::Value &value, const std::vector<ArgInfo> &args,
                std::vector<TmaInfo> &tmas) {
    if (value.type != json::Value::Type::Array)
      return fail("tma", value,
                  std::string("expected an array, found ") +
                      json::typeName(value.type));
    tmas.clear();
    for (size_t i = 0; i < value.array.size(); ++i) {
      TmaInfo tma;
      if (!readTma(value.array[i], "tma[" + std::to_string(i) + "]", args, tma))
        return false;
      tmas.push_back(std::move(tma));
    }
    return true;
  }

  bool readTma(const json::Value &value, const std::string &path,
               const std::vector<ArgInfo> &args, TmaInfo &tma) {
    if (value.type != json::Value::Type::Object)
      return fail(path, value,
                  std::string("expected an object, found ") +
                      json::typeName(value.type));
    const json::Value *arg = nullptr, *box = nullptr, *swizzle = nullptr;
    for (const auto &[key, member] : value.object) {
      if (key == "arg")
        arg = &member;
      else if (key == "box")
        box = &member;
      else if (key == "swizzle")
        swizzle = &member;
      else
        return fail(path + "." + key, member,
                    "unknown key (expected arg, box, swizzle)");
    }
    if (!arg)
      return fail(path, value, "missing key \"arg\"");
    if (!box)
      return fail(path, value, "missing key \"box\"");
    if (!getInt(path + ".arg", *arg, 0, std::numeric_limits<int>::max(),
                tma.arg))
      return false;
    if (box->type != json::Value::Type::Array)
      return fail(path + ".box", *box,
                  std::string("expected an array, found ") +
                      json::typeName(box->type));
    for (size_t d = 0; d < box->array.size(); ++d) {
      int dim = 0;
      if (!getInt(path + ".box[" + std::to_string(d) + "]", box->array[d], 1,
                  kMaxTmaBoxDim, dim))
        return false;
      tma.box.push_back(dim);
    }
    if (swizzle && !getInt(path + ".swizzle", *swizzle, 0, 128, tma.swizzle))
      return false;

    std::string field;
    std::string problem = checkTmaInfo(tma, args, &field);
    if (problem.empty())
      return true;
    const json::Value *at = &value;
    if (field == "arg")
      at = arg;
    else if (field == "box")
      at = box;
    else if (field == "swizzle" && swizzle)
      at = swizzle;
    else if (field.rfind("box[", 0) == 0) {
      size_t d = std::strtoul(field.c_str() + 4, nullptr, 10);
      at = d < box->array.size() ? &box->array[d] : box;
    }
    return fail(path + "." + field, *at, problem);
  }

  const std::string &text_;
  std::string error_;
};

} // namespace

std::optional<KernelInfo> fromJson(const std::string &json,
                                   std::string *error) {
  json::Value root;
  std::string problem;
  if (!json::parse(json, root, problem)) {
    if (error)
      *error = "KernelInfo JSON: " + problem;
    return std::nullopt;
  }
  KernelInfo info;
  SchemaReader reader(json);
  if (!reader.read(root, info)) {
    if (error)
      *error = reader.error();
    return std::nullopt;
  }
  if (error)
    error->clear();
  return info;
}

} // namespace tessera::rt

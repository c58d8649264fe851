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

namespace {
void writeString(std::string &out, const std::string &s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
}
} // namespace

std::string toJson(const KernelInfo &info) {
  std::string out = "{\"name\": ";
  writeString(out, info.name);
  out += ", \"target\": ";
  writeString(out, info.target);
  out += ", \"num_warps\": " + std::to_string(info.numWarps);
  out += ", \"shared_bytes\": " + std::to_string(info.sharedBytes);
  out += ",\n \"args\": [";
  for (size_t i = 0; i < info.args.size(); ++i) {
    const ArgInfo &arg = info.args[i];
    out += i ? ",\n  {" : "\n  {";
    out += "\"name\": ";
    writeString(out, arg.name);
    bool view = arg.kind == ArgInfo::Kind::View;
    out += view ? ", \"kind\": \"view\"" : ", \"kind\": \"scalar\"";
    out += ", \"type\": ";
    writeString(out, scalarTypeName(arg.type));
    if (view) {
      out += ", \"rank\": " + std::to_string(arg.rank);
      out += ", \"align\": " + std::to_string(arg.align);
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

struct JValue {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  bool isInteger = false; // no fraction or exponent, and fits int64
  int64_t integer = 0;
  double number = 0;
  std::string string; // String; the literal text for Number
  std::vector<JValue> array;
  std::vector<std::pair<std::string, JValue>> object;
  size_t offset = 0; // where the value starts in the text
};

const char *typeName(JValue::Type t) {
  switch (t) {
  case JValue::Type::Null:
    return "null";
  case JValue::Type::Bool:
    return "a boolean";
  case JValue::Type::Number:
    return "a number";
  case JValue::Type::String:
    return "a string";
  case JValue::Type::Array:
    return "an array";
  case JValue::Type::Object:
    return "an object";
  }
  return "?";
}

class JsonParser {
public:
  explicit JsonParser(const std::string &text) : text_(text) {}

  bool parseDocument(JValue &out) {
    skipSpace();
    if (!parseValue(out, 0))
      return false;
    skipSpace();
    if (pos_ != text_.size())
      return fail("unexpected text after the JSON value: " + describeNext());
    return true;
  }

  const std::string &error() const { return error_; }

  /// "line L, column C" of a byte offset.
  std::string where(size_t offset) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return "line " + std::to_string(line) + ", column " +
           std::to_string(column);
  }

private:
  static constexpr int kMaxDepth = 64;

  bool fail(const std::string &what) { return failAt(pos_, what); }
  bool failAt(size_t offset, const std::string &what) {
    if (error_.empty())
      error_ = "malformed JSON at " + where(offset) + ": " + what;
    return false;
  }

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }

  void skipSpace() {
    while (!atEnd() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                        text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  std::string describeNext() const {
    if (atEnd())
      return "end of input";
    unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c < 0x20 || c >= 0x7f) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
      return buf;
    }
    return std::string("'") + static_cast<char>(c) + "'";
  }

  bool expectLiteral(const char *literal) {
    size_t start = pos_;
    for (const char *p = literal; *p; ++p, ++pos_)
      if (atEnd() || text_[pos_] != *p)
        return failAt(start, std::string("invalid literal (expected '") +
                                 literal + "')");
    return true;
  }

  bool parseValue(JValue &out, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth));
    out.offset = pos_;
    char c = peek();
    switch (c) {
    case '{':
      return parseObject(out, depth);
    case '[':
      return parseArray(out, depth);
    case '"':
      out.type = JValue::Type::String;
      return parseString(out.string);
    case 't':
      out.type = JValue::Type::Bool;
      out.boolean = true;
      return expectLiteral("true");
    case 'f':
      out.type = JValue::Type::Bool;
      out.boolean = false;
      return expectLiteral("false");
    case 'n':
      out.type = JValue::Type::Null;
      return expectLiteral("null");
    default:
      if (c == '-' || (c >= '0' && c <= '9'))
        return parseNumber(out);
      return fail("expected a value, found " + describeNext());
    }
  }

  bool parseObject(JValue &out, int depth) {
    out.type = JValue::Type::Object;
    ++pos_; // '{'
    skipSpace();
    if (peek() == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skipSpace();
      if (peek() != '"')
        return fail("expected a string key, found " + describeNext());
      size_t keyOffset = pos_;
      std::string key;
      if (!parseString(key))
        return false;
      for (const auto &member : out.object)
        if (member.first == key)
          return failAt(keyOffset, "duplicate key \"" + key + "\"");
      skipSpace();
      if (peek() != ':')
        return fail("expected ':' after key \"" + key + "\", found " +
                    describeNext());
      ++pos_;
      skipSpace();
      JValue value;
      if (!parseValue(value, depth + 1))
        return false;
      out.object.emplace_back(std::move(key), std::move(value));
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or '}' in object, found " + describeNext());
    }
  }

  bool parseArray(JValue &out, int depth) {
    out.type = JValue::Type::Array;
    ++pos_; // '['
    skipSpace();
    if (peek() == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      skipSpace();
      JValue value;
      if (!parseValue(value, depth + 1))
        return false;
      out.array.push_back(std::move(value));
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or ']' in array, found " + describeNext());
    }
  }

  static void appendUtf8(std::string &out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }

  bool parseHex4(uint32_t &out) {
    out = 0;
    for (int i = 0; i < 4; ++i, ++pos_) {
      char c = peek();
      out <<= 4;
      if (c >= '0' && c <= '9')
        out |= c - '0';
      else if (c >= 'a' && c <= 'f')
        out |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        out |= c - 'A' + 10;
      else
        return fail("invalid \\u escape (expected 4 hex digits)");
    }
    return true;
  }

  bool parseString(std::string &out) {
    size_t start = pos_;
    ++pos_; // '"'
    while (true) {
      if (atEnd())
        return failAt(start, "unterminated string");
      unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20)
        return fail("control character in string (escape it)");
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos_;
        continue;
      }
      ++pos_;
      char e = peek();
      ++pos_;
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xd800 && cp < 0xdc00) {
          uint32_t low;
          if (peek() != '\\' || pos_ + 1 >= text_.size() ||
              text_[pos_ + 1] != 'u')
            return fail("unpaired UTF-16 surrogate in \\u escape");
          pos_ += 2;
          if (!parseHex4(low))
            return false;
          if (low < 0xdc00 || low >= 0xe000)
            return fail("unpaired UTF-16 surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        } else if (cp >= 0xdc00 && cp < 0xe000) {
          return fail("unpaired UTF-16 surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos_;
        return fail(
            "invalid escape in string: \\" +
            (atEnd() ? std::string("<end of input>") : std::string(1, e)));
      }
    }
  }

  bool parseNumber(JValue &out) {
    out.type = JValue::Type::Number;
    size_t start = pos_;
    auto digits = [&] {
      size_t n = 0;
      while (!atEnd() && text_[pos_] >= '0' && text_[pos_] <= '9')
        ++pos_, ++n;
      return n;
    };
    bool integral = true;
    if (peek() == '-')
      ++pos_;
    if (peek() == '0') {
      ++pos_;
      if (peek() >= '0' && peek() <= '9')
        return failAt(start, "invalid number (leading zero)");
    } else if (digits() == 0) {
      return failAt(start, "invalid number (expected a digit)");
    }
    if (peek() == '.') {
      integral = false;
      ++pos_;
      if (digits() == 0)
        return fail("invalid number (expected a digit after '.')");
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      ++pos_;
      if (peek() == '+' || peek() == '-')
        ++pos_;
      if (digits() == 0)
        return fail("invalid number (expected a digit in the exponent)");
    }
    out.string = text_.substr(start, pos_ - start);
    out.number = std::strtod(out.string.c_str(), nullptr);
    if (integral) {
      // Exact int64 parse; anything outside int64 stays a plain number.
      bool negative = out.string[0] == '-';
      uint64_t magnitude = 0;
      bool overflow = false;
      for (size_t i = negative ? 1 : 0; i < out.string.size(); ++i) {
        unsigned d = out.string[i] - '0';
        if (magnitude > (std::numeric_limits<uint64_t>::max() - d) / 10) {
          overflow = true;
          break;
        }
        magnitude = magnitude * 10 + d;
      }
      uint64_t limit = negative ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
      if (!overflow && magnitude <= limit) {
        out.isInteger = true;
        out.integer = negative ? static_cast<int64_t>(0 - magnitude)
                               : static_cast<int64_t>(magnitude);
      }
    }
    return true;
  }

  const std::string &text_;
  size_t pos_ = 0;
  std::string error_;
};

/// Maps the value tree onto KernelInfo, naming the key of every problem.
class SchemaReader {
public:
  explicit SchemaReader(const JsonParser &parser) : parser_(parser) {}

  bool read(const JValue &root, KernelInfo &info) {
    if (root.type != JValue::Type::Object)
      return fail("", root,
                  std::string("expected a JSON object, found ") +
                      typeName(root.type));
    bool haveName = false, haveArgs = false;
    const JValue *tma = nullptr; // read last: it refers to "args"
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
  bool fail(const std::string &key, const JValue &at, const std::string &what) {
    error_ = "KernelInfo JSON";
    if (!key.empty())
      error_ += ", key \"" + key + "\"";
    error_ += " (" + parser_.where(at.offset) + "): " + what;
    return false;
  }

  bool getString(const std::string &key, const JValue &value,
                 std::string &out) {
    if (value.type != JValue::Type::String)
      return fail(key, value,
                  std::string("expected a string, found ") +
                      typeName(value.type));
    out = value.string;
    return true;
  }

  bool getInt(const std::string &key, const JValue &value, int64_t min,
              int64_t max, int &out) {
    if (value.type != JValue::Type::Number)
      return fail(key, value,
                  std::string("expected an integer, found ") +
                      typeName(value.type));
    if (!value.isInteger)
      return fail(key, value, "expected an integer, found " + value.string);
    if (value.integer < min || value.integer > max)
      return fail(key, value,
                  value.string + " is out of range [" + std::to_string(min) +
                      ", " + std::to_string(max) + "]");
    out = static_cast<int>(value.integer);
    return true;
  }

  bool readArgs(const JValue &value, std::vector<ArgInfo> &args) {
    if (value.type != JValue::Type::Array)
      return fail("args", value,
                  std::string("expected an array, found ") +
                      typeName(value.type));
    args.clear();
    for (size_t i = 0; i < value.array.size(); ++i) {
      ArgInfo arg;
      if (!readArg(value.array[i], "args[" + std::to_string(i) + "]", arg))
        return false;
      args.push_back(std::move(arg));
    }
    return true;
  }

  bool readArg(const JValue &value, const std::string &path, ArgInfo &arg) {
    if (value.type != JValue::Type::Object)
      return fail(path, value,
                  std::string("expected an object, found ") +
                      typeName(value.type));
    const JValue *name = nullptr, *kind = nullptr, *type = nullptr,
                 *rank = nullptr, *align = nullptr;
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
      else
        return fail(path + "." + key, member,
                    "unknown key (expected name, kind, type, rank, align)");
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
    } else {
      // Scalars: no rank (0 tolerated), no pointer alignment.
      if (rank) {
        int r = 0;
        if (!getInt(path + ".rank", *rank, 0, 0, r))
          return false;
      }
      if (align)
        return fail(path + ".align", *align, "scalars take no \"align\"");
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

  bool readTmas(const JValue &value, const std::vector<ArgInfo> &args,
                std::vector<TmaInfo> &tmas) {
    if (value.type != JValue::Type::Array)
      return fail("tma", value,
                  std::string("expected an array, found ") +
                      typeName(value.type));
    tmas.clear();
    for (size_t i = 0; i < value.array.size(); ++i) {
      TmaInfo tma;
      if (!readTma(value.array[i], "tma[" + std::to_string(i) + "]", args, tma))
        return false;
      tmas.push_back(std::move(tma));
    }
    return true;
  }

  bool readTma(const JValue &value, const std::string &path,
               const std::vector<ArgInfo> &args, TmaInfo &tma) {
    if (value.type != JValue::Type::Object)
      return fail(path, value,
                  std::string("expected an object, found ") +
                      typeName(value.type));
    const JValue *arg = nullptr, *box = nullptr, *swizzle = nullptr;
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
    if (box->type != JValue::Type::Array)
      return fail(path + ".box", *box,
                  std::string("expected an array, found ") +
                      typeName(box->type));
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
    const JValue *at = &value;
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

  const JsonParser &parser_;
  std::string error_;
};

} // namespace

std::optional<KernelInfo> fromJson(const std::string &json,
                                   std::string *error) {
  JsonParser parser(json);
  JValue root;
  if (!parser.parseDocument(root)) {
    if (error)
      *error = "KernelInfo JSON: " + parser.error();
    return std::nullopt;
  }
  KernelInfo info;
  SchemaReader reader(parser);
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

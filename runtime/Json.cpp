//===- Json.cpp - the small JSON reader and writer of the runtime
//----------===//

#include "runtime/Json.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace tessera::rt::json {

const char *typeName(Value::Type t) {
  switch (t) {
  case Value::Type::Null:
    return "null";
  case Value::Type::Bool:
    return "a boolean";
  case Value::Type::Number:
    return "a number";
  case Value::Type::String:
    return "a string";
  case Value::Type::Array:
    return "an array";
  case Value::Type::Object:
    return "an object";
  }
  return "?";
}

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

namespace {

class Parser {
public:
  explicit Parser(const std::string &text) : text_(text) {}

  bool parseDocument(Value &out) {
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

  bool parseValue(Value &out, int depth) {
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
      out.type = Value::Type::String;
      return parseString(out.string);
    case 't':
      out.type = Value::Type::Bool;
      out.boolean = true;
      return expectLiteral("true");
    case 'f':
      out.type = Value::Type::Bool;
      out.boolean = false;
      return expectLiteral("false");
    case 'n':
      out.type = Value::Type::Null;
      return expectLiteral("null");
    default:
      if (c == '-' || (c >= '0' && c <= '9'))
        return parseNumber(out);
      return fail("expected a value, found " + describeNext());
    }
  }

  bool parseObject(Value &out, int depth) {
    out.type = Value::Type::Object;
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
      Value value;
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

  bool parseArray(Value &out, int depth) {
    out.type = Value::Type::Array;
    ++pos_; // '['
    skipSpace();
    if (peek() == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      skipSpace();
      Value value;
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

  bool parseNumber(Value &out) {
    out.type = Value::Type::Number;
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

} // namespace

bool parse(const std::string &text, Value &out, std::string &error) {
  Parser parser(text);
  if (parser.parseDocument(out))
    return true;
  error = parser.error();
  return false;
}

std::string where(const std::string &text, size_t offset) {
  return Parser(text).where(offset);
}

} // namespace tessera::rt::json

//===- Json.h - the small JSON reader and writer of the runtime -*- C++ -*-===//
//
// Kernel descriptions (KernelInfo) and the autotuner's cache are JSON; this
// is their one reader (a value tree with byte offsets, so that messages
// point at the problem) and string writer. No dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_RUNTIME_JSON_H
#define TESSERA_RUNTIME_JSON_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::rt::json {

struct Value {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  bool isInteger = false; // no fraction or exponent, and fits int64
  int64_t integer = 0;
  double number = 0;
  std::string string; // String; the literal text for Number
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;
  size_t offset = 0; // where the value starts in the text
};

/// "null", "a boolean", "a number", "a string", "an array", "an object".
const char *typeName(Value::Type type);

/// Appends `s` as a JSON string literal, quoted and escaped.
void writeString(std::string &out, const std::string &s);

/// Parses all of `text` as one JSON value; on failure false, with what is
/// wrong and where in `error`.
bool parse(const std::string &text, Value &out, std::string &error);

/// "line L, column C" of a byte offset of `text`.
std::string where(const std::string &text, size_t offset);

} // namespace tessera::rt::json

#endif // TESSERA_RUNTIME_JSON_H

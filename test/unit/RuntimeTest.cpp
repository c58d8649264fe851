//===- RuntimeTest.cpp - the runtime's host logic, without a GPU ----------===//
//
// KernelInfo JSON, argument packing, launch limits and cache keys need no
// driver. The driver paths run against test/unit/FakeCuda.cpp, a fake
// libcuda loaded through TESSERA_LIBCUDA exactly as the real one is, and
// against no driver at all (this build machine has no libcuda.so.1; on a
// GPU machine the real driver is accepted instead).
//
//===----------------------------------------------------------------------===//

#include "runtime/KernelInfo.h"
#include "runtime/Ptx.h"
#include "runtime/Runtime.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tessera::rt;

namespace {

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "  message: " << (haystack) << "\n  expected to contain: " << (needle)

/// Sets (or unsets, for nullptr) an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> old_;
};

ArgInfo view(const std::string &name, ScalarType type, int rank,
             int align = 16) {
  ArgInfo a;
  a.name = name;
  a.kind = ArgInfo::Kind::View;
  a.type = type;
  a.rank = rank;
  a.align = align;
  return a;
}

ArgInfo scalar(const std::string &name, ScalarType type) {
  ArgInfo a;
  a.name = name;
  a.kind = ArgInfo::Kind::Scalar;
  a.type = type;
  return a;
}

ViewArg viewArg(DevicePtr data, std::vector<int64_t> sizes,
                std::vector<int64_t> strides) {
  ViewArg v;
  v.data = data;
  v.sizes = std::move(sizes);
  v.strides = std::move(strides);
  return v;
}

template <typename T> T slotAs(const std::array<unsigned char, 8> &slot) {
  T value;
  std::memcpy(&value, slot.data(), sizeof(T));
  return value;
}

//===----------------------------------------------------------------------===//
// KernelInfo
//===----------------------------------------------------------------------===//

TEST(KernelInfoTest, ScalarTypeNamesAndSizes) {
  const std::pair<ScalarType, int> all[] = {
      {ScalarType::f16, 2}, {ScalarType::bf16, 2}, {ScalarType::f32, 4},
      {ScalarType::f64, 8}, {ScalarType::i1, 1},   {ScalarType::i8, 1},
      {ScalarType::i16, 2}, {ScalarType::i32, 4},  {ScalarType::i64, 8},
      {ScalarType::index, 8}};
  for (auto [type, size] : all) {
    std::optional<ScalarType> back = parseScalarType(scalarTypeName(type));
    ASSERT_TRUE(back.has_value()) << scalarTypeName(type);
    EXPECT_EQ(*back, type);
    EXPECT_EQ(scalarTypeSize(type), size) << scalarTypeName(type);
  }
  EXPECT_STREQ(scalarTypeName(ScalarType::bf16), "bf16");
  EXPECT_STREQ(scalarTypeName(ScalarType::index), "index");
  EXPECT_FALSE(parseScalarType("f8").has_value());
  EXPECT_FALSE(parseScalarType("").has_value());
  EXPECT_FALSE(parseScalarType("BF16").has_value());
  // An out-of-range enum value does not crash.
  EXPECT_EQ(scalarTypeSize(static_cast<ScalarType>(99)), 0);
  EXPECT_NE(scalarTypeName(static_cast<ScalarType>(99)), nullptr);
}

TEST(KernelInfoTest, NumParams) {
  KernelInfo info;
  EXPECT_EQ(info.numParams(), 0);
  info.args = {view("a", ScalarType::bf16, 2), scalar("n", ScalarType::i32),
               view("b", ScalarType::f32, 0), view("c", ScalarType::f32, 3),
               scalar("s", ScalarType::f32)};
  EXPECT_EQ(info.numParams(), 5 + 1 + 1 + 7 + 1);
}

KernelInfo sampleInfo() {
  KernelInfo info;
  info.name = "gemm_bf16_128x128";
  info.target = "sm_90a";
  info.numWarps = 8;
  info.sharedBytes = 196608;
  info.args = {view("a", ScalarType::bf16, 2, 16),
               view("b", ScalarType::f16, 3, 128),
               view("c", ScalarType::f64, 0, 8),
               view("mask", ScalarType::i1, 1, 1),
               view("i8s", ScalarType::i8, 1, 4),
               view("i16s", ScalarType::i16, 1, 2),
               view("idx", ScalarType::index, 1),
               view("w", ScalarType::i32, 2),
               view("l", ScalarType::i64, 1),
               scalar("m", ScalarType::index),
               scalar("k", ScalarType::i64),
               scalar("n", ScalarType::i32),
               scalar("alpha", ScalarType::f32),
               scalar("beta", ScalarType::f64)};
  return info;
}

void expectSameInfo(const KernelInfo &a, const KernelInfo &b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.target, b.target);
  EXPECT_EQ(a.numWarps, b.numWarps);
  EXPECT_EQ(a.sharedBytes, b.sharedBytes);
  ASSERT_EQ(a.args.size(), b.args.size());
  for (size_t i = 0; i < a.args.size(); ++i) {
    SCOPED_TRACE("argument " + std::to_string(i));
    EXPECT_EQ(a.args[i].name, b.args[i].name);
    EXPECT_EQ(a.args[i].kind, b.args[i].kind);
    EXPECT_EQ(a.args[i].type, b.args[i].type);
    EXPECT_EQ(a.args[i].rank, b.args[i].rank);
    if (a.args[i].kind == ArgInfo::Kind::View) {
      EXPECT_EQ(a.args[i].align, b.args[i].align);
    }
  }
}

TEST(KernelInfoTest, JsonRoundTrip) {
  KernelInfo info = sampleInfo();
  std::string json = toJson(info);
  std::string error = "stale";
  std::optional<KernelInfo> back = fromJson(json, &error);
  ASSERT_TRUE(back.has_value()) << error << "\n" << json;
  EXPECT_EQ(error, "");
  expectSameInfo(info, *back);
  EXPECT_EQ(toJson(*back), json);
  EXPECT_EQ(back->numParams(), info.numParams());
}

TEST(KernelInfoTest, JsonRoundTripOfOddNames) {
  KernelInfo info;
  info.name = "k\"quoted\"\\back\nline\ttab\x01\x1f";
  info.target = "sm_80";
  info.args = {scalar("\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80", ScalarType::i32)};
  std::string json = toJson(info);
  EXPECT_CONTAINS(json, "\\u0001");
  std::string error;
  std::optional<KernelInfo> back = fromJson(json, &error);
  ASSERT_TRUE(back.has_value()) << error;
  expectSameInfo(info, *back);
}

TEST(KernelInfoTest, JsonRoundTripOfNoArgs) {
  KernelInfo info;
  info.name = "empty";
  std::optional<KernelInfo> back = fromJson(toJson(info));
  ASSERT_TRUE(back.has_value());
  expectSameInfo(info, *back);
}

TEST(KernelInfoTest, JsonHandWritten) {
  std::string json = R"(
    { "args" : [ {"type":"f32","rank":1,"kind":"view","name":"x"},
                 {"kind":"scalar","name":"n","type":"index","rank":0} ],
      "name" : "k\u00e9\ud83d\ude00\/",
      "shared_bytes":0, "num_warps" : 1 }  )";
  std::string error;
  std::optional<KernelInfo> info = fromJson(json, &error);
  ASSERT_TRUE(info.has_value()) << error;
  EXPECT_EQ(info->name, "k\xc3\xa9\xf0\x9f\x98\x80/");
  EXPECT_EQ(info->target, "");  // optional
  EXPECT_EQ(info->numWarps, 1);
  ASSERT_EQ(info->args.size(), 2u);
  EXPECT_EQ(info->args[0].kind, ArgInfo::Kind::View);
  EXPECT_EQ(info->args[0].align, 16); // the default
  EXPECT_EQ(info->args[1].type, ScalarType::index);
  // Defaults for the optional keys.
  info = fromJson(R"({"name": "k", "args": []})");
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->numWarps, 4);
  EXPECT_EQ(info->sharedBytes, 0);
  // No error pointer: no crash either way.
  EXPECT_FALSE(fromJson("{").has_value());
}

struct JsonErrorCase {
  const char *json;
  std::vector<const char *> expected; // substrings of the message
};

TEST(KernelInfoTest, JsonErrors) {
  const std::string deep = std::string(200, '[') + std::string(200, ']');
  const JsonErrorCase cases[] = {
      // Malformed JSON: the position is named.
      {"", {"malformed JSON", "line 1, column 1", "expected a value", "end of input"}},
      {"   \n  ", {"line 2, column 3", "end of input"}},
      {"{", {"expected a string key"}},
      {"{\"name\": \"k\",\n \"args\": [}", {"line 2, column 11", "expected a value, found '}'"}},
      {"{\"name\": \"k\" \"args\": []}", {"expected ',' or '}' in object"}},
      {"{\"name\" \"k\"}", {"expected ':' after key \"name\""}},
      {"{\"name\": \"k\", \"args\": [1 2]}", {"expected ',' or ']' in array"}},
      {"{\"name\": \"k\", \"args\": []} x", {"unexpected text after the JSON value"}},
      {"{\"name\": \"k\", \"name\": \"j\", \"args\": []}", {"duplicate key \"name\""}},
      {"{\"name\": \"k", {"unterminated string"}},
      {"{\"name\": \"a\\qb\"}", {"invalid escape in string: \\q"}},
      {"{\"name\": \"\\u12g4\"}", {"invalid \\u escape"}},
      {"{\"name\": \"\\ud800x\"}", {"unpaired UTF-16 surrogate"}},
      {"{\"name\": \"\\udc00\"}", {"unpaired UTF-16 surrogate"}},
      {"{\"name\": \"a\nb\"}", {"control character in string"}},
      {"{\"num_warps\": 01}", {"leading zero"}},
      {"{\"num_warps\": -}", {"invalid number"}},
      {"{\"num_warps\": 1.}", {"expected a digit after '.'"}},
      {"{\"num_warps\": 1e+}", {"expected a digit in the exponent"}},
      {"{\"name\": tru}", {"invalid literal"}},
      {"{\"name\": nul}", {"invalid literal"}},
      {"{\"name\": @}", {"expected a value, found '@'"}},
      {"{\"name\": \"k\", \"args\": []}\x01", {"unexpected text", "byte 0x01"}},
      {deep.c_str(), {"nesting deeper than 64"}},
      // Schema errors: the key is named.
      {"[]", {"expected a JSON object, found an array"}},
      {"{\"args\": []}", {"missing key \"name\""}},
      {"{\"name\": \"k\"}", {"missing key \"args\""}},
      {"{\"name\": \"k\", \"args\": [], \"warps\": 4}", {"key \"warps\"", "unknown key"}},
      {"{\"name\": 3, \"args\": []}", {"key \"name\"", "expected a string, found a number"}},
      {"{\"name\": \"\", \"args\": []}", {"key \"name\"", "the kernel name is empty"}},
      {"{\"name\": \"k\", \"target\": null, \"args\": []}", {"key \"target\"", "found null"}},
      {"{\"name\": \"k\", \"num_warps\": 2.5, \"args\": []}", {"key \"num_warps\"", "expected an integer, found 2.5"}},
      {"{\"name\": \"k\", \"num_warps\": \"4\", \"args\": []}", {"key \"num_warps\"", "found a string"}},
      {"{\"name\": \"k\", \"num_warps\": true, \"args\": []}", {"key \"num_warps\"", "found a boolean"}},
      {"{\"name\": \"k\", \"num_warps\": 0, \"args\": []}", {"key \"num_warps\"", "0 is out of range [1, 32]"}},
      {"{\"name\": \"k\", \"num_warps\": 33, \"args\": []}", {"key \"num_warps\"", "out of range"}},
      {"{\"name\": \"k\", \"shared_bytes\": -1, \"args\": []}", {"key \"shared_bytes\"", "out of range"}},
      {"{\"name\": \"k\", \"shared_bytes\": 4294967296, \"args\": []}", {"key \"shared_bytes\"", "out of range"}},
      {"{\"name\": \"k\", \"shared_bytes\": 1e3, \"args\": []}", {"key \"shared_bytes\"", "expected an integer"}},
      {"{\"name\": \"k\", \"shared_bytes\": 99999999999999999999, \"args\": []}", {"key \"shared_bytes\"", "expected an integer"}},
      {"{\"name\": \"k\", \"args\": {}}", {"key \"args\"", "expected an array, found an object"}},
      {"{\"name\": \"k\", \"args\": [3]}", {"key \"args[0]\"", "expected an object"}},
      {"{\"name\": \"k\", \"args\": [{\"kind\": \"view\", \"type\": \"f32\", \"rank\": 1}]}", {"key \"args[0]\"", "missing key \"name\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"type\": \"f32\"}]}", {"key \"args[0]\"", "missing key \"kind\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"scalar\"}]}", {"key \"args[0]\"", "missing key \"type\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": 1, \"kind\": \"scalar\", \"type\": \"i32\"}]}", {"key \"args[0].name\"", "expected a string"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"n\", \"kind\": \"scalar\", \"type\": \"i32\"}, {\"name\": \"x\", \"kind\": \"tensor\", \"type\": \"f32\"}]}",
       {"key \"args[1].kind\"", "unknown kind \"tensor\"", "\"view\" or \"scalar\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", \"type\": \"f8\", \"rank\": 1}]}", {"key \"args[0].type\"", "unknown type \"f8\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", \"type\": 4, \"rank\": 1}]}", {"key \"args[0].type\"", "expected a string"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", \"type\": \"f32\"}]}", {"key \"args[0]\"", "missing key \"rank\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", \"type\": \"f32\", \"rank\": -1}]}", {"key \"args[0].rank\"", "out of range"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", \"type\": \"f32\", \"rank\": 1, \"align\": 12}]}", {"key \"args[0].align\"", "12 is not a power of two"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", \"type\": \"f32\", \"rank\": 1, \"align\": 0}]}", {"key \"args[0].align\"", "out of range"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", \"type\": \"f32\", \"rank\": 1, \"stride\": 1}]}", {"key \"args[0].stride\"", "unknown key"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"n\", \"kind\": \"scalar\", \"type\": \"i32\", \"align\": 4}]}", {"key \"args[0].align\"", "scalars take no \"align\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"n\", \"kind\": \"scalar\", \"type\": \"i32\", \"rank\": 2}]}", {"key \"args[0].rank\"", "out of range [0, 0]"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"n\", \"kind\": \"scalar\", \"type\": \"bf16\"}]}", {"key \"args[0].type\"", "not part of the kernel ABI"}},
  };
  for (const JsonErrorCase &c : cases) {
    SCOPED_TRACE(std::string("JSON: ") + c.json);
    std::string error;
    std::optional<KernelInfo> info = fromJson(c.json, &error);
    EXPECT_FALSE(info.has_value());
    EXPECT_CONTAINS(error, "KernelInfo JSON");
    for (const char *expected : c.expected)
      EXPECT_CONTAINS(error, expected);
  }
}

TEST(KernelInfoTest, JsonErrorsNameTheLine) {
  std::string json = "{\"name\": \"k\",\n \"args\": [\n  {\"name\": \"x\", "
                     "\"kind\": \"matrix\", \"type\": \"f32\"}]}";
  std::string error;
  EXPECT_FALSE(fromJson(json, &error).has_value());
  EXPECT_CONTAINS(error, "line 3, column");
  EXPECT_CONTAINS(error, "args[0].kind");
}

TEST(KernelInfoTest, JsonNeverCrashesOnTruncations) {
  std::string json = toJson(sampleInfo());
  for (size_t n = 0; n < json.size(); ++n) {
    std::string error;
    std::optional<KernelInfo> info = fromJson(json.substr(0, n), &error);
    // Only the complete text (give or take trailing space) parses.
    if (!info) {
      EXPECT_FALSE(error.empty());
    }
  }
}

// Random edits of a valid text (fixed seed): never a crash; whatever
// parses round-trips.
TEST(KernelInfoTest, JsonNeverCrashesOnMutations) {
  const std::string good = toJson(sampleInfo());
  const char alphabet[] = "{}[]:,\"\\u0123456789eE+-.tfnal \n\x01\xff";
  std::mt19937 rng(20240611);
  for (int iter = 0; iter < 3000; ++iter) {
    std::string text = good;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      size_t at = rng() % text.size();
      char c = alphabet[rng() % (sizeof alphabet - 1)];
      switch (rng() % 3) {
      case 0:
        text[at] = c;
        break;
      case 1:
        text.insert(text.begin() + at, c);
        break;
      default:
        text.erase(at, 1 + rng() % 8);
      }
    }
    std::string error;
    std::optional<KernelInfo> info = fromJson(text, &error);
    if (!info) {
      EXPECT_FALSE(error.empty()) << text;
      continue;
    }
    std::optional<KernelInfo> again = fromJson(toJson(*info), &error);
    ASSERT_TRUE(again.has_value()) << error << "\n" << text;
    expectSameInfo(*info, *again);
  }
}

//===----------------------------------------------------------------------===//
// packArgs
//===----------------------------------------------------------------------===//

KernelInfo packInfo() {
  KernelInfo info;
  info.name = "k";
  info.args = {view("x", ScalarType::f32, 2),  scalar("m", ScalarType::index),
               scalar("k", ScalarType::i64),   scalar("n", ScalarType::i32),
               scalar("alpha", ScalarType::f32), scalar("beta", ScalarType::f64),
               view("p", ScalarType::bf16, 0, 2)};
  return info;
}

std::vector<Arg> packGoodArgs() {
  return {viewArg(0x7f0000001000, {3, 5}, {5, -1}),
          int64_t(1) << 40,
          int64_t(-7),
          int64_t(-5),
          1.5,
          -0.25,
          viewArg(0x2002, {}, {})};
}

TEST(PackArgsTest, LayoutAndBytes) {
  KernelInfo info = packInfo();
  PackedArgs packed;
  Status s = packArgs(info, packGoodArgs(), packed);
  ASSERT_TRUE(s.ok) << s.message;
  ASSERT_EQ(packed.storage.size(), static_cast<size_t>(info.numParams()));
  ASSERT_EQ(packed.storage.size(), 11u);
  ASSERT_EQ(packed.pointers.size(), packed.storage.size());
  for (size_t i = 0; i < packed.storage.size(); ++i)
    EXPECT_EQ(packed.pointers[i], packed.storage[i].data()) << i;

  const auto &st = packed.storage;
  EXPECT_EQ(slotAs<uint64_t>(st[0]), 0x7f0000001000u);
  EXPECT_EQ(slotAs<int64_t>(st[1]), 3);  // sizes
  EXPECT_EQ(slotAs<int64_t>(st[2]), 5);
  EXPECT_EQ(slotAs<int64_t>(st[3]), 5);  // strides
  EXPECT_EQ(slotAs<int64_t>(st[4]), -1);
  EXPECT_EQ(slotAs<int64_t>(st[5]), int64_t(1) << 40); // index
  EXPECT_EQ(slotAs<int64_t>(st[6]), -7);               // i64
  // i32: 4 bytes, little-endian, the rest of the slot zero.
  const unsigned char i32Bytes[8] = {0xfb, 0xff, 0xff, 0xff, 0, 0, 0, 0};
  EXPECT_EQ(std::memcmp(st[7].data(), i32Bytes, 8), 0);
  EXPECT_EQ(slotAs<int32_t>(st[7]), -5);
  // f32: a 4-byte float, not a double.
  const unsigned char f32Bytes[8] = {0, 0, 0xc0, 0x3f, 0, 0, 0, 0};
  EXPECT_EQ(std::memcmp(st[8].data(), f32Bytes, 8), 0);
  EXPECT_EQ(slotAs<float>(st[8]), 1.5f);
  EXPECT_EQ(slotAs<double>(st[9]), -0.25);
  EXPECT_EQ(slotAs<uint64_t>(st[10]), 0x2002u); // rank 0: pointer only

  // The pointers stay valid when the PackedArgs moves.
  PackedArgs moved = std::move(packed);
  for (size_t i = 0; i < moved.storage.size(); ++i)
    EXPECT_EQ(moved.pointers[i], moved.storage[i].data()) << i;
}

TEST(PackArgsTest, ScalarConversions) {
  KernelInfo info;
  info.name = "k";
  info.args = {scalar("a", ScalarType::i32), scalar("b", ScalarType::i32),
               scalar("c", ScalarType::f32), scalar("d", ScalarType::f64),
               scalar("e", ScalarType::i64), scalar("f", ScalarType::f32)};
  PackedArgs packed;
  Status s = packArgs(info,
                      {int64_t(INT32_MIN), int64_t(INT32_MAX), int64_t(3),
                       int64_t(-2), int64_t(INT64_MIN),
                       std::numeric_limits<double>::infinity()},
                      packed);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(slotAs<int32_t>(packed.storage[0]), INT32_MIN);
  EXPECT_EQ(slotAs<int32_t>(packed.storage[1]), INT32_MAX);
  EXPECT_EQ(slotAs<float>(packed.storage[2]), 3.0f); // integers convert
  EXPECT_EQ(slotAs<double>(packed.storage[3]), -2.0);
  EXPECT_EQ(slotAs<int64_t>(packed.storage[4]), INT64_MIN);
  EXPECT_TRUE(std::isinf(slotAs<float>(packed.storage[5])));
}

struct PackErrorCase {
  const char *what;
  int index;   // which argument of packGoodArgs() to replace; -1: see args
  Arg replacement;
  std::vector<const char *> expected;
};

TEST(PackArgsTest, Errors) {
  KernelInfo info = packInfo();
  const PackErrorCase cases[] = {
      {"view given a scalar", 0, int64_t(4),
       {"argument 0 'x'", "rank-2 f32 view", "expected a view, got an integer scalar"}},
      {"view given a double", 6, 2.0, {"argument 6 'p'", "expected a view, got a floating-point scalar"}},
      {"integer given a view", 1, viewArg(0x1000, {}, {}),
       {"argument 1 'm'", "index scalar", "expected an integer scalar, got a view"}},
      {"integer given a double", 3, 2.0,
       {"argument 3 'n'", "i32 scalar", "expected an integer scalar, got a floating-point scalar"}},
      {"float given a view", 4, viewArg(0x1000, {}, {}),
       {"argument 4 'alpha'", "expected a floating-point scalar, got a view"}},
      {"too few sizes", 0, viewArg(0x1000, {3}, {5, 1}),
       {"argument 0 'x'", "view rank mismatch: expected rank 2, got 1 sizes and 2 strides"}},
      {"too many strides", 0, viewArg(0x1000, {3, 5}, {5, 1, 1}),
       {"view rank mismatch", "got 2 sizes and 3 strides"}},
      {"rank-0 view given sizes", 6, viewArg(0x1000, {1}, {1}), {"argument 6 'p'", "view rank mismatch"}},
      {"null pointer", 0, viewArg(0, {3, 5}, {5, 1}), {"argument 0 'x'", "null pointer"}},
      {"misaligned pointer", 0, viewArg(0x1008, {3, 5}, {5, 1}),
       {"argument 0 'x'", "pointer 0x1008 is misaligned", "16-byte alignment"}},
      {"misaligned by one byte", 6, viewArg(0x1001, {}, {}), {"argument 6 'p'", "2-byte alignment"}},
      {"negative size", 0, viewArg(0x1000, {3, -1}, {5, 1}),
       {"argument 0 'x'", "negative size -1 in dimension 1"}},
      {"i32 too large", 3, int64_t(INT32_MAX) + 1,
       {"argument 3 'n'", "value 2147483648 is out of the i32 range"}},
      {"i32 too small", 3, int64_t(INT32_MIN) - 1, {"out of the i32 range"}},
      {"f32 overflow", 4, 1e300, {"argument 4 'alpha'", "overflows f32"}},
  };
  for (const PackErrorCase &c : cases) {
    SCOPED_TRACE(c.what);
    std::vector<Arg> args = packGoodArgs();
    args[c.index] = c.replacement;
    PackedArgs packed;
    packed.storage.resize(3); // stale content is cleared
    Status s = packArgs(info, args, packed);
    EXPECT_FALSE(s.ok);
    EXPECT_FALSE(static_cast<bool>(s));
    EXPECT_CONTAINS(s.message, "kernel 'k'");
    for (const char *expected : c.expected)
      EXPECT_CONTAINS(s.message, expected);
    EXPECT_TRUE(packed.storage.empty());
    EXPECT_TRUE(packed.pointers.empty());
  }
}

TEST(PackArgsTest, ArgumentCount) {
  KernelInfo info = packInfo();
  PackedArgs packed;
  std::vector<Arg> args = packGoodArgs();
  args.pop_back();
  Status s = packArgs(info, args, packed);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "kernel 'k' takes 7 arguments (x, m, k, n, "
                             "alpha, beta, p), got 6");
  args = packGoodArgs();
  args.push_back(int64_t(1));
  s = packArgs(info, args, packed);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "got 8");
  s = packArgs(info, {}, packed);
  EXPECT_CONTAINS(s.message, "got 0");
}

TEST(PackArgsTest, InvalidKernelInfo) {
  struct Case {
    const char *what;
    KernelInfo info;
    const char *expected;
  };
  std::vector<Case> cases;
  KernelInfo base;
  base.name = "k";
  base.args = {view("x", ScalarType::f32, 1)};
  {
    KernelInfo i = base;
    i.name = "";
    cases.push_back({"no name", i, "empty kernel name"});
  }
  {
    KernelInfo i = base;
    i.numWarps = 0;
    cases.push_back({"no warps", i, "num_warps 0 is out of range"});
  }
  {
    KernelInfo i = base;
    i.args[0].align = 12;
    cases.push_back({"bad align", i, "invalid alignment 12"});
  }
  {
    KernelInfo i = base;
    i.args[0].align = 0;
    cases.push_back({"zero align", i, "invalid alignment 0"});
  }
  {
    KernelInfo i = base;
    i.args[0].rank = -1;
    cases.push_back({"negative rank", i, "invalid rank -1"});
  }
  {
    KernelInfo i = base;
    i.args[0] = scalar("h", ScalarType::bf16);
    cases.push_back({"bf16 scalar", i, "scalar type not in the kernel ABI"});
  }
  {
    KernelInfo i = base;
    i.args[0].type = static_cast<ScalarType>(42);
    cases.push_back({"bad type", i, "invalid element type"});
  }
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    PackedArgs packed;
    Status s = packArgs(c.info, {viewArg(0x1000, {1}, {1})}, packed);
    EXPECT_FALSE(s.ok);
    EXPECT_CONTAINS(s.message, c.expected);
  }
}

//===----------------------------------------------------------------------===//
// Launch limits, cache keys, PTX scanning
//===----------------------------------------------------------------------===//

TEST(LaunchConfigTest, Limits) {
  const int64_t maxX = (int64_t(1) << 31) - 1;
  EXPECT_TRUE(checkLaunchConfig({1, 1, 1}, 1, 0, 0).ok);
  EXPECT_TRUE(checkLaunchConfig({maxX, 65535, 65535}, 32, 1000, 1000).ok);

  struct Case {
    std::array<int64_t, 3> grid;
    int warps, shared, maxShared;
    std::vector<const char *> expected;
  };
  const Case cases[] = {
      {{0, 1, 1}, 4, 0, 0, {"grid.x = 0 is out of range", "[1, 2147483647]"}},
      {{maxX + 1, 1, 1}, 4, 0, 0, {"grid.x = 2147483648"}},
      {{-5, 1, 1}, 4, 0, 0, {"grid.x = -5"}},
      {{1, 65536, 1}, 4, 0, 0, {"grid.y = 65536", "[1, 65535]"}},
      {{1, 0, 1}, 4, 0, 0, {"grid.y = 0"}},
      {{1, 1, 65536}, 4, 0, 0, {"grid.z = 65536"}},
      {{1, 1, 0}, 4, 0, 0, {"grid.z = 0"}},
      {{1, 1, 1}, 0, 0, 0, {"0 warps (0 threads) is out of range", "1024 threads"}},
      {{1, 1, 1}, 33, 0, 0, {"33 warps (1056 threads)"}},
      {{1, 1, 1}, -1, 0, 0, {"-1 warps"}},
      {{1, 1, 1}, 4, 232449, 232448,
       {"dynamic shared memory of 232449 bytes exceeds the device limit of 232448 bytes"}},
      {{1, 1, 1}, 4, -1, 1000, {"negative dynamic shared memory"}},
  };
  for (const Case &c : cases) {
    Status s = checkLaunchConfig(c.grid, c.warps, c.shared, c.maxShared);
    EXPECT_FALSE(s.ok);
    for (const char *expected : c.expected)
      EXPECT_CONTAINS(s.message, expected);
  }
}

TEST(ModuleCacheKeyTest, Key) {
  std::string a = ".version 8.0\n.target sm_90a\n";
  std::string b = ".version 8.0\n.target sm_80\n";
  EXPECT_EQ(moduleCacheKey(a, 0), moduleCacheKey(std::string(a), 0));
  EXPECT_NE(moduleCacheKey(a, 0), moduleCacheKey(b, 0));
  EXPECT_NE(moduleCacheKey(a, 0), moduleCacheKey(a, 1));
  EXPECT_NE(moduleCacheKey(a, 0), moduleCacheKey(a + " ", 0));
  // FNV-1a 64 in hex, then the device.
  EXPECT_EQ(moduleCacheKey("", 0), "cbf29ce484222325:0");
  EXPECT_EQ(moduleCacheKey("a", 3), "af63dc4c8601ec8c:3");
  EXPECT_EQ(moduleCacheKey(a, 7).size(), 16u + 2u);
}

const char *kLlvmStylePtx = R"(//
// Generated by LLVM NVPTX Back-End
//

.version 8.0
.target sm_90a  // the target
.address_size 64

.file 1 "/tmp//not a comment.py"
	// .globl	kern
.extern .func helper(.param .b32 x);

.visible .entry kern(
	.param .u64 .ptr .global .align 16 kern_param_0,
	.param .u64 kern_param_1, /* size */
	.param .u64 kern_param_2,
	.param .u32 kern_param_3,
	.param .f32 kern_param_4,
	.param .f64 kern_param_5,
	.param .align 8 .b8 kern_param_6[24]
)
.maxntid 128, 1, 1
{
	ret;
}
/* .entry commented_out( .param .u64 x ) */
.visible .entry noparams()
{
	ret;
}
.entry bare
{
	ret;
}
.visible .entry odd(.param .weird p)
{
	ret;
}
)";

TEST(PtxTest, Summary) {
  detail::PtxSummary s = detail::summarizePtx(kLlvmStylePtx);
  EXPECT_EQ(s.version, "8.0");
  EXPECT_EQ(s.target, "sm_90a");
  ASSERT_EQ(s.entries.size(), 4u) << s.entryNames();
  EXPECT_EQ(s.entryNames(), "kern, noparams, bare, odd");
  const detail::PtxEntry *kern = s.find("kern");
  ASSERT_NE(kern, nullptr);
  EXPECT_TRUE(kern->paramsKnown);
  EXPECT_EQ(kern->paramSizes, (std::vector<int>{8, 8, 8, 4, 4, 8, 24}));
  EXPECT_TRUE(s.find("noparams")->paramSizes.empty());
  EXPECT_TRUE(s.find("bare")->paramSizes.empty());
  EXPECT_FALSE(s.find("odd")->paramsKnown);
  EXPECT_EQ(s.find("helper"), nullptr);
  EXPECT_EQ(s.find("commented_out"), nullptr);
  EXPECT_EQ(detail::PtxSummary().entryNames(), "none");
  // Garbage does not crash.
  for (const char *junk : {"", ".entry", ".entry (", ".entry k(", ".target",
                           "/* unterminated", "\"unterminated"})
    detail::summarizePtx(junk);
}

TEST(PtxTest, NeverCrashesOnMutations) {
  const std::string good = kLlvmStylePtx;
  const char alphabet[] = "().,[]/*\" \n;{}.param.entry0123456789";
  std::mt19937 rng(7);
  for (int iter = 0; iter < 2000; ++iter) {
    std::string text = good;
    for (int e = 0; e < 6 && !text.empty(); ++e) {
      size_t at = rng() % text.size();
      if (rng() % 2)
        text[at] = alphabet[rng() % (sizeof alphabet - 1)];
      else
        text.erase(at, 1 + rng() % 16);
    }
    detail::PtxSummary s = detail::summarizePtx(text);
    for (const detail::PtxEntry &entry : s.entries) {
      KernelInfo info;
      info.name = entry.name;
      info.args = {view("x", ScalarType::f32, 1)};
      detail::checkParamsMatch(info, entry);
    }
  }
}

TEST(PtxTest, StripComments) {
  EXPECT_EQ(detail::stripPtxComments("a // b\nc"), "a     \nc");
  EXPECT_EQ(detail::stripPtxComments("a /* b\n */c"), "a     \n   c");
  EXPECT_EQ(detail::stripPtxComments("\"x//y\" z"), "\"x//y\" z");
}

TEST(PtxTest, SmTargets) {
  int arch = 0;
  std::string suffix;
  EXPECT_TRUE(detail::parseSmTarget("sm_90a", arch, suffix));
  EXPECT_EQ(arch, 90);
  EXPECT_EQ(suffix, "a");
  EXPECT_TRUE(detail::parseSmTarget("sm_80", arch, suffix));
  EXPECT_EQ(arch, 80);
  EXPECT_EQ(suffix, "");
  EXPECT_TRUE(detail::parseSmTarget("sm_100f", arch, suffix));
  EXPECT_EQ(arch, 100);
  EXPECT_FALSE(detail::parseSmTarget("compute_90", arch, suffix));
  EXPECT_FALSE(detail::parseSmTarget("sm_", arch, suffix));
  EXPECT_FALSE(detail::parseSmTarget("sm_9x0", arch, suffix));
}

TEST(PtxTest, ParamsMatchTheAbi) {
  KernelInfo info;
  info.name = "kern";
  info.args = {view("x", ScalarType::f32, 1), scalar("n", ScalarType::i32),
               scalar("a", ScalarType::f32), scalar("b", ScalarType::f64)};
  EXPECT_EQ(detail::abiParamSizes(info),
            (std::vector<int>{8, 8, 8, 4, 4, 8}));
  detail::PtxEntry entry;
  entry.name = "kern";
  entry.paramSizes = {8, 8, 8, 4, 4, 8};
  EXPECT_EQ(detail::checkParamsMatch(info, entry), "");
  entry.paramSizes = {8, 8, 8, 8, 4, 8};
  std::string m = detail::checkParamsMatch(info, entry);
  EXPECT_CONTAINS(m, "does not match its PTX entry point");
  EXPECT_CONTAINS(m, "[8 8 8 4 4 8]");
  EXPECT_CONTAINS(m, "first difference at .param 3: argument 1 'n' (i32 scalar)");
  entry.paramSizes = {8, 8};
  EXPECT_CONTAINS(detail::checkParamsMatch(info, entry),
                  ".param 2: argument 0 'x' (rank-1 f32 view, stride 0)");
  entry.paramSizes = {8, 8, 8, 4, 4, 8, 8};
  EXPECT_CONTAINS(detail::checkParamsMatch(info, entry),
                  "no argument (the KernelInfo has only 6 .params)");
  entry.paramsKnown = false; // unknown: nothing to check
  EXPECT_EQ(detail::checkParamsMatch(info, entry), "");
}

//===----------------------------------------------------------------------===//
// No driver
//===----------------------------------------------------------------------===//

TEST(NoDriverTest, MissingLibrary) {
  ScopedEnv env("TESSERA_LIBCUDA", "/nonexistent/libcuda.so.1");
  std::unique_ptr<Runtime> rt;
  Status s = Runtime::create(rt);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "no CUDA driver");
  EXPECT_CONTAINS(s.message, "/nonexistent/libcuda.so.1");
  EXPECT_EQ(rt, nullptr);
}

TEST(NoDriverTest, LibraryThatIsNotADriver) {
  ScopedEnv env("TESSERA_LIBCUDA", "libm.so.6");
  std::unique_ptr<Runtime> rt;
  Status s = Runtime::create(rt);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "no CUDA driver");
  EXPECT_CONTAINS(s.message, "cuGetProcAddress");
}

TEST(NoDriverTest, ToolkitStubLibrary) {
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (access(stub, R_OK) != 0)
    GTEST_SKIP() << "no CUDA toolkit stub at " << stub;
  ScopedEnv env("TESSERA_LIBCUDA", stub);
  std::unique_ptr<Runtime> rt;
  Status s = Runtime::create(rt);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "no CUDA driver");
  EXPECT_CONTAINS(s.message, "stub");
}

// The default search for libcuda.so.1: the build machines have none, and
// must say so; a GPU machine has one, and must then name its device.
TEST(NoDriverTest, DefaultLibrary) {
  ScopedEnv env("TESSERA_LIBCUDA", nullptr);
  std::unique_ptr<Runtime> rt;
  Status s = Runtime::create(rt);
  if (s.ok) {
    ASSERT_NE(rt, nullptr);
    EXPECT_FALSE(rt->deviceName().empty());
    EXPECT_GT(rt->computeCapability(), 0);
    std::printf("driver present: %s (sm_%d)\n", rt->deviceName().c_str(),
                rt->computeCapability());
    return;
  }
  EXPECT_EQ(rt, nullptr);
  bool clear = s.message.find("no CUDA driver") != std::string::npos ||
               s.message.find("no CUDA GPU") != std::string::npos;
  EXPECT_TRUE(clear) << s.message;
  std::string probe = "libcuda.so.1";
  if (void *h = dlopen(probe.c_str(), RTLD_NOW | RTLD_NOLOAD)) {
    dlclose(h);
  } else {
    EXPECT_CONTAINS(s.message, "libcuda.so.1");
  }
}

//===----------------------------------------------------------------------===//
// The fake driver
//===----------------------------------------------------------------------===//

// y[i] = 2 * x[i], with the parameters of two rank-1 f32 views.
const char *kScalePtx = R"(.version 8.0
.target sm_80
.address_size 64

.visible .entry scale2(
	.param .u64 .ptr .global .align 16 scale2_param_0,
	.param .u64 scale2_param_1,
	.param .u64 scale2_param_2,
	.param .u64 .ptr .global .align 16 scale2_param_3,
	.param .u64 scale2_param_4,
	.param .u64 scale2_param_5
)
{
	ret;
}
)";

KernelInfo scaleInfo() {
  KernelInfo info;
  info.name = "scale2";
  info.target = "sm_80";
  info.numWarps = 4;
  info.args = {view("x", ScalarType::f32, 1), view("y", ScalarType::f32, 1)};
  return info;
}

class FakeDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    env_.emplace("TESSERA_LIBCUDA", TESSERA_FAKE_CUDA);
    handle_ = dlopen(TESSERA_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
    reset_ = reinterpret_cast<void (*)()>(dlsym(handle_, "fake_cuda_reset"));
    set_ = reinterpret_cast<void (*)(const char *, long long)>(
        dlsym(handle_, "fake_cuda_set"));
    get_ = reinterpret_cast<long long (*)(const char *)>(
        dlsym(handle_, "fake_cuda_get"));
    setMissing_ = reinterpret_cast<void (*)(const char *)>(
        dlsym(handle_, "fake_cuda_set_missing"));
    paramCount_ =
        reinterpret_cast<int (*)()>(dlsym(handle_, "fake_cuda_param_count"));
    param_ = reinterpret_cast<unsigned long long (*)(int)>(
        dlsym(handle_, "fake_cuda_param"));
    ASSERT_TRUE(reset_ && set_ && get_ && setMissing_ && paramCount_ &&
                param_);
    reset_();
  }
  void TearDown() override {
    rt_.reset(); // before the fake's state is reset under it
    if (handle_)
      dlclose(handle_);
    env_.reset();
  }

  Runtime &create() {
    Status s = Runtime::create(rt_);
    EXPECT_TRUE(s.ok) << s.message;
    if (!rt_)
      throw std::runtime_error(s.message);
    return *rt_;
  }

  void set(const char *key, long long value) { set_(key, value); }
  long long get(const char *key) { return get_(key); }

  std::optional<ScopedEnv> env_;
  void *handle_ = nullptr;
  void (*reset_)() = nullptr;
  void (*set_)(const char *, long long) = nullptr;
  long long (*get_)(const char *) = nullptr;
  void (*setMissing_)(const char *) = nullptr;
  int (*paramCount_)() = nullptr;
  unsigned long long (*param_)(int) = nullptr;
  std::unique_ptr<Runtime> rt_;
};

TEST_F(FakeDriverTest, CreateDescribesTheDevice) {
  Runtime &rt = create();
  EXPECT_EQ(rt.deviceName(), "Tessera Fake GPU");
  EXPECT_EQ(rt.computeCapability(), 90);
  EXPECT_EQ(rt.maxSharedBytesPerBlock(), 232448);
  EXPECT_EQ(rt.cachedModules(), 0u);
  EXPECT_EQ(get("gpa_version"), 12000);
  EXPECT_EQ(get("gpa_flags"), 0);
  EXPECT_EQ(get("ctx_retains"), 1);
  rt_.reset();
  EXPECT_EQ(get("ctx_releases"), 1);
}

TEST_F(FakeDriverTest, SharedLimitWithoutOptIn) {
  set("shared_optin", 0);
  EXPECT_EQ(create().maxSharedBytesPerBlock(), 49152);
}

TEST_F(FakeDriverTest, NoGpu) {
  set("devices", 0);
  std::unique_ptr<Runtime> rt;
  Status s = Runtime::create(rt);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "no CUDA GPU");
  EXPECT_EQ(rt, nullptr);
}

TEST_F(FakeDriverTest, InitReportsNoDevice) {
  set("init_error", 100);
  std::unique_ptr<Runtime> rt;
  Status s = Runtime::create(rt);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "no CUDA GPU");
  EXPECT_CONTAINS(s.message, "CUDA_ERROR_NO_DEVICE");
}

TEST_F(FakeDriverTest, InitFails) {
  set("init_error", 999);
  std::unique_ptr<Runtime> rt;
  Status s = Runtime::create(rt);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "failed to initialise");
  EXPECT_CONTAINS(s.message, "CUDA error 999"); // no name known for it
}

TEST_F(FakeDriverTest, BadDeviceOrdinal) {
  set("devices", 2);
  for (int ordinal : {2, -1, 1000}) {
    std::unique_ptr<Runtime> rt;
    Status s = Runtime::create(rt, ordinal);
    EXPECT_FALSE(s.ok);
    EXPECT_CONTAINS(s.message, "bad device ordinal " + std::to_string(ordinal));
    EXPECT_CONTAINS(s.message, "2 CUDA devices");
    EXPECT_CONTAINS(s.message, "0 to 1");
  }
  std::unique_ptr<Runtime> rt;
  EXPECT_TRUE(Runtime::create(rt, 1).ok);
}

TEST_F(FakeDriverTest, MissingEntryPoint) {
  setMissing_("cuLaunchKernel");
  std::unique_ptr<Runtime> rt;
  Status s = Runtime::create(rt);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "has no cuLaunchKernel");
}

TEST_F(FakeDriverTest, LoadCachesModules) {
  Runtime &rt = create();
  std::string log;
  Status s = rt.load(kScalePtx, scaleInfo(), &log);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_CONTAINS(log, "Used 40 registers");
  EXPECT_EQ(get("verbose"), 1);
  EXPECT_EQ(get("module_loads"), 1);
  EXPECT_EQ(rt.cachedModules(), 1u);

  // Same PTX (another string object): no new JIT, same info log.
  std::string copy = kScalePtx;
  log.clear();
  ASSERT_TRUE(rt.load(copy, scaleInfo(), &log).ok);
  EXPECT_CONTAINS(log, "Used 40 registers");
  EXPECT_EQ(get("module_loads"), 1);
  EXPECT_EQ(rt.cachedModules(), 1u);

  // Different PTX: a second module; then the first again from the cache.
  std::string other = copy + "\n// another\n";
  ASSERT_TRUE(rt.load(other, scaleInfo()).ok);
  ASSERT_TRUE(rt.load(copy, scaleInfo()).ok);
  EXPECT_EQ(get("module_loads"), 2);
  EXPECT_EQ(rt.cachedModules(), 2u);
  rt_.reset();
  EXPECT_EQ(get("module_unloads"), 2);
}

TEST_F(FakeDriverTest, JitErrorShowsTheLog) {
  Runtime &rt = create();
  std::string bad = std::string(kScalePtx) + "SYNTAX_ERROR\n";
  Status s = rt.load(bad, scaleInfo());
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "JIT compilation");
  EXPECT_CONTAINS(s.message, "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)");
  EXPECT_CONTAINS(s.message, "JIT error log:\nptxas application ptx input, "
                             "line 7; error   : syntax error at 'SYNTAX_ERROR'");
  EXPECT_CONTAINS(s.message, "entries: scale2");
  EXPECT_EQ(rt.cachedModules(), 0u);
  // The good PTX still loads afterwards.
  EXPECT_TRUE(rt.load(kScalePtx, scaleInfo()).ok);
}

TEST_F(FakeDriverTest, ArchSpecificPtxOnAnotherDevice) {
  std::string ptx = kScalePtx;
  ptx.replace(ptx.find("sm_80"), 5, "sm_90a");
  set("cc_major", 8);
  {
    Runtime &rt = create();
    Status s = rt.load(ptx, scaleInfo());
    EXPECT_FALSE(s.ok);
    EXPECT_CONTAINS(s.message, "ptxas fatal   : Unsupported .target 'sm_90a'");
    EXPECT_CONTAINS(s.message, "note: the PTX targets sm_90a");
    EXPECT_CONTAINS(s.message, "compute capability 9.0");
    EXPECT_CONTAINS(s.message, "this device is Tessera Fake GPU (sm_80)");
  }
  rt_.reset();
  set("cc_major", 9);
  EXPECT_TRUE(create().load(ptx, scaleInfo()).ok);
}

TEST_F(FakeDriverTest, NewerTargetThanTheDevice) {
  std::string ptx = kScalePtx;
  ptx.replace(ptx.find("sm_80"), 5, "sm_100");
  Status s = create().load(ptx, scaleInfo());
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "note: the PTX targets sm_100, newer than this device");
}

TEST_F(FakeDriverTest, EntryNotFound) {
  KernelInfo info = scaleInfo();
  info.name = "scale3";
  Status s = create().load(kScalePtx, info);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "kernel 'scale3' not found in the PTX module");
  EXPECT_CONTAINS(s.message, "its entry points: scale2");
}

TEST_F(FakeDriverTest, KernelInfoThatDoesNotMatchThePtx) {
  Runtime &rt = create();
  KernelInfo info = scaleInfo();
  info.args[1].rank = 2;
  Status s = rt.load(kScalePtx, info);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "does not match its PTX entry point");
  EXPECT_CONTAINS(s.message, "implies 8 .params");
  // The right KernelInfo for the same (cached) function still works.
  EXPECT_TRUE(rt.load(kScalePtx, scaleInfo()).ok);
  EXPECT_FALSE(rt.launch(kScalePtx, info, {1, 1, 1},
                         {viewArg(0x1000, {4}, {1}), viewArg(0x2000, {4, 4}, {4, 1})})
                   .ok);
  EXPECT_EQ(get("launches"), 0);
}

TEST_F(FakeDriverTest, BadInputToLoad) {
  Runtime &rt = create();
  EXPECT_CONTAINS(rt.load("", scaleInfo()).message, "empty PTX");
  EXPECT_CONTAINS(rt.load(std::string("abc\0def", 7), scaleInfo()).message,
                  "NUL byte");
  KernelInfo info = scaleInfo();
  info.numWarps = 0;
  EXPECT_CONTAINS(rt.load(kScalePtx, info).message, "num_warps 0");
  EXPECT_EQ(get("module_loads"), 0);
}

TEST_F(FakeDriverTest, LaunchPassesTheAbi) {
  Runtime &rt = create();
  DevicePtr x = 0, y = 0;
  ASSERT_TRUE(rt.alloc(1024, x).ok);
  ASSERT_TRUE(rt.alloc(1024, y).ok);
  EXPECT_EQ(x % 256, 0u);
  Status s = rt.launch(kScalePtx, scaleInfo(), {4, 2, 3},
                       {viewArg(x, {256}, {1}), viewArg(y, {255}, {2})});
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(get("launches"), 1);
  EXPECT_EQ(get("grid_x"), 4);
  EXPECT_EQ(get("grid_y"), 2);
  EXPECT_EQ(get("grid_z"), 3);
  EXPECT_EQ(get("block_x"), 128);
  EXPECT_EQ(get("block_y"), 1);
  EXPECT_EQ(get("block_z"), 1);
  EXPECT_EQ(get("shared"), 0);
  EXPECT_EQ(get("extra_null"), 1);
  EXPECT_EQ(get("set_shared_calls"), 0);
  EXPECT_EQ(get("syncs"), 1); // synchronous by default
  ASSERT_EQ(paramCount_(), 6);
  const unsigned long long want[] = {x, 256, 1, y, 255, 2};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(param_(i), want[i]) << "param " << i;

  // Asynchronous launches do not synchronise; the module is reused.
  ASSERT_TRUE(rt.launch(kScalePtx, scaleInfo(), {1, 1, 1},
                        {viewArg(x, {1}, {1}), viewArg(y, {1}, {1})}, false)
                  .ok);
  EXPECT_EQ(get("syncs"), 1);
  EXPECT_EQ(get("module_loads"), 1);
  EXPECT_TRUE(rt.synchronize().ok);
  EXPECT_EQ(get("syncs"), 2);
}

TEST_F(FakeDriverTest, LaunchChecksBeforeTheDriver) {
  Runtime &rt = create();
  DevicePtr x = 0;
  ASSERT_TRUE(rt.alloc(1024, x).ok);
  KernelInfo info = scaleInfo();
  struct Case {
    const char *what;
    std::array<int64_t, 3> grid;
    std::vector<Arg> args;
    const char *expected;
  };
  const Case cases[] = {
      {"null", {1, 1, 1}, {viewArg(0, {1}, {1}), viewArg(x, {1}, {1})}, "null pointer"},
      {"misaligned", {1, 1, 1}, {viewArg(x + 4, {1}, {1}), viewArg(x, {1}, {1})}, "misaligned"},
      {"count", {1, 1, 1}, {viewArg(x, {1}, {1})}, "takes 2 arguments"},
      {"grid", {1, 70000, 1}, {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})}, "grid.y = 70000"},
      {"grid x", {int64_t(1) << 31, 1, 1}, {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})}, "grid.x"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    Status s = rt.launch(kScalePtx, info, c.grid, c.args);
    EXPECT_FALSE(s.ok);
    EXPECT_CONTAINS(s.message, c.expected);
    EXPECT_CONTAINS(s.message, "kernel 'scale2'");
  }
  EXPECT_EQ(get("launches"), 0);
}

TEST_F(FakeDriverTest, LargeSharedMemory) {
  Runtime &rt = create();
  DevicePtr x = 0;
  ASSERT_TRUE(rt.alloc(64, x).ok);
  std::vector<Arg> args = {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})};
  KernelInfo info = scaleInfo();
  info.sharedBytes = 48 * 1024; // the default limit: no attribute needed
  ASSERT_TRUE(rt.launch(kScalePtx, info, {1, 1, 1}, args).ok);
  EXPECT_EQ(get("set_shared_calls"), 0);
  info.sharedBytes = 200 * 1024;
  Status s = rt.launch(kScalePtx, info, {1, 1, 1}, args);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(get("set_shared_calls"), 1);
  EXPECT_EQ(get("set_shared_value"), 200 * 1024);
  EXPECT_EQ(get("shared"), 200 * 1024);
  ASSERT_TRUE(rt.launch(kScalePtx, info, {1, 1, 1}, args).ok);
  EXPECT_EQ(get("set_shared_calls"), 1); // set once per function
  info.sharedBytes = 232448;
  ASSERT_TRUE(rt.launch(kScalePtx, info, {1, 1, 1}, args).ok);
  EXPECT_EQ(get("set_shared_value"), 232448);
  info.sharedBytes = 232448 + 1;
  s = rt.launch(kScalePtx, info, {1, 1, 1}, args);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "exceeds the device limit of 232448 bytes");
  EXPECT_EQ(get("set_shared_calls"), 2);
  EXPECT_EQ(get("launches"), 4);
}

TEST_F(FakeDriverTest, StaticSharedMemoryCountsAgainstTheLimit) {
  set("static_shared", 1024);
  Runtime &rt = create();
  DevicePtr x = 0;
  ASSERT_TRUE(rt.alloc(64, x).ok);
  KernelInfo info = scaleInfo();
  info.sharedBytes = 232448 - 512;
  Status s = rt.launch(kScalePtx, info, {1, 1, 1},
                       {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})});
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "device limit of 231424 bytes");
  EXPECT_CONTAINS(s.message, "1024 of static shared memory");
}

TEST_F(FakeDriverTest, TooManyThreadsForTheRegisters) {
  set("max_threads", 256);
  set("num_regs", 255);
  Runtime &rt = create();
  DevicePtr x = 0;
  ASSERT_TRUE(rt.alloc(64, x).ok);
  KernelInfo info = scaleInfo();
  info.numWarps = 16;
  Status s = rt.launch(kScalePtx, info, {1, 1, 1},
                       {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})});
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "a block of 512 threads");
  EXPECT_CONTAINS(s.message, "255 registers per thread");
  EXPECT_CONTAINS(s.message, "at most 256 threads");
  info.numWarps = 8;
  EXPECT_TRUE(rt.launch(kScalePtx, info, {1, 1, 1},
                        {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})})
                  .ok);
}

TEST_F(FakeDriverTest, LaunchFailure) {
  Runtime &rt = create();
  DevicePtr x = 0;
  ASSERT_TRUE(rt.alloc(64, x).ok);
  set("launch_error", 701);
  Status s = rt.launch(kScalePtx, scaleInfo(), {7, 1, 1},
                       {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})});
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "launch of kernel 'scale2' (grid 7x1x1, block 128");
  EXPECT_CONTAINS(s.message, "cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES "
                             "(too many resources requested for launch)");
}

TEST_F(FakeDriverTest, KernelFault) {
  Runtime &rt = create();
  DevicePtr x = 0;
  ASSERT_TRUE(rt.alloc(64, x).ok);
  set("sync_error", 700);
  Status s = rt.launch(kScalePtx, scaleInfo(), {1, 1, 1},
                       {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})});
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "kernel 'scale2' (grid 1x1x1");
  EXPECT_CONTAINS(s.message, "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory "
                             "access was encountered)");
  EXPECT_CONTAINS(s.message, "context is now unusable");
  // Asynchronous: the fault shows up at the next synchronising call.
  EXPECT_TRUE(rt.launch(kScalePtx, scaleInfo(), {1, 1, 1},
                        {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})}, false)
                  .ok);
  float host = 0;
  s = rt.copyToHost(&host, x, sizeof host);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "cuMemcpyDtoH");
  EXPECT_CONTAINS(s.message, "CUDA_ERROR_ILLEGAL_ADDRESS");
  s = rt.synchronize();
  EXPECT_CONTAINS(s.message, "cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS");
}

TEST_F(FakeDriverTest, Memory) {
  Runtime &rt = create();
  DevicePtr p = 0;
  ASSERT_TRUE(rt.alloc(4 * sizeof(float), p).ok);
  ASSERT_NE(p, 0u);
  const float in[4] = {1, 2, 3, 4};
  float out[4] = {};
  ASSERT_TRUE(rt.copyToDevice(p, in, sizeof in).ok);
  ASSERT_TRUE(rt.copyToHost(out, p, sizeof out).ok);
  EXPECT_EQ(std::memcmp(in, out, sizeof in), 0);
  EXPECT_TRUE(rt.copyToDevice(p, in, 0).ok);
  EXPECT_TRUE(rt.copyToHost(out, p, 0).ok);

  EXPECT_CONTAINS(rt.copyToDevice(0, in, 4).message, "null device destination");
  EXPECT_CONTAINS(rt.copyToDevice(p, nullptr, 4).message, "null host source");
  EXPECT_CONTAINS(rt.copyToHost(nullptr, p, 4).message, "null host destination");
  EXPECT_CONTAINS(rt.copyToHost(out, 0, 4).message, "null device source");
  Status s = rt.copyToHost(out, p, 1 << 20); // beyond the allocation
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "cuMemcpyDtoH of 1048576 bytes from 0x");
  EXPECT_CONTAINS(s.message, "CUDA_ERROR_INVALID_VALUE (invalid argument)");

  DevicePtr q = 123;
  s = rt.alloc(0, q);
  EXPECT_CONTAINS(s.message, "alloc of 0 bytes");
  EXPECT_EQ(q, 0u);
  s = rt.alloc(size_t(1) << 40, q);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "cuMemAlloc of 1099511627776 bytes failed: "
                             "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_TRUE(rt.free(0).ok);
  EXPECT_TRUE(rt.free(p).ok);
  EXPECT_FALSE(rt.free(p).ok); // twice
}

TEST_F(FakeDriverTest, Time) {
  Runtime &rt = create();
  int calls = 0;
  std::vector<double> ms = {42};
  Status s = rt.time(
      [&] {
        ++calls;
        return Status::success();
      },
      2, 5, ms);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(calls, 7);
  ASSERT_EQ(ms.size(), 5u);
  for (double m : ms)
    EXPECT_DOUBLE_EQ(m, 0.5);
  EXPECT_EQ(get("events_created"), 10);
  EXPECT_EQ(get("events_destroyed"), 10);

  calls = 0;
  s = rt.time(
      [&] {
        return ++calls == 4 ? Status::error("boom") : Status::success();
      },
      1, 5, ms);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "timed call 2 failed: boom");
  EXPECT_TRUE(ms.empty());
  EXPECT_EQ(get("events_created"), get("events_destroyed"));

  s = rt.time([] { return Status::error("cold"); }, 1, 1, ms);
  EXPECT_CONTAINS(s.message, "warm-up call 0 failed: cold");
  EXPECT_FALSE(rt.time([] { return Status::success(); }, 0, 0, ms).ok);
  EXPECT_FALSE(rt.time([] { return Status::success(); }, -1, 1, ms).ok);
  EXPECT_FALSE(rt.time(nullptr, 0, 1, ms).ok);
}

TEST_F(FakeDriverTest, TimeLaunches) {
  Runtime &rt = create();
  DevicePtr x = 0;
  ASSERT_TRUE(rt.alloc(64, x).ok);
  std::vector<double> ms;
  Status s = rt.time(
      [&] {
        return rt.launch(kScalePtx, scaleInfo(), {1, 1, 1},
                         {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})}, false);
      },
      3, 10, ms);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(ms.size(), 10u);
  EXPECT_EQ(get("launches"), 13);
  EXPECT_EQ(get("module_loads"), 1);
}

TEST_F(FakeDriverTest, TwoRuntimes) {
  Runtime &a = create();
  std::unique_ptr<Runtime> b;
  ASSERT_TRUE(Runtime::create(b).ok);
  ASSERT_TRUE(a.load(kScalePtx, scaleInfo()).ok);
  ASSERT_TRUE(b->load(kScalePtx, scaleInfo()).ok);
  EXPECT_EQ(get("module_loads"), 2); // each has its own cache
  b.reset();
  EXPECT_EQ(get("ctx_releases"), 1);
  EXPECT_TRUE(a.load(kScalePtx, scaleInfo()).ok);
}

} // namespace

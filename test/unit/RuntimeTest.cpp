//===- RuntimeTest.cpp - the runtime's host logic, without a GPU ----------===//
//
// KernelInfo JSON, argument packing, launch limits and cache keys need no
// driver. The driver paths run against test/unit/FakeCuda.cpp, a fake
// libcuda loaded through TESSERA_LIBCUDA exactly as the real one is, and
// against no driver at all (this build machine has no libcuda.so.1; on a
// GPU machine the real driver is accepted instead).
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"
#include "runtime/GpuCase.h"
#include "runtime/KernelInfo.h"
#include "runtime/Ptx.h"

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
      << "  message: " << (haystack)                                           \
      << "\n  expected to contain: " << (needle)

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

// Recorded GPU cases keep non-finite scalars (the SSD dt limits are -inf
// and inf): a stream's operator>> would read them as 0.
TEST(GpuCaseTest, NonFiniteScalarsRoundTrip) {
  tessera::gpucase::Case c;
  c.name = "inf_scalars";
  c.ptx = ".version 8.0\n";
  c.info.name = "k";
  c.info.args = {ArgInfo{"lo", ArgInfo::Kind::Scalar, ScalarType::f32},
                 ArgInfo{"hi", ArgInfo::Kind::Scalar, ScalarType::f32},
                 ArgInfo{"n", ArgInfo::Kind::Scalar, ScalarType::index}};
  for (double v : {-double(INFINITY), double(INFINITY), 7.0}) {
    tessera::gpucase::Arg a;
    a.isView = false;
    a.scalarType = v == 7.0 ? ScalarType::index : ScalarType::f32;
    a.scalar = v;
    c.args.push_back(a);
  }
  std::string dir = ::testing::TempDir() + "/tessera_gpucase";
  ASSERT_EQ(tessera::gpucase::write(c, dir), "");
  tessera::gpucase::Case back;
  ASSERT_EQ(tessera::gpucase::read(dir + "/inf_scalars", back), "");
  ASSERT_EQ(back.args.size(), 3u);
  EXPECT_EQ(back.args[0].scalar, -INFINITY);
  EXPECT_EQ(back.args[1].scalar, INFINITY);
  EXPECT_EQ(back.args[2].scalar, 7.0);
}

TEST(KernelInfoTest, ScalarTypeNamesAndSizes) {
  const std::pair<ScalarType, int> all[] = {
      {ScalarType::f16, 2},  {ScalarType::bf16, 2}, {ScalarType::f32, 4},
      {ScalarType::f64, 8},  {ScalarType::i1, 1},   {ScalarType::i8, 1},
      {ScalarType::i16, 2},  {ScalarType::i32, 4},  {ScalarType::i64, 8},
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
  info.args = {
      view("a", ScalarType::bf16, 2, 16), view("b", ScalarType::f16, 3, 128),
      view("c", ScalarType::f64, 0, 8),   view("mask", ScalarType::i1, 1, 1),
      view("i8s", ScalarType::i8, 1, 4),  view("i16s", ScalarType::i16, 1, 2),
      view("idx", ScalarType::index, 1),  view("w", ScalarType::i32, 2),
      view("l", ScalarType::i64, 1),      scalar("m", ScalarType::index),
      scalar("k", ScalarType::i64),       scalar("n", ScalarType::i32),
      scalar("alpha", ScalarType::f32),   scalar("beta", ScalarType::f64)};
  info.args[2].written = true; // c: the kernel stores to it
  info.tma = {{0, {64, 64}, 128}, {1, {1, 32, 64}, 0}, {7, {16, 4}, 0}};
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
      EXPECT_EQ(a.args[i].written, b.args[i].written);
    }
  }
  ASSERT_EQ(a.tma.size(), b.tma.size());
  for (size_t i = 0; i < a.tma.size(); ++i) {
    SCOPED_TRACE("tensor map " + std::to_string(i));
    EXPECT_EQ(a.tma[i].arg, b.tma[i].arg);
    EXPECT_EQ(a.tma[i].box, b.tma[i].box);
    EXPECT_EQ(a.tma[i].swizzle, b.tma[i].swizzle);
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
  EXPECT_EQ(info->target, ""); // optional
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
      {"",
       {"malformed JSON", "line 1, column 1", "expected a value",
        "end of input"}},
      {"   \n  ", {"line 2, column 3", "end of input"}},
      {"{", {"expected a string key"}},
      {"{\"name\": \"k\",\n \"args\": [}",
       {"line 2, column 11", "expected a value, found '}'"}},
      {"{\"name\": \"k\" \"args\": []}", {"expected ',' or '}' in object"}},
      {"{\"name\" \"k\"}", {"expected ':' after key \"name\""}},
      {"{\"name\": \"k\", \"args\": [1 2]}", {"expected ',' or ']' in array"}},
      {"{\"name\": \"k\", \"args\": []} x",
       {"unexpected text after the JSON value"}},
      {"{\"name\": \"k\", \"name\": \"j\", \"args\": []}",
       {"duplicate key \"name\""}},
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
      {"{\"name\": \"k\", \"args\": [], \"warps\": 4}",
       {"key \"warps\"", "unknown key"}},
      {"{\"name\": 3, \"args\": []}",
       {"key \"name\"", "expected a string, found a number"}},
      {"{\"name\": \"\", \"args\": []}",
       {"key \"name\"", "the kernel name is empty"}},
      {"{\"name\": \"k\", \"target\": null, \"args\": []}",
       {"key \"target\"", "found null"}},
      {"{\"name\": \"k\", \"num_warps\": 2.5, \"args\": []}",
       {"key \"num_warps\"", "expected an integer, found 2.5"}},
      {"{\"name\": \"k\", \"num_warps\": \"4\", \"args\": []}",
       {"key \"num_warps\"", "found a string"}},
      {"{\"name\": \"k\", \"num_warps\": true, \"args\": []}",
       {"key \"num_warps\"", "found a boolean"}},
      {"{\"name\": \"k\", \"num_warps\": 0, \"args\": []}",
       {"key \"num_warps\"", "0 is out of range [1, 32]"}},
      {"{\"name\": \"k\", \"num_warps\": 33, \"args\": []}",
       {"key \"num_warps\"", "out of range"}},
      {"{\"name\": \"k\", \"shared_bytes\": -1, \"args\": []}",
       {"key \"shared_bytes\"", "out of range"}},
      {"{\"name\": \"k\", \"shared_bytes\": 4294967296, \"args\": []}",
       {"key \"shared_bytes\"", "out of range"}},
      {"{\"name\": \"k\", \"shared_bytes\": 1e3, \"args\": []}",
       {"key \"shared_bytes\"", "expected an integer"}},
      {"{\"name\": \"k\", \"shared_bytes\": 99999999999999999999, \"args\": "
       "[]}",
       {"key \"shared_bytes\"", "expected an integer"}},
      {"{\"name\": \"k\", \"args\": {}}",
       {"key \"args\"", "expected an array, found an object"}},
      {"{\"name\": \"k\", \"args\": [3]}",
       {"key \"args[0]\"", "expected an object"}},
      {"{\"name\": \"k\", \"args\": [{\"kind\": \"view\", \"type\": \"f32\", "
       "\"rank\": 1}]}",
       {"key \"args[0]\"", "missing key \"name\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"type\": \"f32\"}]}",
       {"key \"args[0]\"", "missing key \"kind\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"scalar\"}]}",
       {"key \"args[0]\"", "missing key \"type\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": 1, \"kind\": \"scalar\", "
       "\"type\": \"i32\"}]}",
       {"key \"args[0].name\"", "expected a string"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"n\", \"kind\": \"scalar\", "
       "\"type\": \"i32\"}, {\"name\": \"x\", \"kind\": \"tensor\", \"type\": "
       "\"f32\"}]}",
       {"key \"args[1].kind\"", "unknown kind \"tensor\"",
        "\"view\" or \"scalar\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", "
       "\"type\": \"f8\", \"rank\": 1}]}",
       {"key \"args[0].type\"", "unknown type \"f8\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", "
       "\"type\": 4, \"rank\": 1}]}",
       {"key \"args[0].type\"", "expected a string"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", "
       "\"type\": \"f32\"}]}",
       {"key \"args[0]\"", "missing key \"rank\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", "
       "\"type\": \"f32\", \"rank\": -1}]}",
       {"key \"args[0].rank\"", "out of range"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", "
       "\"type\": \"f32\", \"rank\": 1, \"align\": 12}]}",
       {"key \"args[0].align\"", "12 is not a power of two"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", "
       "\"type\": \"f32\", \"rank\": 1, \"align\": 0}]}",
       {"key \"args[0].align\"", "out of range"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", "
       "\"type\": \"f32\", \"rank\": 1, \"stride\": 1}]}",
       {"key \"args[0].stride\"", "unknown key"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"n\", \"kind\": \"scalar\", "
       "\"type\": \"i32\", \"align\": 4}]}",
       {"key \"args[0].align\"", "scalars take no \"align\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"n\", \"kind\": \"scalar\", "
       "\"type\": \"i32\", \"written\": true}]}",
       {"key \"args[0].written\"", "scalars take no \"written\""}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"x\", \"kind\": \"view\", "
       "\"type\": \"f32\", \"rank\": 1, \"written\": 1}]}",
       {"key \"args[0].written\"", "expected true or false, found a number"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"n\", \"kind\": \"scalar\", "
       "\"type\": \"i32\", \"rank\": 2}]}",
       {"key \"args[0].rank\"", "out of range [0, 0]"}},
      {"{\"name\": \"k\", \"args\": [{\"name\": \"n\", \"kind\": \"scalar\", "
       "\"type\": \"bf16\"}]}",
       {"key \"args[0].type\"", "not part of the kernel ABI"}},
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

TEST(KernelInfoTest, NumParamsCountsTensorMaps) {
  KernelInfo info;
  info.name = "k";
  info.args = {view("a", ScalarType::bf16, 2), scalar("n", ScalarType::i32)};
  EXPECT_EQ(info.numParams(), 6);
  info.tma = {{0, {128, 64}, 128}, {0, {64, 64}, 128}};
  EXPECT_EQ(info.numParams(), 8);
  EXPECT_EQ(sampleInfo().numParams(),
            5 + 7 + 1 + 3 + 3 + 3 + 3 + 5 + 3 + 5 + 3);
}

TEST(KernelInfoTest, JsonOfTensorMaps) {
  KernelInfo info;
  info.name = "k";
  info.args = {view("a", ScalarType::bf16, 2), view("b", ScalarType::f32, 3)};
  // No tensor maps: no key (the text is what it was before TMA).
  EXPECT_EQ(toJson(info).find("tma"), std::string::npos);
  info.tma = {{0, {128, 64}, 128}, {1, {2, 8, 4}, 0}};
  std::string json = toJson(info);
  EXPECT_CONTAINS(json, "\"tma\": [\n  {\"arg\": 0, \"box\": [128, 64], "
                        "\"swizzle\": 128},\n  {\"arg\": 1, \"box\": [2, 8, "
                        "4], \"swizzle\": 0}\n ]}");
  std::string error;
  std::optional<KernelInfo> back = fromJson(json, &error);
  ASSERT_TRUE(back.has_value()) << error << "\n" << json;
  expectSameInfo(info, *back);
  EXPECT_EQ(toJson(*back), json);

  // "tma" may come before "args", may be empty, and swizzle defaults to 0.
  back = fromJson(R"({"tma": [{"box": [8, 16], "arg": 0}], "name": "k",
                      "args": [{"name": "a", "kind": "view", "type": "f16",
                                "rank": 2}]})",
                  &error);
  ASSERT_TRUE(back.has_value()) << error;
  ASSERT_EQ(back->tma.size(), 1u);
  EXPECT_EQ(back->tma[0].arg, 0);
  EXPECT_EQ(back->tma[0].box, (std::vector<int64_t>{8, 16}));
  EXPECT_EQ(back->tma[0].swizzle, 0);
  back = fromJson(R"({"name": "k", "args": [], "tma": []})", &error);
  ASSERT_TRUE(back.has_value()) << error;
  EXPECT_TRUE(back->tma.empty());
}

TEST(KernelInfoTest, JsonTensorMapErrors) {
  // Arguments: a (bf16, rank 2), n (i32 scalar), m (i1, rank 1), big (f32,
  // rank 6), z (f32, rank 0).
  const std::string head =
      R"({"name": "k", "args": [
         {"name": "a", "kind": "view", "type": "bf16", "rank": 2},
         {"name": "n", "kind": "scalar", "type": "i32"},
         {"name": "m", "kind": "view", "type": "i1", "rank": 1},
         {"name": "big", "kind": "view", "type": "f32", "rank": 6},
         {"name": "z", "kind": "view", "type": "f32", "rank": 0}],
       "tma": )";
  struct Case {
    const char *tma;
    std::vector<const char *> expected;
  };
  const Case cases[] = {
      {"{}", {"key \"tma\"", "expected an array, found an object"}},
      {"[3]", {"key \"tma[0]\"", "expected an object"}},
      {"[{\"box\": [8, 8]}]", {"key \"tma[0]\"", "missing key \"arg\""}},
      {"[{\"arg\": 0}]", {"key \"tma[0]\"", "missing key \"box\""}},
      {"[{\"arg\": 0, \"box\": [8, 8], \"pad\": 0}]",
       {"key \"tma[0].pad\"", "unknown key (expected arg, box, swizzle)"}},
      {"[{\"arg\": 5, \"box\": [8, 8]}]",
       {"key \"tma[0].arg\"",
        "argument index 5 is out of range (the kernel has 5 arguments)"}},
      {"[{\"arg\": -1, \"box\": [8, 8]}]",
       {"key \"tma[0].arg\"", "out of range"}},
      {"[{\"arg\": \"a\", \"box\": [8, 8]}]",
       {"key \"tma[0].arg\"", "expected an integer"}},
      {"[{\"arg\": 0, \"box\": [8, 8]}, {\"arg\": 1, \"box\": [8]}]",
       {"key \"tma[1].arg\"",
        "argument 1 'n' is a scalar; tensor maps describe views"}},
      {"[{\"arg\": 2, \"box\": [16]}]",
       {"key \"tma[0].arg\"", "element type i1",
        "f16, bf16, f32, f64, i8, i16, i32 or i64"}},
      {"[{\"arg\": 3, \"box\": [1, 1, 1, 1, 1, 4]}]",
       {"key \"tma[0].arg\"", "argument 3 'big' is a rank-6 view",
        "rank 1 to 5"}},
      {"[{\"arg\": 4, \"box\": []}]", {"key \"tma[0].arg\"", "rank-0 view"}},
      {"[{\"arg\": 0, \"box\": 8}]",
       {"key \"tma[0].box\"", "expected an array, found a number"}},
      {"[{\"arg\": 0, \"box\": [64]}]",
       {"key \"tma[0].box\"",
        "the box has 1 dimensions, but argument 0 'a' has rank 2"}},
      {"[{\"arg\": 0, \"box\": [8, 8, 8]}]",
       {"key \"tma[0].box\"", "has rank 2"}},
      {"[{\"arg\": 0, \"box\": [0, 8]}]",
       {"key \"tma[0].box[0]\"", "0 is out of range [1, 256]"}},
      {"[{\"arg\": 0, \"box\": [257, 8]}]",
       {"key \"tma[0].box[0]\"", "257 is out of range [1, 256]"}},
      {"[{\"arg\": 0, \"box\": [8, 1.5]}]",
       {"key \"tma[0].box[1]\"", "expected an integer"}},
      {"[{\"arg\": 0, \"box\": [8, 4]}]",
       {"key \"tma[0].box[1]\"", "innermost dimension (box[1] = 4 bf16) is 8 "
                                 "bytes, not a multiple of 16"}},
      {"[{\"arg\": 0, \"box\": [8, 128], \"swizzle\": 128}]",
       {"key \"tma[0].box[1]\"",
        "is 256 bytes, more than the 128-byte swizzle span"}},
      {"[{\"arg\": 0, \"box\": [8, 32], \"swizzle\": 32}]",
       {"key \"tma[0].box[1]\"",
        "is 64 bytes, more than the 32-byte swizzle span"}},
      {"[{\"arg\": 0, \"box\": [8, 8], \"swizzle\": 16}]",
       {"key \"tma[0].swizzle\"", "swizzle 16 is not 0, 32, 64 or 128"}},
      {"[{\"arg\": 0, \"box\": [8, 8], \"swizzle\": 256}]",
       {"key \"tma[0].swizzle\"", "256 is out of range [0, 128]"}},
      {"[{\"arg\": 0, \"box\": [8, 8], \"swizzle\": true}]",
       {"key \"tma[0].swizzle\"", "found a boolean"}},
  };
  for (const Case &c : cases) {
    std::string json = head + c.tma + "}";
    SCOPED_TRACE("JSON: " + json);
    std::string error;
    EXPECT_FALSE(fromJson(json, &error).has_value());
    EXPECT_CONTAINS(error, "KernelInfo JSON");
    for (const char *expected : c.expected)
      EXPECT_CONTAINS(error, expected);
  }
  // The same text with a valid entry parses (the cases fail for their own
  // reason), and the error names the line of the offending value.
  std::string error;
  EXPECT_TRUE(
      fromJson(head + "[{\"arg\": 0, \"box\": [8, 64], \"swizzle\": 128}]}",
               &error)
          .has_value())
      << error;
  EXPECT_FALSE(fromJson(head + "[{\"arg\": 0,\n \"box\": [8, 4]}]}", &error)
                   .has_value());
  EXPECT_CONTAINS(error, "line 8");
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
  info.args = {
      view("x", ScalarType::f32, 2),    scalar("m", ScalarType::index),
      scalar("k", ScalarType::i64),     scalar("n", ScalarType::i32),
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
  EXPECT_EQ(slotAs<int64_t>(st[1]), 3); // sizes
  EXPECT_EQ(slotAs<int64_t>(st[2]), 5);
  EXPECT_EQ(slotAs<int64_t>(st[3]), 5); // strides
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
  Status s =
      packArgs(info,
               {int64_t(INT32_MIN), int64_t(INT32_MAX), int64_t(3), int64_t(-2),
                int64_t(INT64_MIN), std::numeric_limits<double>::infinity()},
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
  int index; // which argument of packGoodArgs() to replace; -1: see args
  Arg replacement;
  std::vector<const char *> expected;
};

TEST(PackArgsTest, Errors) {
  KernelInfo info = packInfo();
  const PackErrorCase cases[] = {
      {"view given a scalar",
       0,
       int64_t(4),
       {"argument 0 'x'", "rank-2 f32 view",
        "expected a view, got an integer scalar"}},
      {"view given a double",
       6,
       2.0,
       {"argument 6 'p'", "expected a view, got a floating-point scalar"}},
      {"integer given a view",
       1,
       viewArg(0x1000, {}, {}),
       {"argument 1 'm'", "index scalar",
        "expected an integer scalar, got a view"}},
      {"integer given a double",
       3,
       2.0,
       {"argument 3 'n'", "i32 scalar",
        "expected an integer scalar, got a floating-point scalar"}},
      {"float given a view",
       4,
       viewArg(0x1000, {}, {}),
       {"argument 4 'alpha'", "expected a floating-point scalar, got a view"}},
      {"too few sizes",
       0,
       viewArg(0x1000, {3}, {5, 1}),
       {"argument 0 'x'",
        "view rank mismatch: expected rank 2, got 1 sizes and 2 strides"}},
      {"too many strides",
       0,
       viewArg(0x1000, {3, 5}, {5, 1, 1}),
       {"view rank mismatch", "got 2 sizes and 3 strides"}},
      {"rank-0 view given sizes",
       6,
       viewArg(0x1000, {1}, {1}),
       {"argument 6 'p'", "view rank mismatch"}},
      {"null pointer",
       0,
       viewArg(0, {3, 5}, {5, 1}),
       {"argument 0 'x'", "null pointer"}},
      {"misaligned pointer",
       0,
       viewArg(0x1008, {3, 5}, {5, 1}),
       {"argument 0 'x'", "pointer 0x1008 is misaligned", "16-byte alignment"}},
      {"misaligned by one byte",
       6,
       viewArg(0x1001, {}, {}),
       {"argument 6 'p'", "2-byte alignment"}},
      {"negative size",
       0,
       viewArg(0x1000, {3, -1}, {5, 1}),
       {"argument 0 'x'", "negative size -1 in dimension 1"}},
      {"i32 too large",
       3,
       int64_t(INT32_MAX) + 1,
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

/// Kernel k(x, y, n) that writes y (of rank `yRank`), f32 views.
KernelInfo writesSecondView(int yRank) {
  KernelInfo info;
  info.name = "k";
  info.args = {view("x", ScalarType::f32, 1, 4),
               view("y", ScalarType::f32, yRank, 4),
               scalar("n", ScalarType::index)};
  info.args[1].written = true;
  return info;
}

/// A view the kernel writes may not overlap another view argument (the
/// compiler assumes distinct views do not alias); read-only views may.
TEST(PackArgsTest, WrittenViewsMustNotAlias) {
  KernelInfo info = writesSecondView(1);
  struct Case {
    const char *what;
    Arg x, y;
    bool ok;
  };
  const Case cases[] = {
      {"disjoint", viewArg(0x1000, {4}, {1}), viewArg(0x1010, {4}, {1}), true},
      {"y starts inside x", viewArg(0x1000, {4}, {1}),
       viewArg(0x100c, {4}, {1}), false},
      {"the same buffer (in place)", viewArg(0x1000, {4}, {1}),
       viewArg(0x1000, {4}, {1}), false},
      {"x inside y", viewArg(0x1004, {1}, {1}), viewArg(0x1000, {4}, {1}),
       false},
      {"interleaved (refused: the spans overlap)", viewArg(0x1000, {4}, {2}),
       viewArg(0x1004, {4}, {2}), false},
      {"x empty", viewArg(0x1000, {0}, {1}), viewArg(0x1000, {4}, {1}), true},
      {"x backwards, ends below y", viewArg(0x1010, {4}, {-1}),
       viewArg(0x1014, {4}, {1}), true},
      {"x backwards, reaches into y", viewArg(0x1010, {4}, {-1}),
       viewArg(0x1000, {2}, {1}), false},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    PackedArgs packed;
    Status s = packArgs(info, {c.x, c.y, int64_t(4)}, packed);
    EXPECT_EQ(s.ok, c.ok) << s.message;
    if (!c.ok) {
      EXPECT_CONTAINS(s.message, "argument 1 'y'");
      EXPECT_CONTAINS(s.message, "(written by the kernel) overlaps");
      EXPECT_CONTAINS(s.message, "argument 0 'x'");
    }
  }
  // Neither written: overlapping read-only views are fine.
  info.args[1].written = false;
  PackedArgs packed;
  EXPECT_TRUE(packArgs(info,
                       {viewArg(0x1000, {4}, {1}), viewArg(0x1000, {4}, {1}),
                        int64_t(4)},
                       packed)
                  .ok);
}

TEST(PackArgsTest, WrittenViewsMustNotOverlapThemselves) {
  KernelInfo info = writesSecondView(2);
  // A written view whose own elements share addresses: stride 0, or rows
  // that overlap (tile-order-global-memory orders a view's accesses by
  // tile). Read-only, or with gaps or reversed, it is fine.
  const struct {
    const char *what;
    Arg y;
    bool ok;
  } selfCases[] = {
      {"stride 0", viewArg(0x2000, {2, 4}, {0, 1}), false},
      {"rows overlap", viewArg(0x2000, {2, 4}, {2, 1}), false},
      {"transposed, rows overlap", viewArg(0x2000, {4, 2}, {1, 2}), false},
      {"rows with gaps", viewArg(0x2000, {2, 4}, {8, 1}), true},
      {"reversed rows", viewArg(0x2040, {2, 4}, {-4, 1}), true},
      {"broadcast along a dimension of one", viewArg(0x2000, {1, 4}, {0, 1}),
       true},
  };
  for (const auto &c : selfCases) {
    SCOPED_TRACE(c.what);
    PackedArgs packed;
    Status s =
        packArgs(info, {viewArg(0x1000, {4}, {1}), c.y, int64_t(4)}, packed);
    EXPECT_EQ(s.ok, c.ok) << s.message;
    if (!c.ok)
      EXPECT_CONTAINS(s.message, "maps two elements to one address");
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
// Tensor maps (TMA)
//===----------------------------------------------------------------------===//

/// a: a rank-2 bf16 view read through a tensor map; n: an i32.
KernelInfo tmaInfo() {
  KernelInfo info;
  info.name = "k";
  info.args = {view("a", ScalarType::bf16, 2), scalar("n", ScalarType::i32)};
  info.tma = {{0, {128, 64}, 128}};
  return info;
}

// A 100 x 72 bf16 matrix in rows of 80 elements (160 bytes).
std::vector<Arg> tmaGoodArgs() {
  return {viewArg(0x7f0000001000, {100, 72}, {80, 1}), int64_t(9)};
}

TEST(PackArgsTest, TensorMapAddresses) {
  KernelInfo info = tmaInfo();
  PackedArgs packed;
  Status s = packArgs(info, tmaGoodArgs(), packed, {0x5000c0});
  ASSERT_TRUE(s.ok) << s.message;
  ASSERT_EQ(packed.storage.size(), static_cast<size_t>(info.numParams()));
  ASSERT_EQ(packed.storage.size(), 7u);
  EXPECT_EQ(slotAs<uint64_t>(packed.storage[0]), 0x7f0000001000u);
  EXPECT_EQ(slotAs<int32_t>(packed.storage[5]), 9);
  EXPECT_EQ(slotAs<uint64_t>(packed.storage[6]), 0x5000c0u); // last: the map
  for (size_t i = 0; i < packed.storage.size(); ++i)
    EXPECT_EQ(packed.pointers[i], packed.storage[i].data()) << i;

  struct Case {
    const char *what;
    std::vector<DevicePtr> addresses;
    const char *expected;
  };
  const Case cases[] = {
      {"none",
       {},
       "kernel 'k' has 1 tensor maps (TMA), but 0 tensor map "
       "addresses were given"},
      {"two", {0x5000c0, 0x500100}, "but 2 tensor map addresses"},
      {"null", {0}, "argument 'a' (TMA): tensor map 0 address 0x0 is null"},
      {"misaligned", {0x500020}, "address 0x500020 is not 64-byte aligned"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    packed.storage.resize(2);
    s = packArgs(info, tmaGoodArgs(), packed, c.addresses);
    EXPECT_FALSE(s.ok);
    EXPECT_CONTAINS(s.message, c.expected);
    EXPECT_TRUE(packed.storage.empty());
  }
  // A kernel without tensor maps takes no addresses.
  s = packArgs(packInfo(), packGoodArgs(), packed, {0x5000c0});
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "kernel 'k' has 0 tensor maps (TMA), but 1");
}

TEST(TensorMapArgsTest, DriverOrderIsInnermostFirst) {
  KernelInfo info;
  info.name = "k";
  info.args = {scalar("n", ScalarType::index), view("x", ScalarType::f16, 3),
               view("y", ScalarType::f32, 1)};
  info.tma = {{1, {2, 16, 64}, 128}, {2, {32}, 0}, {1, {1, 8, 16}, 32}};
  // x: 4 x 100 x 72 f16 elements, rows of 80, planes of 100 rows.
  std::vector<Arg> args = {int64_t(5),
                           viewArg(0x10000, {4, 100, 72}, {8000, 80, 1}),
                           viewArg(0x20010, {1000}, {1})};
  std::vector<TensorMapArgs> maps;
  Status s = tensorMapArgs(info, args, maps);
  ASSERT_TRUE(s.ok) << s.message;
  ASSERT_EQ(maps.size(), 3u);
  const TensorMapArgs &x = maps[0];
  EXPECT_EQ(x.dataType, 6); // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  EXPECT_EQ(x.rank, 3);
  EXPECT_EQ(x.address, 0x10000u);
  EXPECT_EQ(x.globalDim, (std::array<uint64_t, 5>{72, 100, 4, 0, 0}));
  EXPECT_EQ(x.globalStrides, (std::array<uint64_t, 4>{160, 16000, 0, 0}));
  EXPECT_EQ(x.boxDim, (std::array<uint32_t, 5>{64, 16, 2, 0, 0}));
  EXPECT_EQ(x.elementStrides, (std::array<uint32_t, 5>{1, 1, 1, 0, 0}));
  EXPECT_EQ(x.interleave, 0);
  EXPECT_EQ(x.swizzle, 3);     // CU_TENSOR_MAP_SWIZZLE_128B
  EXPECT_EQ(x.l2Promotion, 3); // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
  EXPECT_EQ(x.oobFill, 0);     // zeros
  const TensorMapArgs &y = maps[1];
  EXPECT_EQ(y.dataType, 7); // CU_TENSOR_MAP_DATA_TYPE_FLOAT32
  EXPECT_EQ(y.rank, 1);
  EXPECT_EQ(y.globalDim[0], 1000u);
  EXPECT_EQ(y.globalStrides, (std::array<uint64_t, 4>{}));
  EXPECT_EQ(y.boxDim[0], 32u);
  EXPECT_EQ(y.swizzle, 0);
  EXPECT_EQ(maps[2].boxDim, (std::array<uint32_t, 5>{16, 8, 1, 0, 0}));
  EXPECT_EQ(maps[2].swizzle, 1); // CU_TENSOR_MAP_SWIZZLE_32B

  // Every element type TMA copies, with its CUtensorMapDataType.
  const std::pair<ScalarType, int> types[] = {
      {ScalarType::i8, 0},  {ScalarType::i16, 1}, {ScalarType::i32, 3},
      {ScalarType::i64, 5}, {ScalarType::f16, 6}, {ScalarType::f32, 7},
      {ScalarType::f64, 8}, {ScalarType::bf16, 9}};
  for (auto [type, code] : types) {
    SCOPED_TRACE(scalarTypeName(type));
    KernelInfo one;
    one.name = "k";
    one.args = {view("v", type, 1)};
    one.tma = {{0, {256 / scalarTypeSize(type)}, 0}};
    s = tensorMapArgs(one, {viewArg(0x1000, {3}, {1})}, maps);
    ASSERT_TRUE(s.ok) << s.message;
    EXPECT_EQ(maps[0].dataType, code);
  }
  // A swizzle of 64 bytes.
  KernelInfo one;
  one.name = "k";
  one.args = {view("v", ScalarType::bf16, 2)};
  one.tma = {{0, {4, 32}, 64}};
  ASSERT_TRUE(tensorMapArgs(one, {viewArg(0x1000, {3, 3}, {8, 1})}, maps).ok);
  EXPECT_EQ(maps[0].swizzle, 2); // CU_TENSOR_MAP_SWIZZLE_64B
}

TEST(TensorMapArgsTest, RequirementsOfTheView) {
  KernelInfo info = tmaInfo();
  KernelInfo loose = info; // a pointer alignment TMA does not accept
  loose.args[0].align = 2;
  const int64_t big = int64_t(1) << 32;
  struct Case {
    const char *what;
    const KernelInfo *info;
    ViewArg view;
    std::vector<const char *> expected;
  };
  const Case cases[] = {
      {"inner stride",
       &info,
       viewArg(0x1000, {64, 64}, {1, 4096}),
       {"kernel 'k': argument 'a' (TMA): innermost stride must be 1, got "
        "4096"}},
      {"inner stride 0",
       &info,
       viewArg(0x1000, {64, 64}, {64, 0}),
       {"innermost stride must be 1, got 0"}},
      {"unaligned row stride",
       &info,
       viewArg(0x1000, {64, 64}, {100, 1}),
       {"argument 'a' (TMA): stride 100 in dimension 0 is 200 bytes, not a "
        "multiple of 16"}},
      {"negative stride",
       &info,
       viewArg(0x1000, {64, 64}, {-64, 1}),
       {"argument 'a' (TMA): stride -64 in dimension 0 is negative"}},
      {"huge stride",
       &info,
       viewArg(0x1000, {64, 64}, {int64_t(1) << 39, 1}),
       {"stride 549755813888 in dimension 0 (of 2-byte elements) is 2^40 "
        "bytes or more"}},
      {"null pointer",
       &info,
       viewArg(0, {64, 64}, {64, 1}),
       {"kernel 'k'", "'a'", "null pointer"}},
      {"misaligned pointer",
       &loose,
       viewArg(0x1008, {64, 64}, {64, 1}),
       {"kernel 'k': argument 'a' (TMA): pointer 0x1008 is not 16-byte "
        "aligned"}},
      {"size 0",
       &info,
       viewArg(0x1000, {0, 64}, {64, 1}),
       {"argument 'a' (TMA): size 0 in dimension 0 is out of range",
        "[1, 2^32)"}},
      {"size 2^32",
       &info,
       viewArg(0x1000, {1, big}, {big, 1}),
       {"size 4294967296 in dimension 1 is out of range"}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    std::vector<Arg> args = {c.view, int64_t(1)};
    std::vector<TensorMapArgs> maps(1);
    Status s = tensorMapArgs(*c.info, args, maps);
    EXPECT_FALSE(s.ok);
    for (const char *expected : c.expected)
      EXPECT_CONTAINS(s.message, expected);
    EXPECT_TRUE(maps.empty());
    // packArgs checks the same.
    PackedArgs packed;
    s = packArgs(*c.info, args, packed, {0x5000c0});
    EXPECT_FALSE(s.ok);
    for (const char *expected : c.expected)
      EXPECT_CONTAINS(s.message, expected);
  }
  // Broadcast (stride 0) outer dimensions and the largest size are fine.
  std::vector<TensorMapArgs> maps;
  EXPECT_TRUE(
      tensorMapArgs(info, {viewArg(0x1000, {64, 64}, {0, 1}), int64_t(1)}, maps)
          .ok);
  EXPECT_TRUE(
      tensorMapArgs(info, {viewArg(0x1000, {1, big - 1}, {big, 1}), int64_t(1)},
                    maps)
          .ok);
  // The ordinary argument checks come first.
  Status s = tensorMapArgs(info, {int64_t(1), int64_t(1)}, maps);
  EXPECT_CONTAINS(s.message, "expected a view, got an integer scalar");
  s = tensorMapArgs(info, {viewArg(0x1000, {64}, {1}), int64_t(1)}, maps);
  EXPECT_CONTAINS(s.message, "view rank mismatch");
}

TEST(TensorMapArgsTest, InvalidTmaInfo) {
  struct Case {
    const char *what;
    TmaInfo tma;
    const char *expected;
  };
  const Case cases[] = {
      {"arg",
       {2, {64, 64}, 0},
       "tensor map 0 (TMA): argument index 2 is out of range"},
      {"scalar", {1, {64}, 0}, "argument 1 'n' is a scalar"},
      {"box rank", {0, {64}, 0}, "the box has 1 dimensions"},
      {"box dim",
       {0, {512, 64}, 0},
       "box dimension 512 is out of range [1, 256]"},
      {"swizzle", {0, {64, 64}, 96}, "swizzle 96 is not 0, 32, 64 or 128"},
      {"span", {0, {64, 128}, 128}, "more than the 128-byte swizzle span"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    KernelInfo info = tmaInfo();
    info.tma = {c.tma};
    PackedArgs packed;
    Status s = packArgs(info, tmaGoodArgs(), packed, {0x5000c0});
    EXPECT_FALSE(s.ok);
    EXPECT_CONTAINS(s.message, "kernel 'k'");
    EXPECT_CONTAINS(s.message, c.expected);
    std::string field;
    EXPECT_NE(checkTmaInfo(c.tma, info.args, &field), "");
    EXPECT_FALSE(field.empty());
  }
  EXPECT_EQ(checkTmaInfo(tmaInfo().tma[0], tmaInfo().args), "");
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
      {{1, 1, 1},
       0,
       0,
       0,
       {"0 warps (0 threads) is out of range", "1024 threads"}},
      {{1, 1, 1}, 33, 0, 0, {"33 warps (1056 threads)"}},
      {{1, 1, 1}, -1, 0, 0, {"-1 warps"}},
      {{1, 1, 1},
       4,
       232449,
       232448,
       {"dynamic shared memory of 232449 bytes exceeds the device limit of "
        "232448 bytes"}},
      {{1, 1, 1}, 4, -1, 1000, {"negative dynamic shared memory"}},
  };
  for (const Case &c : cases) {
    Status s = checkLaunchConfig(c.grid, c.warps, c.shared, c.maxShared);
    EXPECT_FALSE(s.ok);
    for (const char *expected : c.expected)
      EXPECT_CONTAINS(s.message, expected);
  }
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
  EXPECT_EQ(detail::abiParamSizes(info), (std::vector<int>{8, 8, 8, 4, 4, 8}));
  detail::PtxEntry entry;
  entry.name = "kern";
  entry.paramSizes = {8, 8, 8, 4, 4, 8};
  EXPECT_EQ(detail::checkParamsMatch(info, entry), "");
  entry.paramSizes = {8, 8, 8, 8, 4, 8};
  std::string m = detail::checkParamsMatch(info, entry);
  EXPECT_CONTAINS(m, "does not match its PTX entry point");
  EXPECT_CONTAINS(m, "[8 8 8 4 4 8]");
  EXPECT_CONTAINS(m,
                  "first difference at .param 3: argument 1 'n' (i32 scalar)");
  entry.paramSizes = {8, 8};
  EXPECT_CONTAINS(detail::checkParamsMatch(info, entry),
                  ".param 2: argument 0 'x' (rank-1 f32 view, stride 0)");
  entry.paramSizes = {8, 8, 8, 4, 4, 8, 8};
  EXPECT_CONTAINS(detail::checkParamsMatch(info, entry),
                  "no argument (the KernelInfo has only 6 .params)");
  entry.paramsKnown = false; // unknown: nothing to check
  EXPECT_EQ(detail::checkParamsMatch(info, entry), "");

  // Tensor map addresses come last, one .u64 each.
  info.tma = {{0, {64}, 0}, {0, {32}, 0}};
  EXPECT_EQ(detail::abiParamSizes(info),
            (std::vector<int>{8, 8, 8, 4, 4, 8, 8, 8}));
  entry.paramsKnown = true;
  entry.paramSizes = {8, 8, 8, 4, 4, 8, 8};
  EXPECT_CONTAINS(detail::checkParamsMatch(info, entry),
                  ".param 7: tensor map 1 (TMA, of argument 0 'x')");
  entry.paramSizes = {8, 8, 8, 4, 4, 8, 8, 8, 8};
  EXPECT_CONTAINS(detail::checkParamsMatch(info, entry),
                  "no argument (the KernelInfo has only 8 .params)");
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
    tmaCalls_ =
        reinterpret_cast<int (*)()>(dlsym(handle_, "fake_cuda_tma_calls"));
    tmaArg_ = reinterpret_cast<unsigned long long (*)(int, const char *, int)>(
        dlsym(handle_, "fake_cuda_tma_arg"));
    tmaMap_ = reinterpret_cast<bool (*)(int, void *)>(
        dlsym(handle_, "fake_cuda_tma_map"));
    ASSERT_TRUE(reset_ && set_ && get_ && setMissing_ && paramCount_ &&
                param_ && tmaCalls_ && tmaArg_ && tmaMap_);
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
  int (*tmaCalls_)() = nullptr;
  unsigned long long (*tmaArg_)(int, const char *, int) = nullptr;
  bool (*tmaMap_)(int, void *) = nullptr;
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

  // Alternating between the two, as a call whose kernels live in two
  // modules does, loads nothing more.
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(rt.load(other, scaleInfo()).ok);
    ASSERT_TRUE(rt.load(copy, scaleInfo()).ok);
  }
  EXPECT_EQ(get("module_loads"), 2);
  // The same string object changed in place (same address and length) is
  // another module: the text is compared, not its address.
  copy[copy.size() - 1] = ' ';
  ASSERT_TRUE(rt.load(copy, scaleInfo()).ok);
  EXPECT_EQ(get("module_loads"), 3);
  EXPECT_EQ(rt.cachedModules(), 3u);
  copy.push_back('\0');
  EXPECT_CONTAINS(rt.load(copy, scaleInfo()).message, "NUL byte");
  rt_.reset();
  EXPECT_EQ(get("module_unloads"), 3);
}

TEST_F(FakeDriverTest, JitErrorShowsTheLog) {
  Runtime &rt = create();
  std::string bad = std::string(kScalePtx) + "SYNTAX_ERROR\n";
  Status s = rt.load(bad, scaleInfo());
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "JIT compilation");
  EXPECT_CONTAINS(s.message,
                  "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)");
  EXPECT_CONTAINS(s.message,
                  "JIT error log:\nptxas application ptx input, "
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
  EXPECT_CONTAINS(s.message,
                  "note: the PTX targets sm_100, newer than this device");
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
  EXPECT_FALSE(
      rt.launch(kScalePtx, info, {1, 1, 1},
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
      {"null",
       {1, 1, 1},
       {viewArg(0, {1}, {1}), viewArg(x, {1}, {1})},
       "null pointer"},
      {"misaligned",
       {1, 1, 1},
       {viewArg(x + 4, {1}, {1}), viewArg(x, {1}, {1})},
       "misaligned"},
      {"count", {1, 1, 1}, {viewArg(x, {1}, {1})}, "takes 2 arguments"},
      {"grid",
       {1, 70000, 1},
       {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})},
       "grid.y = 70000"},
      {"grid x",
       {int64_t(1) << 31, 1, 1},
       {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})},
       "grid.x"},
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

TEST_F(FakeDriverTest, OccupancyOfAKernel) {
  set("multiprocessors", 132);
  set("blocks_per_sm", 3);
  Runtime &rt = create();
  EXPECT_EQ(rt.multiprocessors(), 132);
  KernelInfo info = scaleInfo();
  info.numWarps = 8;
  info.sharedBytes = 100 * 1024; // above the default: the limit is raised
  int blocks = 0;
  Status s = rt.blocksPerMultiprocessor(kScalePtx, info, blocks);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(blocks, 3);
  EXPECT_EQ(get("occupancy_block_size"), 256);
  EXPECT_EQ(get("occupancy_shared_bytes"), 100 * 1024);
  EXPECT_EQ(get("set_shared_value"), 100 * 1024);
  EXPECT_EQ(get("launches"), 0);
}

TEST_F(FakeDriverTest, OccupancyWithoutTheEntryPoint) {
  // An optional entry point: the runtime still starts, and the question
  // gets a clear error.
  setMissing_("cuOccupancyMaxActiveBlocksPerMultiprocessor");
  Runtime &rt = create();
  int blocks = -1;
  Status s = rt.blocksPerMultiprocessor(kScalePtx, scaleInfo(), blocks);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message,
                  "has no cuOccupancyMaxActiveBlocksPerMultiprocessor");
  EXPECT_EQ(blocks, 0);
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
  EXPECT_CONTAINS(s.message,
                  "launch of kernel 'scale2' (grid 7x1x1, block 128");
  EXPECT_CONTAINS(s.message,
                  "cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES "
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
  EXPECT_CONTAINS(s.message,
                  "cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS");
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
  EXPECT_CONTAINS(rt.copyToHost(nullptr, p, 4).message,
                  "null host destination");
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
      [&] { return ++calls == 4 ? Status::error("boom") : Status::success(); },
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

TEST_F(FakeDriverTest, KernelTimes) {
  Runtime &rt = create();
  DevicePtr x = 0;
  ASSERT_TRUE(rt.alloc(64, x).ok);
  // A second kernel: the same body under another name.
  std::string other = kScalePtx;
  for (size_t at; (at = other.find("scale2")) != std::string::npos;)
    other.replace(at, 6, "shift2");
  KernelInfo otherInfo = scaleInfo();
  otherInfo.name = "shift2";
  auto launch = [&](const std::string &ptx, const KernelInfo &info) {
    return rt.launch(ptx, info, {1, 1, 1},
                     {viewArg(x, {1}, {1}), viewArg(x, {1}, {1})}, false);
  };
  // Not recording: nothing collected, no events.
  ASSERT_TRUE(launch(kScalePtx, scaleInfo()).ok);
  std::vector<Runtime::KernelTime> times = {{"stale", 1, 1.0}};
  ASSERT_TRUE(rt.stopKernelTimes(times).ok);
  EXPECT_TRUE(times.empty());
  EXPECT_EQ(get("events_created"), 0);

  // The fake clock: 500 us per event record plus launch_us:<kernel> per
  // launch, so each scale2 launch reads 2 ms and each shift2 launch 0.75.
  set("launch_us:scale2", 1500);
  set("launch_us:shift2", 250);
  ASSERT_TRUE(rt.startKernelTimes().ok);
  ASSERT_TRUE(launch(other, otherInfo).ok);
  ASSERT_TRUE(launch(kScalePtx, scaleInfo()).ok);
  ASSERT_TRUE(launch(kScalePtx, scaleInfo()).ok);
  // A launch that fails is not counted (and leaves no events behind).
  set("launch_error:shift2", 1);
  EXPECT_FALSE(launch(other, otherInfo).ok);
  set("launch_error:shift2", 0);
  ASSERT_TRUE(rt.stopKernelTimes(times).ok);
  ASSERT_EQ(times.size(), 2u);
  EXPECT_EQ(times[0].name, "shift2"); // the order they first ran
  EXPECT_EQ(times[0].launches, 1);
  EXPECT_DOUBLE_EQ(times[0].millis, 0.75);
  EXPECT_EQ(times[1].name, "scale2");
  EXPECT_EQ(times[1].launches, 2);
  EXPECT_DOUBLE_EQ(times[1].millis, 4.0);
  EXPECT_EQ(get("events_created"), 8);
  EXPECT_EQ(get("events_destroyed"), 8);

  // Stopped: later launches are not recorded.
  ASSERT_TRUE(launch(kScalePtx, scaleInfo()).ok);
  ASSERT_TRUE(rt.stopKernelTimes(times).ok);
  EXPECT_TRUE(times.empty());
  EXPECT_EQ(get("events_created"), 8);

  // A failure found when waiting is reported, and the events still go.
  ASSERT_TRUE(rt.startKernelTimes().ok);
  ASSERT_TRUE(launch(kScalePtx, scaleInfo()).ok);
  set("sync_error", 700);
  Status s = rt.stopKernelTimes(times);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "kernel times: cuCtxSynchronize (the timed work "
                             "failed)");
  EXPECT_TRUE(times.empty());
  EXPECT_EQ(get("events_created"), get("events_destroyed"));
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

// A TMA kernel: a (bf16, rank 2) and c (f32, rank 2) views, an i32, then
// the addresses of the tensor maps of a and c.
const char *kTmaPtx = R"(.version 8.0
.target sm_90a
.address_size 64

.visible .entry tma_copy(
	.param .u64 .ptr .global .align 16 tma_copy_param_0,
	.param .u64 tma_copy_param_1,
	.param .u64 tma_copy_param_2,
	.param .u64 tma_copy_param_3,
	.param .u64 tma_copy_param_4,
	.param .u64 .ptr .global .align 16 tma_copy_param_5,
	.param .u64 tma_copy_param_6,
	.param .u64 tma_copy_param_7,
	.param .u64 tma_copy_param_8,
	.param .u64 tma_copy_param_9,
	.param .u32 tma_copy_param_10,
	.param .u64 .ptr .align 64 tma_copy_param_11,
	.param .u64 .ptr .align 64 tma_copy_param_12
)
{
	ret;
}
)";

KernelInfo tmaCopyInfo() {
  KernelInfo info;
  info.name = "tma_copy";
  info.target = "sm_90a";
  info.numWarps = 4;
  info.args = {view("a", ScalarType::bf16, 2), view("c", ScalarType::f32, 2),
               scalar("n", ScalarType::i32)};
  info.tma = {{0, {128, 64}, 128}, {1, {16, 32}, 0}};
  return info;
}

TEST_F(FakeDriverTest, LaunchEncodesTensorMaps) {
  Runtime &rt = create();
  DevicePtr a = 0, c = 0, other = 0;
  ASSERT_TRUE(rt.alloc(1 << 20, a).ok);
  ASSERT_TRUE(rt.alloc(1 << 20, c).ok);
  ASSERT_TRUE(rt.alloc(1 << 20, other).ok);
  // a: 300 x 200 bf16 in rows of 264 elements (528 bytes); c: 50 x 40 f32
  // in rows of 44 (176 bytes).
  std::vector<Arg> args = {viewArg(a, {300, 200}, {264, 1}),
                           viewArg(c, {50, 40}, {44, 1}), int64_t(7)};
  Status s = rt.launch(kTmaPtx, tmaCopyInfo(), {2, 1, 1}, args);
  ASSERT_TRUE(s.ok) << s.message;
  EXPECT_EQ(get("launches"), 1);

  // The encode calls, innermost dimension first.
  ASSERT_EQ(tmaCalls_(), 2);
  EXPECT_EQ(tmaArg_(0, "result", 0), 0u);
  EXPECT_EQ(tmaArg_(0, "data_type", 0), 9u); // BFLOAT16
  EXPECT_EQ(tmaArg_(0, "rank", 0), 2u);
  EXPECT_EQ(tmaArg_(0, "address", 0), a);
  EXPECT_EQ(tmaArg_(0, "global_dim", 0), 200u);
  EXPECT_EQ(tmaArg_(0, "global_dim", 1), 300u);
  EXPECT_EQ(tmaArg_(0, "global_strides", 0), 528u);
  EXPECT_EQ(tmaArg_(0, "box_dim", 0), 64u);
  EXPECT_EQ(tmaArg_(0, "box_dim", 1), 128u);
  EXPECT_EQ(tmaArg_(0, "element_strides", 0), 1u);
  EXPECT_EQ(tmaArg_(0, "element_strides", 1), 1u);
  EXPECT_EQ(tmaArg_(0, "interleave", 0), 0u);
  EXPECT_EQ(tmaArg_(0, "swizzle", 0), 3u);      // 128B
  EXPECT_EQ(tmaArg_(0, "l2_promotion", 0), 3u); // 256B
  EXPECT_EQ(tmaArg_(0, "oob_fill", 0), 0u);     // zeros
  EXPECT_EQ(tmaArg_(1, "data_type", 0), 7u);    // FLOAT32
  EXPECT_EQ(tmaArg_(1, "address", 0), c);
  EXPECT_EQ(tmaArg_(1, "global_dim", 0), 40u);
  EXPECT_EQ(tmaArg_(1, "global_dim", 1), 50u);
  EXPECT_EQ(tmaArg_(1, "global_strides", 0), 176u);
  EXPECT_EQ(tmaArg_(1, "box_dim", 0), 32u);
  EXPECT_EQ(tmaArg_(1, "box_dim", 1), 16u);
  EXPECT_EQ(tmaArg_(1, "swizzle", 0), 0u);

  // The regular parameters, then one device address per map, holding the
  // map the driver encoded.
  ASSERT_EQ(paramCount_(), 13);
  const unsigned long long regular[] = {a,  300, 200, 264, 1, c,
                                        50, 40,  44,  1,   7};
  for (int i = 0; i < 11; ++i)
    EXPECT_EQ(param_(i), regular[i]) << "param " << i;
  DevicePtr mapA = param_(11), mapC = param_(12);
  EXPECT_NE(mapA, 0u);
  EXPECT_NE(mapC, 0u);
  EXPECT_NE(mapA, mapC);
  EXPECT_EQ(mapA % 64, 0u);
  EXPECT_EQ(mapC % 64, 0u);
  for (int t = 0; t < 2; ++t) {
    unsigned char onDevice[128], encoded[128];
    ASSERT_TRUE(rt.copyToHost(onDevice, t ? mapC : mapA, 128).ok);
    ASSERT_TRUE(tmaMap_(t, encoded));
    EXPECT_EQ(std::memcmp(onDevice, encoded, 128), 0) << "map " << t;
    EXPECT_EQ(std::memcmp(onDevice, "FAKETMAP", 8), 0);
  }
  EXPECT_EQ(rt.cachedTensorMaps(), 2u);
  EXPECT_EQ(get("htod_copies"), 2);
  EXPECT_EQ(get("allocs"), 3 + 2);

  // The same arguments again (as a benchmark does): no encode, no copy.
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(rt.launch(kTmaPtx, tmaCopyInfo(), {2, 1, 1}, args, false).ok);
  EXPECT_EQ(get("launches"), 6);
  EXPECT_EQ(tmaCalls_(), 2);
  EXPECT_EQ(get("htod_copies"), 2);
  EXPECT_EQ(get("allocs"), 5);
  EXPECT_EQ(param_(11), mapA);
  EXPECT_EQ(param_(12), mapC);

  // Another buffer for a: a new map for a, the old one for c.
  args[0] = viewArg(other, {300, 200}, {264, 1});
  ASSERT_TRUE(rt.launch(kTmaPtx, tmaCopyInfo(), {2, 1, 1}, args).ok);
  EXPECT_EQ(tmaCalls_(), 3);
  EXPECT_EQ(tmaArg_(2, "address", 0), other);
  EXPECT_EQ(get("htod_copies"), 3);
  EXPECT_NE(param_(11), mapA);
  EXPECT_EQ(param_(12), mapC);
  EXPECT_EQ(rt.cachedTensorMaps(), 3u);

  // The runtime frees its maps (and only them).
  long long live = get("live_allocations");
  rt_.reset();
  EXPECT_EQ(get("live_allocations"), live - 3);
  EXPECT_EQ(get("frees"), 3);
}

TEST_F(FakeDriverTest, TensorMapRequirementsBeforeTheDriver) {
  Runtime &rt = create();
  DevicePtr a = 0, c = 0;
  ASSERT_TRUE(rt.alloc(1 << 20, a).ok);
  ASSERT_TRUE(rt.alloc(1 << 20, c).ok);
  KernelInfo info = tmaCopyInfo();
  KernelInfo loose = info;
  loose.args[0].align = 2;
  ViewArg goodC = viewArg(c, {50, 40}, {44, 1});
  struct Case {
    const char *what;
    const KernelInfo *info;
    ViewArg a;
    const char *expected;
  };
  const Case cases[] = {
      {"inner stride", &info, viewArg(a, {64, 64}, {1, 64}),
       "kernel 'tma_copy': argument 'a' (TMA): innermost stride must be 1, "
       "got 64"},
      {"unaligned row stride", &info, viewArg(a, {64, 64}, {65, 1}),
       "argument 'a' (TMA): stride 65 in dimension 0 is 130 bytes, not a "
       "multiple of 16"},
      {"null pointer", &info, viewArg(0, {64, 64}, {64, 1}), "null pointer"},
      {"misaligned pointer", &loose, viewArg(a + 8, {64, 64}, {64, 1}),
       "argument 'a' (TMA): pointer 0x"},
      {"empty", &info, viewArg(a, {0, 64}, {64, 1}),
       "size 0 in dimension 0 is out of range"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    Status s = rt.launch(kTmaPtx, *c.info, {1, 1, 1}, {c.a, goodC, int64_t(1)});
    EXPECT_FALSE(s.ok);
    EXPECT_CONTAINS(s.message, "kernel 'tma_copy'");
    EXPECT_CONTAINS(s.message, c.expected);
  }
  EXPECT_EQ(tmaCalls_(), 0);
  EXPECT_EQ(get("launches"), 0);
  EXPECT_EQ(rt.cachedTensorMaps(), 0u);
}

TEST_F(FakeDriverTest, TensorMapDriverError) {
  Runtime &rt = create();
  DevicePtr a = 0, c = 0;
  ASSERT_TRUE(rt.alloc(1 << 20, a).ok);
  ASSERT_TRUE(rt.alloc(1 << 20, c).ok);
  std::vector<Arg> args = {viewArg(a, {300, 200}, {264, 1}),
                           viewArg(c, {50, 40}, {44, 1}), int64_t(7)};
  set("tma_error", 1);
  Status s = rt.launch(kTmaPtx, tmaCopyInfo(), {1, 1, 1}, args);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "kernel 'tma_copy': argument 'a' (TMA): "
                             "cuTensorMapEncodeTiled (data type 9, rank 2");
  EXPECT_CONTAINS(s.message, "globalDim [200 300], globalStrides [528], "
                             "boxDim [64 128], swizzle 3");
  EXPECT_CONTAINS(s.message, "failed: CUDA_ERROR_INVALID_VALUE (invalid "
                             "argument)");
  EXPECT_EQ(get("launches"), 0);
  EXPECT_EQ(rt.cachedTensorMaps(), 0u);
  // Once the driver accepts, the launch goes through.
  set("tma_error", 0);
  EXPECT_TRUE(rt.launch(kTmaPtx, tmaCopyInfo(), {1, 1, 1}, args).ok);
  EXPECT_EQ(get("launches"), 1);
}

TEST_F(FakeDriverTest, TensorMapsNeedHopper) {
  set("cc_major", 8);
  Runtime &rt = create();
  DevicePtr a = 0;
  ASSERT_TRUE(rt.alloc(1 << 20, a).ok);
  std::string ptx = kTmaPtx;
  ptx.replace(ptx.find("sm_90a"), 6, "sm_80");
  Status s = rt.launch(ptx, tmaCopyInfo(), {1, 1, 1},
                       {viewArg(a, {64, 64}, {64, 1}),
                        viewArg(a, {64, 64}, {64, 1}), int64_t(1)});
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "kernel 'tma_copy' uses TMA tensor maps, which "
                             "need compute capability 9.0");
  EXPECT_CONTAINS(s.message, "(sm_80)");
  EXPECT_EQ(tmaCalls_(), 0);
}

TEST_F(FakeDriverTest, DriverWithoutTensorMaps) {
  setMissing_("cuTensorMapEncodeTiled");
  Runtime &rt = create(); // optional: other kernels still run
  DevicePtr a = 0;
  ASSERT_TRUE(rt.alloc(1 << 20, a).ok);
  EXPECT_TRUE(rt.launch(kScalePtx, scaleInfo(), {1, 1, 1},
                        {viewArg(a, {1}, {1}), viewArg(a, {1}, {1})})
                  .ok);
  Status s = rt.launch(kTmaPtx, tmaCopyInfo(), {1, 1, 1},
                       {viewArg(a, {64, 64}, {64, 1}),
                        viewArg(a, {64, 64}, {64, 1}), int64_t(1)});
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "has no cuTensorMapEncodeTiled");
  EXPECT_EQ(get("launches"), 1);
}

TEST_F(FakeDriverTest, KernelInfoWithoutItsTensorMaps) {
  Runtime &rt = create();
  KernelInfo info = tmaCopyInfo();
  info.tma.pop_back();
  Status s = rt.load(kTmaPtx, info);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message, "implies 12 .params");
  EXPECT_CONTAINS(s.message, "the PTX declares 13");
  EXPECT_TRUE(rt.load(kTmaPtx, tmaCopyInfo()).ok);
  // An invalid entry is refused at load time too.
  info = tmaCopyInfo();
  info.tma[1].swizzle = 7;
  s = rt.load(kTmaPtx, info);
  EXPECT_FALSE(s.ok);
  EXPECT_CONTAINS(s.message,
                  "kernel 'tma_copy': tensor map 1 (TMA): swizzle 7");
}

// Distinct maps beyond the cache's bound: the runtime waits for the GPU,
// frees them all and starts over, so memory stays bounded.
TEST_F(FakeDriverTest, TensorMapCacheIsBounded) {
  Runtime &rt = create();
  DevicePtr a = 0;
  ASSERT_TRUE(rt.alloc(1 << 20, a).ok);
  KernelInfo info = tmaCopyInfo();
  info.tma.pop_back(); // one map per launch: a's
  std::string ptx = kTmaPtx;
  const std::string lastParam =
      ",\n\t.param .u64 .ptr .align 64 tma_copy_param_12";
  ptx.erase(ptx.find(lastParam), lastParam.size());
  const int kLimit = 4096;
  for (int i = 0; i < kLimit; ++i) {
    Status s = rt.launch(ptx, info, {1, 1, 1},
                         {viewArg(a + 16 * i, {64, 64}, {64, 1}),
                          viewArg(a, {64, 64}, {64, 1}), int64_t(1)},
                         false);
    ASSERT_TRUE(s.ok) << s.message;
  }
  EXPECT_EQ(rt.cachedTensorMaps(), static_cast<size_t>(kLimit));
  EXPECT_EQ(get("syncs"), 0);
  long long live = get("live_allocations");
  ASSERT_TRUE(rt.launch(ptx, info, {1, 1, 1},
                        {viewArg(a + 16 * kLimit, {64, 64}, {64, 1}),
                         viewArg(a, {64, 64}, {64, 1}), int64_t(1)},
                        false)
                  .ok);
  EXPECT_EQ(get("syncs"), 1); // before freeing maps a launch may still read
  EXPECT_EQ(rt.cachedTensorMaps(), 1u);
  EXPECT_EQ(get("live_allocations"), live - kLimit + 1);
  // A map from before is encoded and copied anew.
  long long copies = get("htod_copies");
  ASSERT_TRUE(rt.launch(ptx, info, {1, 1, 1},
                        {viewArg(a, {64, 64}, {64, 1}),
                         viewArg(a, {64, 64}, {64, 1}), int64_t(1)},
                        false)
                  .ok);
  EXPECT_EQ(get("htod_copies"), copies + 1);
  EXPECT_EQ(rt.cachedTensorMaps(), 2u);
}

// The fake checks what cuTensorMapEncodeTiled documents, so that a runtime
// that passed something else would fail these tests.
TEST_F(FakeDriverTest, FakeEncodeChecksItsArguments) {
  using Encode =
      int (*)(void *, int, unsigned, void *, const uint64_t *, const uint64_t *,
              const uint32_t *, const uint32_t *, int, int, int, int);
  using Gpa = int (*)(const char *, void **, int, unsigned long long, int *);
  auto gpa = reinterpret_cast<Gpa>(dlsym(handle_, "cuGetProcAddress_v2"));
  ASSERT_NE(gpa, nullptr);
  void *fn = nullptr;
  int found = -1;
  ASSERT_EQ(gpa("cuTensorMapEncodeTiled", &fn, 12000, 0, &found), 0);
  ASSERT_NE(fn, nullptr);
  auto encode = reinterpret_cast<Encode>(fn);
  struct alignas(64) Map {
    unsigned char bytes[129];
  } map;
  uint64_t dim[2] = {64, 64}, stride[1] = {128};
  uint32_t box[2] = {64, 64}, ones[2] = {1, 1};
  void *addr = reinterpret_cast<void *>(uintptr_t(0x10000));
  auto call = [&](int type, unsigned rank, void *address, int swizzle,
                  void *out) {
    return encode(out, type, rank, address, dim, stride, box, ones, 0, swizzle,
                  3, 0);
  };
  EXPECT_EQ(call(9, 2, addr, 3, &map), 0);  // 64 bf16 = 128 B
  EXPECT_EQ(call(9, 2, addr, 2, &map), 1);  // > 64-byte span
  EXPECT_EQ(call(7, 2, addr, 3, &map), 1);  // 256 B > 128
  EXPECT_EQ(call(9, 0, addr, 0, &map), 1);  // rank 0
  EXPECT_EQ(call(9, 6, addr, 0, &map), 1);  // rank 6
  EXPECT_EQ(call(13, 2, addr, 0, &map), 1); // unknown type
  EXPECT_EQ(call(9, 2, static_cast<char *>(addr) + 8, 0, &map), 1);
  EXPECT_EQ(call(9, 2, addr, 0, map.bytes + 1), 1); // map misaligned
  stride[0] = 120;
  EXPECT_EQ(call(9, 2, addr, 0, &map), 1); // stride % 16
  stride[0] = 128;
  box[1] = 257;
  EXPECT_EQ(call(9, 2, addr, 0, &map), 1); // box > 256
  box[0] = 4;
  box[1] = 4;
  EXPECT_EQ(call(9, 2, addr, 0, &map), 1); // 8-byte inner box
  EXPECT_EQ(tmaCalls_(), 11);
}

} // namespace

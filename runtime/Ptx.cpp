//===- Ptx.cpp - what the runtime reads from PTX text ---------------------===//

#include "runtime/Ptx.h"

#include <cctype>

namespace tessera::rt::detail {

namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '%' || c == '.';
}

std::string trim(const std::string &s) {
  size_t b = 0, e = s.size();
  while (b < e && isSpace(s[b]))
    ++b;
  while (e > b && isSpace(s[e - 1]))
    --e;
  return s.substr(b, e - b);
}

/// Position of the directive `word` (e.g. ".entry") at or after `from`, as
/// a whole token, or npos.
size_t findDirective(const std::string &text, const std::string &word,
                     size_t from) {
  while (true) {
    size_t at = text.find(word, from);
    if (at == std::string::npos)
      return at;
    bool startOk = at == 0 || isSpace(text[at - 1]) || text[at - 1] == ';' ||
                   text[at - 1] == '}';
    size_t end = at + word.size();
    bool endOk = end >= text.size() || !isIdentChar(text[end]);
    if (startOk && endOk)
      return at;
    from = at + 1;
  }
}

/// The token after position `from` (skipping spaces), stopping at spaces,
/// commas, semicolons and brackets.
std::string tokenAfter(const std::string &text, size_t from) {
  while (from < text.size() && isSpace(text[from]))
    ++from;
  size_t end = from;
  while (end < text.size() && !isSpace(text[end]) && text[end] != ',' &&
         text[end] != ';' && text[end] != '(' && text[end] != '{')
    ++end;
  return text.substr(from, end - from);
}

/// Bytes of a PTX fundamental type (".u64" -> 8), 0 when not one.
int ptxTypeSize(const std::string &t) {
  static const struct {
    const char *name;
    int size;
  } kSizes[] = {
      {".b8", 1},  {".u8", 1},  {".s8", 1},    {".b16", 2},    {".u16", 2},
      {".s16", 2}, {".f16", 2}, {".bf16", 2},  {".b32", 4},    {".u32", 4},
      {".s32", 4}, {".f32", 4}, {".f16x2", 4}, {".bf16x2", 4}, {".b64", 8},
      {".u64", 8}, {".s64", 8}, {".f64", 8},   {".b128", 16},
  };
  for (const auto &s : kSizes)
    if (t == s.name)
      return s.size;
  return 0;
}

/// Sizes one ".param ..." item of an entry's parameter list; -1 if unknown.
int paramSize(std::string item) {
  int count = 1;
  size_t open = item.find('[');
  if (open != std::string::npos) {
    size_t close = item.find(']', open);
    if (close == std::string::npos)
      return -1;
    std::string n = trim(item.substr(open + 1, close - open - 1));
    if (n.empty() || n.size() > 9)
      return -1;
    count = 0;
    for (char c : n) {
      if (c < '0' || c > '9')
        return -1;
      count = count * 10 + (c - '0');
    }
    item.erase(open, close - open + 1);
  }
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < item.size()) {
    while (i < item.size() && isSpace(item[i]))
      ++i;
    size_t j = i;
    while (j < item.size() && !isSpace(item[j]))
      ++j;
    if (j > i)
      tokens.push_back(item.substr(i, j - i));
    i = j;
  }
  if (tokens.empty() || tokens[0] != ".param")
    return -1;
  for (size_t t = 1; t < tokens.size(); ++t)
    if (int size = ptxTypeSize(tokens[t]))
      return size * count;
  return -1;
}

} // namespace

const PtxEntry *PtxSummary::find(const std::string &name) const {
  for (const PtxEntry &e : entries)
    if (e.name == name)
      return &e;
  return nullptr;
}

std::string PtxSummary::entryNames() const {
  if (entries.empty())
    return "none";
  std::string out;
  for (const PtxEntry &e : entries)
    out += (out.empty() ? "" : ", ") + e.name;
  return out;
}

std::string stripPtxComments(const std::string &ptx) {
  std::string out = ptx;
  size_t i = 0, n = out.size();
  while (i < n) {
    char c = out[i];
    if (c == '"') {
      ++i;
      while (i < n && out[i] != '"' && out[i] != '\n')
        i += out[i] == '\\' && i + 1 < n ? 2 : 1;
      ++i;
    } else if (c == '/' && i + 1 < n && out[i + 1] == '/') {
      while (i < n && out[i] != '\n')
        out[i++] = ' ';
    } else if (c == '/' && i + 1 < n && out[i + 1] == '*') {
      while (i < n && !(out[i] == '*' && i + 1 < n && out[i + 1] == '/')) {
        if (out[i] != '\n')
          out[i] = ' ';
        ++i;
      }
      for (int k = 0; k < 2 && i < n; ++k)
        out[i++] = ' ';
    } else {
      ++i;
    }
  }
  return out;
}

PtxSummary summarizePtx(const std::string &ptx) {
  PtxSummary summary;
  std::string text = stripPtxComments(ptx);
  if (size_t at = findDirective(text, ".version", 0); at != std::string::npos)
    summary.version = tokenAfter(text, at + 8);
  if (size_t at = findDirective(text, ".target", 0); at != std::string::npos)
    summary.target = tokenAfter(text, at + 7);

  size_t from = 0;
  while (true) {
    size_t at = findDirective(text, ".entry", from);
    if (at == std::string::npos)
      break;
    size_t p = at + 6;
    PtxEntry entry;
    entry.name = tokenAfter(text, p);
    while (p < text.size() && isSpace(text[p]))
      ++p;
    p += entry.name.size();
    from = p;
    if (entry.name.empty())
      continue;
    while (p < text.size() && isSpace(text[p]))
      ++p;
    if (p < text.size() && text[p] == '(') {
      size_t close = text.find(')', p);
      if (close == std::string::npos) {
        entry.paramsKnown = false;
      } else {
        std::string list = text.substr(p + 1, close - p - 1);
        from = close;
        if (!trim(list).empty()) {
          size_t start = 0;
          while (true) {
            size_t comma = list.find(',', start);
            std::string item = trim(list.substr(
                start, comma == std::string::npos ? std::string::npos
                                                  : comma - start));
            int size = paramSize(item);
            if (size < 0)
              entry.paramsKnown = false;
            entry.paramSizes.push_back(size);
            if (comma == std::string::npos)
              break;
            start = comma + 1;
          }
        }
      }
    }
    summary.entries.push_back(std::move(entry));
  }
  return summary;
}

bool parseSmTarget(const std::string &target, int &arch, std::string &suffix) {
  if (target.size() < 4 || target.compare(0, 3, "sm_") != 0)
    return false;
  size_t i = 3;
  arch = 0;
  while (i < target.size() &&
         std::isdigit(static_cast<unsigned char>(target[i])) && i < 8)
    arch = arch * 10 + (target[i++] - '0');
  if (i == 3)
    return false;
  suffix = target.substr(i);
  for (char c : suffix)
    if (!std::isalpha(static_cast<unsigned char>(c)))
      return false;
  return true;
}

std::vector<int> abiParamSizes(const KernelInfo &info) {
  std::vector<int> sizes;
  for (const ArgInfo &arg : info.args) {
    if (arg.kind == ArgInfo::Kind::View) {
      for (int i = 0; i < 1 + 2 * arg.rank; ++i)
        sizes.push_back(8);
      continue;
    }
    switch (arg.type) {
    case ScalarType::index:
    case ScalarType::i64:
    case ScalarType::f64:
      sizes.push_back(8);
      break;
    case ScalarType::i32:
    case ScalarType::f32:
      sizes.push_back(4);
      break;
    default:
      sizes.push_back(0);
    }
  }
  sizes.insert(sizes.end(), info.tma.size(), 8); // tensor map addresses
  return sizes;
}

namespace {
std::string joinSizes(const std::vector<int> &sizes) {
  std::string out = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i)
      out += ' ';
    out += std::to_string(sizes[i]);
  }
  return out + "]";
}

/// "argument 2 'n' (i32 scalar)" for .param number `param` of `info`.
std::string describeParam(const KernelInfo &info, size_t param) {
  size_t p = 0;
  for (size_t a = 0; a < info.args.size(); ++a) {
    const ArgInfo &arg = info.args[a];
    size_t n = arg.kind == ArgInfo::Kind::View ? 1 + 2 * arg.rank : 1;
    if (param < p + n) {
      std::string what =
          "argument " + std::to_string(a) + " '" + arg.name + "' (";
      if (arg.kind == ArgInfo::Kind::Scalar)
        return what + scalarTypeName(arg.type) + " scalar)";
      what += "rank-" + std::to_string(arg.rank) + " " +
              scalarTypeName(arg.type) + " view, ";
      size_t k = param - p;
      if (k == 0)
        return what + "pointer)";
      if (k <= static_cast<size_t>(arg.rank))
        return what + "size " + std::to_string(k - 1) + ")";
      return what + "stride " + std::to_string(k - 1 - arg.rank) + ")";
    }
    p += n;
  }
  if (param - p < info.tma.size()) {
    const TmaInfo &tma = info.tma[param - p];
    std::string of =
        tma.arg >= 0 && static_cast<size_t>(tma.arg) < info.args.size()
            ? " '" + info.args[tma.arg].name + "'"
            : "";
    return "tensor map " + std::to_string(param - p) + " (TMA, of argument " +
           std::to_string(tma.arg) + of + ")";
  }
  p += info.tma.size();
  return "no argument (the KernelInfo has only " + std::to_string(p) +
         " .params)";
}
} // namespace

std::string checkParamsMatch(const KernelInfo &info, const PtxEntry &entry) {
  if (!entry.paramsKnown)
    return "";
  std::vector<int> want = abiParamSizes(info);
  if (want == entry.paramSizes)
    return "";
  std::string msg = "the KernelInfo of '" + info.name +
                    "' does not match its PTX entry point: the KernelInfo "
                    "implies " +
                    std::to_string(want.size()) + " .params of sizes " +
                    joinSizes(want) + ", the PTX declares " +
                    std::to_string(entry.paramSizes.size()) + " of sizes " +
                    joinSizes(entry.paramSizes);
  size_t i = 0;
  while (i < want.size() && i < entry.paramSizes.size() &&
         want[i] == entry.paramSizes[i])
    ++i;
  msg += "; first difference at .param " + std::to_string(i) + ": " +
         describeParam(info, i);
  return msg;
}

} // namespace tessera::rt::detail

#include "lang/text.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>

namespace fabrik::text {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n';
}

char LowerChar(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool IsNonFiniteSpelling(std::string_view word) {
  std::string w = Lower(word);
  if (!w.empty() && (w[0] == '+' || w[0] == '-')) w.erase(0, 1);
  return w == "nan" || w == "inf" || w == "infinity" || w.rfind("nan(", 0) == 0;
}

}  // namespace

std::vector<std::string_view> SplitLines(std::string_view text) {
  if (StartsWithByteOrderMark(text)) text.remove_prefix(kByteOrderMark.size());
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    const bool last = end == std::string_view::npos;
    if (last) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (last) break;
    start = end + 1;
  }
  return lines;
}

Result<std::vector<std::string>> Tokenize(std::string_view line) {
  std::vector<std::string> words;
  std::size_t i = StartsWithByteOrderMark(line) ? kByteOrderMark.size() : 0;
  while (i < line.size()) {
    const char c = line[i];
    if (IsSpace(c)) {
      ++i;
      continue;
    }
    if (c == '#') break;
    std::string word;
    if (c == '"') {
      const std::size_t close = line.find('"', i + 1);
      if (close == std::string_view::npos) return MakeError("unterminated quote");
      word.assign(line.substr(i + 1, close - i - 1));
      i = close + 1;
      if (i < line.size() && !IsSpace(line[i]) && line[i] != '#') {
        return MakeError("a quoted word must end at a space: " + Quote(line.substr(0, i + 1)));
      }
    } else {
      const std::size_t start = i;
      while (i < line.size() && !IsSpace(line[i]) && line[i] != '#' && line[i] != '"') ++i;
      if (i < line.size() && line[i] == '"') {
        // 1"2"3 is not three words, nor one: refuse it rather than guess.
        return MakeError("a quote inside a word: " + Quote(line.substr(start, i + 1 - start)));
      }
      word.assign(line.substr(start, i - start));
    }
    words.push_back(std::move(word));
  }
  return words;
}

Number ParseReal(std::string_view word) {
  Number n;
  if (word.empty()) return n;
  if (IsNonFiniteSpelling(word)) {
    n.error = NumberError::kNotFinite;
    return n;
  }
  // Only plain decimal spellings: from_chars would also take "inf"/"nan" (handled above). A
  // leading '+' is refused like any other stray character (from_chars does not take it): one
  // number grammar for the language and the command line (docs/language.md: Numbers).
  const std::string_view w = word;
  for (char c : w) {
    const bool ok =
        (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
    if (!ok) return n;
  }
  double value = 0.0;
  const auto [ptr, ec] =
      std::from_chars(w.data(), w.data() + w.size(), value, std::chars_format::general);
  if (ptr != w.data() + w.size()) return n;  // trailing junk, or nothing parsed
  if (ec == std::errc::result_out_of_range) {
    // Either overflow (1e999) or underflow (1e-999). An underflow is a valid tiny number: 0.
    // Tell them apart by the exponent's sign.
    const std::size_t e = w.find_first_of("eE");
    const bool negative_exponent =
        e != std::string_view::npos && e + 1 < w.size() && w[e + 1] == '-';
    if (negative_exponent) {
      n.value = 0.0;
      n.error = NumberError::kNone;
    } else {
      n.error = NumberError::kOutOfRange;
    }
    return n;
  }
  if (ec != std::errc()) return n;
  if (!std::isfinite(value)) {
    n.error = NumberError::kOutOfRange;
    return n;
  }
  n.value = value;
  n.error = NumberError::kNone;
  return n;
}

Number ParseInteger(std::string_view word) {
  Number n;
  const std::string_view w = word;  // a leading '+' is not a digit: refused below
  if (w.empty()) return n;
  std::size_t digits_from = (w[0] == '-') ? 1 : 0;
  if (digits_from == w.size()) return n;
  for (std::size_t i = digits_from; i < w.size(); ++i) {
    if (w[i] < '0' || w[i] > '9') return n;
  }
  long long value = 0;
  const auto [ptr, ec] = std::from_chars(w.data(), w.data() + w.size(), value);
  if (ec == std::errc::result_out_of_range) {
    n.error = NumberError::kOutOfRange;
    return n;
  }
  if (ec != std::errc() || ptr != w.data() + w.size()) return n;
  n.value = static_cast<double>(value);
  n.error = NumberError::kNone;
  return n;
}

std::string Quote(std::string_view word) {
  constexpr std::size_t kMax = 48;
  std::string out = "'";
  const std::size_t shown = word.size() > kMax ? kMax : word.size();
  for (std::size_t i = 0; i < shown; ++i) {
    const unsigned char c = static_cast<unsigned char>(word[i]);
    out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  }
  if (shown < word.size()) out += "...";
  out += "'";
  return out;
}

std::string Lower(std::string_view word) {
  std::string out(word);
  for (char& c : out) c = LowerChar(c);
  return out;
}

Result<std::string> ReadTextFile(const std::string& path, std::size_t max_bytes) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    return MakeError(path + ": cannot open file (" +
                     (ec ? ec.message() : std::string("no such file")) + ")");
  }
  if (!std::filesystem::is_regular_file(status)) {
    return MakeError(path + ": not a regular file");
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return MakeError(path + ": cannot open file (" + std::strerror(errno) + ")");
  }
  std::string contents;
  char buffer[1 << 14];
  bool too_big = false;
  bool failed = false;
  while (true) {
    const std::size_t got = std::fread(buffer, 1, sizeof(buffer), file);
    if (got > 0) {
      if (contents.size() + got > max_bytes) {
        too_big = true;
        break;
      }
      contents.append(buffer, got);
    }
    if (got < sizeof(buffer)) {
      failed = std::ferror(file) != 0;
      break;
    }
  }
  std::fclose(file);
  if (too_big) {
    return MakeError(path + ": file is larger than " + std::to_string(max_bytes) + " bytes");
  }
  if (failed) return MakeError(path + ": read error");
  return contents;
}

std::string AtLine(std::string_view source_name, std::size_t line, std::string_view message) {
  std::string out(source_name);
  out += ':';
  out += std::to_string(line);
  out += ": ";
  out += message;
  return out;
}

}  // namespace fabrik::text

#include "lang/command_parse.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace fabrik::command_parse {
namespace {

std::string NumberProblem(text::NumberError error) {
  switch (error) {
    case text::NumberError::kNone:
      return " (out of range)";
    case text::NumberError::kSyntax:
      return "";
    case text::NumberError::kNotFinite:
      return " (not a finite number)";
    case text::NumberError::kOutOfRange:
      return " (out of range)";
  }
  return "";
}

}  // namespace

Error Expected(std::string_view what, std::string_view description, std::string_view word,
               text::NumberError error) {
  std::string m(what);
  m += ": expected ";
  m += description;
  m += ", got ";
  m += text::Quote(word);
  m += NumberProblem(error);
  return MakeError(std::move(m));
}

std::string JoinNames(std::span<const std::string_view> names, std::string_view sep,
                      std::string_view last_sep) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += (i + 1 == names.size()) ? last_sep : sep;
    out += names[i];
  }
  return out;
}

Error WrongArity(std::string_view what, std::string_view usage, std::size_t expected,
                 std::size_t got) {
  std::string m(what);
  if (expected == 0) {
    m += ": expected no arguments, got " + std::to_string(got);
  } else {
    m += ": expected " + std::to_string(expected) + (expected == 1 ? " argument" : " arguments");
    m += " (usage: " + std::string(usage) + "), got " + std::to_string(got);
  }
  return MakeError(std::move(m));
}

Result<int> IntegerIn(std::string_view what, std::string_view word, int lo, int hi) {
  const std::string description =
      "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  const text::Number n = text::ParseInteger(word);
  if (n.error != text::NumberError::kNone) {
    // "2.5" is a number but not an integer: say so rather than "not a number".
    const text::Number real = text::ParseReal(word);
    if (n.error == text::NumberError::kSyntax && real.error == text::NumberError::kNone) {
      return MakeError(std::string(what) + ": expected " + description + ", got " +
                       text::Quote(word) + " (not an integer)");
    }
    return Expected(what, description, word,
                    n.error == text::NumberError::kSyntax ? real.error : n.error);
  }
  if (n.value < lo || n.value > hi) {
    return Expected(what, description, word, text::NumberError::kOutOfRange);
  }
  return static_cast<int>(n.value);
}

Result<float> PositiveUpTo(std::string_view what, std::string_view word, float hi,
                           std::string_view hi_text) {
  const std::string description = "a number > 0 and <= " + std::string(hi_text);
  const text::Number n = text::ParseReal(word);
  if (n.error != text::NumberError::kNone) return Expected(what, description, word, n.error);
  if (!(n.value <= static_cast<double>(hi))) {
    return Expected(what, description, word, text::NumberError::kOutOfRange);
  }
  const float f = static_cast<float>(n.value);
  if (!(f > 0.0f)) return Expected(what, description, word, text::NumberError::kOutOfRange);
  return f;
}

Result<float> NumberIn(std::string_view what, std::string_view word, const NumberRange& range) {
  const std::string description = "a number " + std::string(range.text);
  const text::Number n = text::ParseReal(word);
  if (n.error != text::NumberError::kNone) return Expected(what, description, word, n.error);
  if (!range.Contains(n.value)) {
    return Expected(what, description, word, text::NumberError::kOutOfRange);
  }
  return static_cast<float>(n.value);
}

Result<float> SegmentLength(std::string_view what, std::string_view word) {
  const std::string description = "a length from 0.0001 to 1000";
  const text::Number n = text::ParseReal(word);
  if (n.error != text::NumberError::kNone) return Expected(what, description, word, n.error);
  if (!(n.value >= static_cast<double>(kMinSegmentLength) &&
        n.value <= static_cast<double>(kMaxSegmentLength))) {
    return Expected(what, description, word, text::NumberError::kOutOfRange);
  }
  return static_cast<float>(n.value);
}

Result<float> Coordinate(std::string_view what, std::string_view word) {
  const text::Number n = text::ParseReal(word);
  const std::string_view description = "a number from -1e6 to 1e6";
  if (n.error != text::NumberError::kNone) return Expected(what, description, word, n.error);
  if (std::fabs(n.value) > static_cast<double>(kMaxTargetCoordinate)) {
    return Expected(what, description, word, text::NumberError::kOutOfRange);
  }
  return static_cast<float>(n.value);
}

std::optional<std::string> OneOf(std::string_view word, std::span<const std::string_view> names) {
  std::string lowered = text::Lower(word);
  for (std::string_view n : names) {
    if (lowered == n) return lowered;
  }
  return std::nullopt;
}

}  // namespace fabrik::command_parse

namespace fabrik {

// Every on/off command, built-in or the app's, parses here so that all of them accept the
// same words and refuse the rest with the same text.
Result<bool> ParseOnOff(std::string_view what, std::span<const std::string> args) {
  const std::string usage = " (usage: " + std::string(what) + " on|off)";
  if (args.size() != 1) {
    return MakeError(std::string(what) + ": expected on or off, got " +
                     std::to_string(args.size()) + " arguments" + usage);
  }
  const std::string word = text::Lower(args[0]);
  if (word != "on" && word != "off") {
    return MakeError(std::string(what) + ": expected on or off, got " + text::Quote(args[0]) +
                     usage);
  }
  return word == "on";
}

}  // namespace fabrik

namespace fabrik::command_parse {

std::string FormatFloat(float v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.9g", static_cast<double>(v));
  return buffer;
}

std::string FormatPath(const std::string& path) {
  const bool needs_quotes = path.empty() || path.find_first_of(" \t\r\v\f#") != std::string::npos;
  return needs_quotes ? "\"" + path + "\"" : path;
}

bool Exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::path(path), ec) && !ec;
}

std::string SearchedText(const CommandContext& context) {
  std::string s = "the working directory";
  for (const std::string& root : context.search_roots) s += ", " + root;
  return s;
}

}  // namespace fabrik::command_parse

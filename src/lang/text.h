// text.h - the small lexer shared by the spline-file, command and script parsers.
//
// Internal to src/lang, but safe to use elsewhere. Everything here is pure, never throws
// and never reads the environment (except ReadTextFile, which reads the file it is given).
//
// Lexical rules, the same for every text format in the project:
//   * lines end at '\n'; a '\r' just before it (Windows files) is dropped;
//   * words are separated by spaces, tabs, '\r', '\v' and '\f';
//   * "double quoted" text is one word and may hold spaces and '#' (no escapes); a quote
//     must start and end its word;
//   * a UTF-8 byte-order mark at the start of a file or line is ignored;
//   * '#' outside quotes starts a comment that runs to the end of the line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ik/result.h"

namespace fabrik::text {

// The UTF-8 byte-order mark some editors put at the start of a file. SplitLines drops it from
// the start of a text and Tokenize from the start of a line, so it never reaches a message.
inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
inline bool StartsWithByteOrderMark(std::string_view s) {
  return s.substr(0, kByteOrderMark.size()) == kByteOrderMark;
}

// The lines of `text`, without their '\n' (and a trailing '\r'). Line i of the result is
// line i + 1 of the file. An empty text has no lines; a final '\n' does not open a new line.
std::vector<std::string_view> SplitLines(std::string_view text);

// The words of one line, comments removed. Fails on an unterminated quote ("unterminated
// quote"), on a quote inside a word (1"2"3) and on a quoted word glued to more text ("a"b).
// A comment-only or blank line gives no words.
Result<std::vector<std::string>> Tokenize(std::string_view line);

// Outcome of reading a number from one word.
enum class NumberError {
  kNone,        // `value` holds the number
  kSyntax,      // not a number at all (or, for integers, has a fraction or exponent)
  kNotFinite,   // "nan", "inf", "infinity" in any case and sign
  kOutOfRange,  // a valid spelling whose magnitude does not fit (e.g. 1e999, 99999999999999999999)
};

struct Number {
  double value = 0.0;
  NumberError error = NumberError::kSyntax;
};

// The project's one number grammar (docs/language.md: Numbers), for the language, the files
// it reads and the demo's options alike. A leading '+' is refused (kSyntax): "+5" is not a
// number, "1e+3" is.
//
// A decimal real number: optional '-', digits, optional fraction and exponent ("-1.5e-3").
// The whole word must be the number. An exponent too small to represent gives 0.
Number ParseReal(std::string_view word);

// A decimal integer: optional '-' and digits only. `value` holds it exactly when |value|
// < 2^53; larger magnitudes that still fit in 64 bits are returned (inexactly) as well.
Number ParseInteger(std::string_view word);

// `word` wrapped in single quotes for an error message: control characters become '?',
// and words longer than 48 characters are cut with "...", so a message stays one short line.
std::string Quote(std::string_view word);

// ASCII lower case of `word` (keywords are case-insensitive; paths are not lowered).
std::string Lower(std::string_view word);

// Reads a whole regular file. Fails with "PATH: cannot open file (reason)", "PATH: not a
// regular file" or "PATH: file is larger than N bytes" (directories, devices and FIFOs are
// refused, so a stray path cannot block or read forever).
inline constexpr std::size_t kMaxTextFileBytes = 4u << 20;  // 4 MiB
Result<std::string> ReadTextFile(const std::string& path,
                                 std::size_t max_bytes = kMaxTextFileBytes);

// "NAME:LINE: MESSAGE", the one error format of every text file in the project.
std::string AtLine(std::string_view source_name, std::size_t line, std::string_view message);

}  // namespace fabrik::text

// command_parse.h - what the built-in command groups (lang/commands/*.cpp) share: word
// parsers with the language's error texts, canonical number and path text, and the groups
// themselves. Internal to src/lang; the language is described in command.h.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "lang/command.h"
#include "lang/text.h"

namespace fabrik::command_parse {

using Words = std::span<const std::string>;

// A parser's or a check's refusal with MESSAGE.
inline Status Fail(std::string message) { return MakeError(std::move(message)); }

// "what: expected DESCRIPTION, got 'word'" plus what was wrong with a number
// (" (not a finite number)", " (out of range)").
Error Expected(std::string_view what, std::string_view description, std::string_view word,
               text::NumberError error);
// "what: expected no arguments, got 2" or "what: expected 1 argument (usage: U), got 3".
Error WrongArity(std::string_view what, std::string_view usage, std::size_t expected,
                 std::size_t got);
// The parser of a command without arguments (`state`, `clear`, `quit`): T{}, or
// "NAME: expected no arguments, got N".
template <class T>
Result<Command> ParseWithoutArguments(Words args, const CommandContext&) {
  if (!args.empty()) return WrongArity(T::kName, T::kName, 0, args.size());
  return Command(T{});
}
// Defines Format and Validate of such a command's struct: its text is its name, and it has
// nothing to be out of range.
#define FABRIK_COMMAND_WITHOUT_ARGUMENTS(T)                       \
  std::string T::Format() const { return std::string(T::kName); } \
  Status T::Validate() const { return Ok{}; }
// "a, b, c or d" (sep ", ", last " or ") or "a|b|c|d" (both "|").
std::string JoinNames(std::span<const std::string_view> names, std::string_view sep,
                      std::string_view last_sep);

// An integer in [lo, hi].
Result<int> IntegerIn(std::string_view what, std::string_view word, int lo, int hi);
// A float in (0, hi] (checked on the float, so a tiny double rounding to 0 is refused).
Result<float> PositiveUpTo(std::string_view what, std::string_view word, float hi,
                           std::string_view hi_text);
// A float within `range` (lang/number_range.h): "what: expected a number RANGE, got 'word'".
Result<float> NumberIn(std::string_view what, std::string_view word, const NumberRange& range);
// A segment length in [kMinSegmentLength, kMaxSegmentLength].
Result<float> SegmentLength(std::string_view what, std::string_view word);
// A float with |value| <= kMaxTargetCoordinate.
Result<float> Coordinate(std::string_view what, std::string_view word);
// `word` lower-cased, if it is one of `names`.
std::optional<std::string> OneOf(std::string_view word, std::span<const std::string_view> names);

// Canonical text: floats with 9 significant digits (they read back to the same float); paths
// in double quotes when they hold a space, '#' or are empty.
std::string FormatFloat(float v);
std::string FormatPath(const std::string& path);

// Whether a file or folder exists (no exception; errors count as "no").
bool Exists(const std::string& path);
// "the working directory, ROOT1, ROOT2": where relative paths were looked for.
std::string SearchedText(const CommandContext& context);

// The groups of built-in commands, in the order `help` lists them (lang/command.cpp joins
// them), each defined in its file of lang/commands/ (each command's parser, Format, Validate
// and CommandSpec; its apply is in the file of the same name in core/commands/): target, mode
// and the chain's shape (chain.cpp); spline and script (playback.cpp); camera, state, help and
// the choices of solver and scene (session.cpp); clear, the step view, race and quit
// (view.cpp).
std::span<const CommandSpec> ChainCommands();
std::span<const CommandSpec> PlaybackCommands();
std::span<const CommandSpec> SessionCommands();
std::span<const CommandSpec> ViewCommands();

}  // namespace fabrik::command_parse

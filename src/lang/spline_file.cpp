#include "lang/spline_file.h"

#include <cmath>
#include <optional>
#include <vector>

#include "lang/text.h"

namespace fabrik {
namespace {

std::string JoinWords(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

}  // namespace

Result<Spline> ParseSplineText(std::string_view text, std::string_view source_name) {
  std::vector<glm::vec3> points;
  std::optional<bool> closed;   // set by the first directive
  std::size_t closed_line = 0;  // where it was set, for the conflict message
  const std::vector<std::string_view> lines = text::SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t line_no = i + 1;
    auto fail = [&](const std::string& message) -> Result<Spline> {
      return MakeError(text::AtLine(source_name, line_no, message));
    };
    Result<std::vector<std::string>> tokens = text::Tokenize(lines[i]);
    if (!tokens.ok()) return fail(tokens.error());
    const std::vector<std::string>& words = tokens.value();
    if (words.empty()) continue;

    if (words.size() == 1) {
      const std::string keyword = text::Lower(words[0]);
      if (keyword == "open" || keyword == "closed") {
        const bool want_closed = keyword == "closed";
        if (closed.has_value() && *closed != want_closed) {
          return fail("'" + keyword + "' conflicts with '" + (*closed ? "closed" : "open") +
                      "' on line " + std::to_string(closed_line));
        }
        if (!closed.has_value()) closed_line = line_no;
        closed = want_closed;
        continue;
      }
      if (text::ParseReal(words[0]).error == text::NumberError::kSyntax) {
        return fail("expected 3 numbers 'X Y Z' or 'open'/'closed', got " + text::Quote(words[0]));
      }
    }
    if (words.size() != 3) {
      return fail("expected 3 numbers 'X Y Z', got " + text::Quote(JoinWords(words)));
    }
    glm::vec3 p(0.0f);
    for (int c = 0; c < 3; ++c) {
      const text::Number n = text::ParseReal(words[static_cast<std::size_t>(c)]);
      const std::string quoted = text::Quote(words[static_cast<std::size_t>(c)]);
      switch (n.error) {
        case text::NumberError::kNone:
          break;
        case text::NumberError::kSyntax:
          return fail(quoted + " is not a number (expected 3 numbers 'X Y Z')");
        case text::NumberError::kNotFinite:
          return fail("coordinate " + quoted + " is not a finite number");
        case text::NumberError::kOutOfRange:
          return fail("coordinate " + quoted + " is out of range (|value| <= 1e6)");
      }
      if (std::fabs(n.value) > Spline::kMaxCoordinate) {
        return fail("coordinate " + quoted + " is out of range (|value| <= 1e6)");
      }
      p[c] = static_cast<float>(n.value);
    }
    if (points.size() > Spline::kMaxPoints) {
      return fail("too many points (at most " + std::to_string(Spline::kMaxPoints) + ")");
    }
    points.push_back(p);
  }

  Result<Spline> spline = Spline::Create(std::move(points), closed.value_or(false));
  if (!spline.ok()) {
    // Values were checked above, so this is a count problem: report it at the end.
    const std::size_t last = lines.empty() ? 1 : lines.size();
    return MakeError(text::AtLine(source_name, last, spline.error()));
  }
  return spline;
}

Result<Spline> LoadSplineFile(const std::string& path) {
  Result<std::string> text = text::ReadTextFile(path);
  if (!text.ok()) return MakeError(text.error());
  return ParseSplineText(text.value(), path);
}

}  // namespace fabrik

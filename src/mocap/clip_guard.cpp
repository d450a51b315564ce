// clip_guard.cpp - see clip_guard.h.
#include "mocap/clip_guard.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "mocap/clip.h"

namespace fabrik::mocap {
namespace {

// Splits text into words as Assimp's BVH importer does: white space separates words, and a
// word that is exactly "{" or "}" ends there (so "{" followed by a name is two words).
class WordReader {
 public:
  explicit WordReader(std::string_view text) : text_(text) {}

  // The next word, or an empty view at the end of the text.
  std::string_view Next() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !IsSpace(text_[pos_])) {
      ++pos_;
      const std::string_view word = text_.substr(start, pos_ - start);
      if (word == "{" || word == "}") break;
    }
    return text_.substr(start, pos_ - start);
  }
  std::size_t remaining() const { return text_.size() - pos_; }
  std::size_t position() const { return pos_; }

 private:
  static bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
  std::string_view text_;
  std::size_t pos_ = 0;
};

// A plain decimal number filling the whole word: [+-]digits[.[digits]][e[+-]digits] or
// [+-].digits[e[+-]digits] (the CMU files write ".0083333"), a subset of what the importer's
// number reader takes (no inf, nan, hexadecimal or decimal comma), so that a word passed here
// is never one the importer refuses. The importer reads the whole part and the exponent each
// into a 64-bit integer and refuses a run of more than 18 digits there; it reads the first
// 15 digits of a fraction and skips the rest, so a fraction may be as long as the word
// (Python's str(float) writes "9.00012000000000000002").
bool IsPlainNumber(std::string_view word) {
  if (word.empty()) return false;
  std::size_t i = 0;
  const auto digits = [&](std::size_t max_run) {
    const std::size_t from = i;
    while (i < word.size() && std::isdigit(static_cast<unsigned char>(word[i]))) ++i;
    return i > from && i - from <= max_run;
  };
  constexpr std::size_t kMaxRun = 18;
  if (word[i] == '+' || word[i] == '-') ++i;
  const std::size_t whole_from = i;
  const bool whole = digits(kMaxRun);
  if (!whole && i != whole_from) return false;  // a whole part too long for the importer
  if (i < word.size() && word[i] == '.') {
    ++i;
    if (!digits(word.size()) && !whole) return false;
  } else if (!whole) {
    return false;
  }
  if (i < word.size() && (word[i] == 'e' || word[i] == 'E')) {
    ++i;
    if (i < word.size() && (word[i] == '+' || word[i] == '-')) ++i;
    if (!digits(kMaxRun)) return false;
  }
  return i == word.size();
}

// IsPlainNumber, and its value, which must be finite.
bool ParseNumber(std::string_view word, double& out) {
  if (!IsPlainNumber(word)) return false;
  out = std::strtod(std::string(word).c_str(), nullptr);
  return std::isfinite(out);
}

bool IsChannelName(std::string_view w) {
  return w == "Xposition" || w == "Yposition" || w == "Zposition" || w == "Xrotation" ||
         w == "Yrotation" || w == "Zrotation";
}

std::string Quote(std::string_view word) {
  constexpr std::size_t kShown = 40;
  if (word.empty()) return "end of file";
  std::string quoted(1, '"');
  quoted.append(word.substr(0, kShown));
  quoted.append(word.size() > kShown ? "...\"" : "\"");
  return quoted;
}

// The 1-based line of byte `pos` of `text`.
std::size_t LineAt(std::string_view text, std::size_t pos) {
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + pos, '\n'));
}

// The motion data after the frame time (`pos`: just after its word): the rest of that line
// blank, then one frame a line, each holding exactly `channels` plain numbers; blank lines
// are skipped. The importer reads values as words whatever the lines, so a frame line with a
// value too many would shift every later frame by one value, and frames beyond the count
// would be dropped: both are refused here, naming the line or both counts.
Status CheckFrameLines(std::string_view text, std::size_t pos, const BvhClaims& claims) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::size_t line = LineAt(text, pos);
  long long frame_lines = 0;
  bool first = true;  // the rest of the frame time's line
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    int values = 0;
    for (std::size_t i = pos; i < end;) {
      if (space(text[i])) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < end && !space(text[j])) ++j;
      const std::string_view value = text.substr(i, j - i);
      if (first) {
        return MakeError("line " + std::to_string(line) + ": " + Quote(value) +
                         " after the frame time: each frame is a line of its own");
      }
      if (!IsPlainNumber(value)) {
        return MakeError("line " + std::to_string(line) + ": value " + Quote(value) +
                         " is not a number");
      }
      ++values;
      i = j;
    }
    if (values > 0) {
      ++frame_lines;
      if (values != claims.channels) {
        return MakeError("line " + std::to_string(line) + " (frame " + std::to_string(frame_lines) +
                         ") has " + std::to_string(values) + " values; the skeleton has " +
                         std::to_string(claims.channels) + " channels, one value each a frame");
      }
    }
    first = false;
    pos = end + 1;
    ++line;
  }
  // With no channels a frame has no values and no line of its own: nothing to count. One
  // frame line more than declared is an exporter's off-by-one seen in real files (Debian's
  // packaged Boxing_Toes.bvh declares 3069 frames and holds 3070): the declared frames are
  // read, as Assimp reads them (docs/mocap.md). Any other difference is refused.
  if (claims.channels > 0 && frame_lines != claims.frames && frame_lines != claims.frames + 1) {
    return MakeError("the file declares " + std::to_string(claims.frames) +
                     " frames (\"Frames:\") but holds " + std::to_string(frame_lines) +
                     " frame lines");
  }
  return Ok{};
}

// The hierarchy after ROOT, to its closing brace: joints, channels, offsets.
Status ReadHierarchy(WordReader& words, BvhClaims& claims) {
  std::string_view word;
  // The hierarchy's grammar, checked in full: the importer leaks the part of the skeleton
  // it has built when it refuses a hierarchy, so a file reaching it must not fail there.
  const auto name_then_brace = [&](const char* what) -> Status {
    const std::string_view name = words.Next();
    if (name.empty() || name == "{")
      return MakeError(std::string("expected a ") + what + " name, found " + Quote(name));
    const std::string_view brace = words.Next();
    if (brace != "{")
      return MakeError("expected \"{\" after " + Quote(name) + ", found " + Quote(brace));
    return Ok{};
  };
  const auto offset = [&]() -> Status {
    for (int k = 0; k < 3; ++k) {
      const std::string_view v = words.Next();
      double unused = 0.0;
      if (!ParseNumber(v, unused))
        return MakeError("OFFSET value " + Quote(v) + " is not a number");
    }
    return Ok{};
  };
  const auto too_many = [] {
    return MakeError("skeleton has more than " + std::to_string(kMaxJoints) +
                     " joints (End Sites included), the limit");
  };
  if (Status s = name_then_brace("ROOT"); !s) return s;
  claims.joints = 1;
  claims.channel_layout.emplace_back();
  int depth = 1;
  while (depth > 0) {
    word = words.Next();
    if (word == "OFFSET") {
      if (Status s = offset(); !s) return s;
    } else if (word == "CHANNELS") {
      const std::string_view count_word = words.Next();
      double count = 0.0;
      if (!ParseNumber(count_word, count) || count < 0.0 || count > 6.0 ||
          count != std::floor(count)) {
        return MakeError("joint " + std::to_string(claims.joints - 1) +
                         " declares a channel count of " + Quote(count_word) +
                         " (0 to 6 accepted)");
      }
      std::string& layout = claims.channel_layout.back();
      layout.clear();
      for (int c = 0; c < static_cast<int>(count); ++c) {
        const std::string_view channel = words.Next();
        if (!IsChannelName(channel)) return MakeError("unknown channel " + Quote(channel));
        layout.append(layout.empty() ? "" : " ").append(channel);
      }
      claims.channels += static_cast<int>(count);
    } else if (word == "JOINT") {
      if (++claims.joints > kMaxJoints) return too_many();
      claims.channel_layout.emplace_back();
      if (Status s = name_then_brace("JOINT"); !s) return s;
      ++depth;
    } else if (word == "End") {
      if (++claims.joints > kMaxJoints) return too_many();
      claims.channel_layout.emplace_back();
      if (words.Next() != "Site" || words.Next() != "{")
        return MakeError("expected \"End Site {\"");
      for (;;) {
        const std::string_view inner = words.Next();
        if (inner == "}") break;
        if (inner != "OFFSET")
          return MakeError("expected OFFSET or \"}\" in an End Site, found " + Quote(inner));
        if (Status s = offset(); !s) return s;
      }
    } else if (word == "}") {
      --depth;
    } else if (word.empty()) {
      return MakeError("no frames: the file ends inside the hierarchy, before MOTION");
    } else {
      return MakeError("unexpected word " + Quote(word) + " in the hierarchy");
    }
  }
  return Ok{};
}

// MOTION, the frame count and the frame time, checked against the limits.
Status ReadMotionHeader(WordReader& words, BvhClaims& claims) {
  std::string_view word;
  word = words.Next();
  if (word != "MOTION") {
    return MakeError("no frames: expected MOTION after the hierarchy, found " + Quote(word));
  }
  word = words.Next();
  if (word != "Frames:")
    return MakeError("expected \"Frames:\" after MOTION, found " + Quote(word));
  const std::string_view frames_word = words.Next();
  double frames = 0.0;
  if (!ParseNumber(frames_word, frames) || frames < 0.0) {
    return MakeError("frame count " + Quote(frames_word) + " is not a number of frames");
  }
  if (frames < 1.0) return MakeError("no frames: the file claims 0 frames");
  if (frames > kMaxFrames) {
    return MakeError("the file claims " + std::string(frames_word) + " frames; the limit is " +
                     std::to_string(kMaxFrames));
  }
  claims.frames = static_cast<int>(frames);
  const std::size_t samples = static_cast<std::size_t>(claims.frames) * claims.joints;
  if (samples > kMaxSamples) {
    return MakeError(std::to_string(claims.frames) + " frames of " + std::to_string(claims.joints) +
                     " joints exceed the limit of " + std::to_string(kMaxSamples) +
                     " joint samples");
  }
  if (words.Next() != "Frame" || words.Next() != "Time:") {
    return MakeError("expected \"Frame Time:\" after the frame count");
  }
  const std::string_view time_word = words.Next();
  double frame_time = 0.0;
  if (!ParseNumber(time_word, frame_time) || !(frame_time >= kMinFrameTime) ||
      !(frame_time <= kMaxFrameTime)) {
    return MakeError("frame time " + Quote(time_word) + " is outside [" +
                     std::to_string(kMinFrameTime) + ", " + std::to_string(kMaxFrameTime) +
                     "] seconds");
  }
  claims.frame_time = static_cast<float>(frame_time);
  return Ok{};
}

}  // namespace

Result<BvhClaims> GuardBvhText(std::string_view text) {
  WordReader words(text);
  BvhClaims claims;
  if (words.Next() != "HIERARCHY")
    return MakeError("not a BVH file: it does not start with HIERARCHY");
  const std::string_view word = words.Next();
  if (word != "ROOT")
    return MakeError("no skeleton: expected ROOT after HIERARCHY, found " + Quote(word));
  if (Status s = ReadHierarchy(words, claims); !s) return MakeError(s.error());
  if (Status s = ReadMotionHeader(words, claims); !s) return MakeError(s.error());
  claims.motion_bytes = words.remaining();
  if (Status s = CheckFrameLines(text, words.position(), claims); !s) return MakeError(s.error());
  return claims;
}

}  // namespace fabrik::mocap

// csm.cpp - CSM marker files through Assimp (csm.h).
#include "markers/csm.h"

#include <assimp/anim.h>
#include <assimp/config.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

#include "io/file_write.h"
#include "markers/text_file.h"

namespace fabrik::markers {

namespace {

// What the guard learnt from the text, and the text Assimp is given.
struct CsmGuard {
  std::vector<std::string> names;
  double rate = 0.0;
  long first = 0, last = -1;
  bool has_first = false, has_last = false, has_rate = false;
  int frames = 0;
  std::vector<std::uint8_t> dropout;  // [frame * markers + marker]
  std::string normalised;
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && IsSpace(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !IsSpace(line[i])) ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

// A plain decimal number (digits, sign, point, exponent), finite.
bool PlainNumber(std::string_view word, double& value) {
  for (char c : word) {
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
      return false;
    }
  }
  if (!word.empty() && word.front() == '+') word.remove_prefix(1);
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  return ec == std::errc() && end == word.data() + word.size() && std::isfinite(value);
}

bool WholeNumber(std::string_view word, long& value) {
  double d = 0;
  if (!PlainNumber(word, d) || std::floor(d) != d || std::fabs(d) > 1e12) return false;
  value = static_cast<long>(d);
  return true;
}

std::string Line(const std::string& src, std::size_t index) {
  return src + ", line " + std::to_string(index + 1);
}

// A "$Key value" line of the header.
Status ReadHeaderValue(std::string_view key, const std::vector<std::string_view>& words,
                       const std::string& where, CsmGuard& g) {
  const std::string_view value = words.size() > 1 ? words[1] : std::string_view();
  if (key == "$FirstFrame" || key == "$LastFrame") {
    long number = 0;
    if (!WholeNumber(value, number))
      return MakeError(where + ": " + std::string(key) + " is not a whole number");
    (key == "$FirstFrame" ? g.first : g.last) = number;
    (key == "$FirstFrame" ? g.has_first : g.has_last) = true;
  } else if (key == "$Rate") {
    if (!PlainNumber(value, g.rate)) return MakeError(where + ": $Rate is not a number");
    g.has_rate = true;
  }
  return Ok{};
}

Status CheckClaims(const CsmGuard& g, const std::string& src) {
  if (!g.has_first || !g.has_last || !g.has_rate) {
    return MakeError(src + ": $FirstFrame, $LastFrame and $Rate are required before $Points");
  }
  if (g.names.empty()) return MakeError(src + ": no markers ($Order is missing or empty)");
  if (g.names.size() > static_cast<std::size_t>(kMaxMarkers)) {
    return MakeError(src + ": more than " + std::to_string(kMaxMarkers) + " markers");
  }
  const long claimed = g.last - g.first + 1;
  if (claimed < 1) return MakeError(src + ": no frames ($LastFrame is before $FirstFrame)");
  if (claimed > kMaxFrames) {
    return MakeError(src + ": claims " + std::to_string(claimed) + " frames, above the limit of " +
                     std::to_string(kMaxFrames));
  }
  if (static_cast<double>(claimed) * g.names.size() > static_cast<double>(kMaxSamples)) {
    return MakeError(src + ": claims frames x markers above the limit of " +
                     std::to_string(kMaxSamples));
  }
  return Ok{};
}

// One $Points line: the frame number, then x y z or DROPOUT per marker.
Status ReadPointLine(const std::vector<std::string_view>& words, const std::string& where,
                     CsmGuard& g) {
  long frame = 0;
  if (!WholeNumber(words[0], frame)) return MakeError(where + ": the frame number is not a number");
  if (frame != g.first + g.frames) {
    return MakeError(where + ": frame " + std::to_string(frame) + " where " +
                     std::to_string(g.first + g.frames) + " comes next");
  }
  if (g.frames >= g.last - g.first + 1) {
    return MakeError(where + ": more frame lines than $FirstFrame..$LastFrame claim");
  }
  std::string out = std::to_string(g.frames + 1);
  std::size_t w = 1;
  for (std::size_t m = 0; m < g.names.size(); ++m) {
    if (w < words.size() && words[w] == "DROPOUT") {
      g.dropout.push_back(1);
      out += " 0 0 0";
      ++w;
      continue;
    }
    for (int k = 0; k < 3; ++k, ++w) {
      double value = 0;
      if (w >= words.size())
        return MakeError(where + ": too few values for " + std::to_string(g.names.size()) +
                         " markers");
      if (!PlainNumber(words[w], value) || std::fabs(value) * 0.001 > kMaxMetres) {
        return MakeError(where + ": marker " + g.names[m] + ": \"" +
                         Printable(words[w].substr(0, 30)) +
                         "\" is not a plain number within 1000 m");
      }
      out += ' ';
      out += words[w];
    }
    g.dropout.push_back(0);
  }
  if (w != words.size()) return MakeError(where + ": more values than the markers need");
  g.normalised += out + '\n';
  ++g.frames;
  return Ok{};
}

Result<CsmGuard> GuardCsm(std::string_view text, const std::string& src) {
  CsmGuard g;
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  enum { kHeader, kOrder, kPoints } section = kHeader;
  bool has_points = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::vector<std::string_view> words = Words(lines[i]);
    if (words.empty()) continue;
    if (words[0].front() == '$') {
      section = kHeader;
      if (words[0] == "$Order") section = kOrder;
      if (words[0] == "$Points") {
        if (Status claims = CheckClaims(g, src); !claims.ok()) return MakeError(claims.error());
        section = kPoints, has_points = true;
      }
      if (Status s = ReadHeaderValue(words[0], words, Line(src, i), g); !s.ok())
        return MakeError(s.error());
      continue;
    }
    if (section == kOrder) {
      for (std::string_view name : words) {
        if (const char* problem = CheckMarkerName(std::string(name)))
          return MakeError(Line(src, i) + ": " + problem);
        if (g.names.size() >= static_cast<std::size_t>(kMaxMarkers))
          return MakeError(src + ": more than " + std::to_string(kMaxMarkers) + " markers");
        g.names.emplace_back(name);
      }
    } else if (section == kPoints) {
      if (Status s = ReadPointLine(words, Line(src, i), g); !s.ok()) return MakeError(s.error());
    }
  }
  if (!has_points) return MakeError(src + ": not a CSM file (no $Points section)");
  if (g.frames != g.last - g.first + 1) {
    return MakeError(src + ": $FirstFrame..$LastFrame claim " +
                     std::to_string(g.last - g.first + 1) + " frames but the file has " +
                     std::to_string(g.frames));
  }
  return g;
}

std::string AssimpText(const CsmGuard& g) {
  std::string text =
      "$FirstFrame 0\n$LastFrame " + std::to_string(g.frames + 1) + "\n$Rate 1\n$Order\n";
  for (const std::string& name : g.names) text += name + ' ';
  text += "\n$Points\n";
  return text + g.normalised;
}

// Assimp's scene into the take, checked against what the guard read.
Status FillFromScene(const aiScene& scene, const CsmGuard& g, Take& take) {
  if (scene.mNumAnimations != 1) return MakeError(take.source + ": Assimp read no animation");
  const aiAnimation& anim = *scene.mAnimations[0];
  if (anim.mNumChannels != g.names.size())
    return MakeError(take.source + ": Assimp read a different marker count");
  const std::size_t markers = g.names.size();
  for (std::size_t m = 0; m < markers; ++m) {
    const aiNodeAnim& channel = *anim.mChannels[m];
    if (g.names[m] != channel.mNodeName.C_Str() ||
        channel.mNumPositionKeys != static_cast<unsigned>(g.frames)) {
      return MakeError(take.source + ": Assimp read marker " + g.names[m] + " differently");
    }
    for (int f = 0; f < g.frames; ++f) {
      const std::size_t i = static_cast<std::size_t>(f) * markers + m;
      if (g.dropout[i]) continue;
      const aiVector3D& v = channel.mPositionKeys[f].mValue;
      take.positions[i] = FileToWorld(glm::vec3(v.x, v.y, v.z), 0.001f, UpAxis::kZ);
      take.seen[i] = 1;
    }
  }
  return Ok{};
}

}  // namespace

Result<Take> ReadCsmText(std::string_view text, const std::string& source) {
  Result<CsmGuard> guard = GuardCsm(text, source);
  if (!guard.ok()) return MakeError(guard.error());
  const CsmGuard& g = guard.value();
  Take take;
  take.source = source;
  take.names = g.names;
  take.frame_count = g.frames;
  take.rate = static_cast<float>(g.rate);
  take.first_frame = static_cast<int>(g.first);
  take.unit = "mm";
  take.up = UpAxis::kZ;
  if (!(g.rate >= kMinRate && g.rate <= kMaxRate))
    return MakeError(source + ": $Rate is outside [1, 10000]");
  take.positions.assign(g.dropout.size(), glm::vec3(0.0f));
  take.seen.assign(g.dropout.size(), 0);
  const std::string assimp_text = AssimpText(g);
  try {
    Assimp::Importer importer;
    importer.SetPropertyInteger(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, 1);
    const aiScene* scene =
        importer.ReadFileFromMemory(assimp_text.data(), assimp_text.size(), 0, "csm");
    if (scene == nullptr)
      return MakeError(source + ": Assimp cannot read it: " + importer.GetErrorString());
    if (Status filled = FillFromScene(*scene, g, take); !filled.ok())
      return MakeError(filled.error());
  } catch (const std::exception& e) {
    return MakeError(source + ": Assimp failed: " + e.what());
  }
  if (Status valid = ValidateTake(take); !valid.ok()) return MakeError(valid.error());
  return take;
}

Result<Take> ReadCsmFile(const std::string& path) {
  Result<std::string> bytes = ReadMarkerFile(path);
  if (!bytes.ok()) return MakeError(bytes.error());
  return ReadCsmText(bytes.value(), path);
}

std::string CsmText(const Take& take) {
  std::string out = "$Filename fabrik-markers\n\n$FirstFrame " + std::to_string(take.first_frame) +
                    "\n$LastFrame " + std::to_string(take.first_frame + take.frame_count - 1);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "\n$Rate %.3f\n\n$Order\n", take.rate);
  out += buffer;
  for (const std::string& name : take.names) out += name + ' ';
  out += "\n\n$Points\n";
  for (int f = 0; f < take.frame_count; ++f) {
    out += std::to_string(take.first_frame + f);
    for (int m = 0; m < take.marker_count(); ++m) {
      if (!take.is_seen(f, m)) {
        out += " DROPOUT";
        continue;
      }
      const glm::vec3 p = WorldToFile(take.position(f, m), 0.001f, UpAxis::kZ);
      std::snprintf(buffer, sizeof buffer, " %.6f %.6f %.6f", p.x, p.y, p.z);
      out += buffer;
    }
    out += '\n';
  }
  return out;
}

Status WriteCsmFile(const Take& take, const std::string& path) {
  return io::WriteFileAtomic(path, CsmText(take));
}

}  // namespace fabrik::markers

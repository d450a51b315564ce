// marker_set.cpp - marker set files (marker_set.h).
#include "markers/marker_set.h"

#include <unistd.h>

#include <filesystem>
#include <map>

#include "markers/text_file.h"

namespace fabrik::markers {

namespace {

std::vector<std::string> SplitWords(std::string_view s) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') ++i;
    if (i > start) words.emplace_back(s.substr(start, i - start));
  }
  return words;
}

int SegmentIndex(const std::string& name) {
  for (int s = 0; s < kSegmentCount; ++s) {
    if (name == kSegmentNames[s]) return s;
  }
  return -1;
}

bool Adjacent(int a, int b) { return kSegmentParents[a] == b || kSegmentParents[b] == a; }

Status ParseLine(std::string_view line, const std::string& where, MarkerSet& set,
                 std::array<bool, kSegmentCount>& listed, std::map<std::string, int>& first) {
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return MakeError(where + ": expected SEGMENT: MARKERS");
  const std::vector<std::string> head = SplitWords(line.substr(0, colon));
  const int s = head.size() == 1 ? SegmentIndex(head[0]) : -1;
  if (s < 0) return MakeError(where + ": unknown segment (see docs/markers.md for the names)");
  if (listed[s]) return MakeError(where + ": segment " + head[0] + " is listed twice");
  listed[s] = true;
  const std::vector<std::string> names = SplitWords(line.substr(colon + 1));
  if (names.size() > static_cast<std::size_t>(kMaxMarkersPerSegment)) {
    return MakeError(where + ": more than 64 markers on " + head[0]);
  }
  for (const std::string& name : names) {
    if (const char* problem = CheckMarkerName(name)) return MakeError(where + ": " + problem);
    const auto [it, inserted] = first.emplace(name, s);
    if (!inserted) {
      if (it->second == -2)
        return MakeError(where + ": marker " + name + " is on more than two segments");
      if (it->second == s) return MakeError(where + ": marker " + name + " is listed twice");
      if (!Adjacent(it->second, s)) {
        return MakeError(where + ": marker " + name + " is on " + kSegmentNames[it->second] +
                         " and " + head[0] + ", which do not meet at a joint");
      }
      it->second = -2;
    }
    set.segments[s].push_back(name);
  }
  const std::size_t need = s == kPelvis ? 3 : 1;
  if (names.size() < need) {
    return MakeError(where + ": " + head[0] + " needs at least " + std::to_string(need) +
                     " markers");
  }
  return Ok{};
}

}  // namespace

Result<MarkerSet> ParseMarkerSet(std::string_view text, const std::string& source) {
  MarkerSet set;
  set.source = source;
  std::array<bool, kSegmentCount> listed{};
  std::map<std::string, int> first;
  std::size_t number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    if (SplitWords(line).empty()) continue;
    Status s = ParseLine(line, source + ", line " + std::to_string(number), set, listed, first);
    if (!s.ok()) return MakeError(s.error());
  }
  for (int s = 0; s < kSegmentCount; ++s) {
    if (!listed[s]) return MakeError(source + ": segment " + kSegmentNames[s] + " is missing");
  }
  return set;
}

Result<MarkerSet> LoadMarkerSetFile(const std::string& path) {
  Result<std::string> bytes = ReadMarkerFile(path);
  if (!bytes.ok()) return MakeError(bytes.error());
  return ParseMarkerSet(bytes.value(), path);
}

Result<MarkerSet> LoadDefaultMarkerSet() {
  std::vector<std::filesystem::path> candidates;
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    const std::filesystem::path dir = std::filesystem::path(std::string(exe, n)).parent_path();
    candidates.push_back(dir / "../share/fabrik/assets/markers/cmu.txt");
    candidates.push_back(dir / "../assets/markers/cmu.txt");
    candidates.push_back(dir / "../../assets/markers/cmu.txt");
  }
#ifdef FABRIK_SOURCE_DIR
  candidates.push_back(std::filesystem::path(FABRIK_SOURCE_DIR) / "assets/markers/cmu.txt");
#endif
  std::string tried;
  for (const auto& c : candidates) {
    std::error_code error;
    if (std::filesystem::is_regular_file(c, error))
      return LoadMarkerSetFile(c.lexically_normal().string());
    tried += (tried.empty() ? "" : ", ") + c.lexically_normal().string();
  }
  return MakeError("the default marker set assets/markers/cmu.txt was not found (looked in " +
                   tried + "); give one with --set");
}

Result<BoundSet> BindMarkerSet(const MarkerSet& set, const Take& take) {
  BoundSet bound;
  bound.home.assign(take.names.size(), -1);
  std::string missing;
  for (int s = 0; s < kSegmentCount; ++s) {
    for (const std::string& name : set.segments[s]) {
      const int m = take.find(name);
      if (m < 0) {
        missing += (missing.empty() ? "" : " ") + name;
        continue;
      }
      bound.segments[s].push_back(m);
      if (bound.home[m] < 0) bound.home[m] = s;
    }
  }
  if (!missing.empty()) {
    return MakeError(set.source + " names markers that " + take.source + " lacks: " + missing);
  }
  return bound;
}

}  // namespace fabrik::markers

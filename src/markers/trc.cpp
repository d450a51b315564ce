// trc.cpp - TRC marker files (trc.h).
#include "markers/trc.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "io/file_write.h"
#include "markers/text_file.h"

namespace fabrik::markers {

namespace {

// Splits `text` into lines (without "\n" or a trailing "\r").
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (end < text.size() || !line.empty()) lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    if (tab == std::string_view::npos) {
      fields.push_back(line.substr(start));
      return fields;
    }
    fields.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A whole field as a finite number.
bool ParseNumber(std::string_view s, double& value) {
  s = Trim(s);
  if (s.empty()) return false;
  if (s.front() == '+') s.remove_prefix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(value);
}

struct TrcHeader {
  double rate = 0, frames = 0, markers = 0;
  std::string unit;
  UpAxis up = UpAxis::kY;
};

Result<TrcHeader> ReadHeader(const std::vector<std::string_view>& lines, const std::string& src) {
  if (lines.size() < 5) return MakeError(src + ": not a TRC file (fewer than 5 header lines)");
  if (Trim(lines[0]).substr(0, 12) != "PathFileType") {
    return MakeError(src + ": not a TRC file (line 1 does not start with PathFileType)");
  }
  const auto keys = Fields(lines[1]);
  const auto values = Fields(lines[2]);
  TrcHeader h;
  bool has_rate = false, has_frames = false, has_markers = false;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string_view key = Trim(keys[i]);
    const std::string_view value = i < values.size() ? Trim(values[i]) : std::string_view();
    double number = 0;
    const bool numeric = ParseNumber(value, number);
    auto bad = [&] {
      return MakeError(src + ", line 3: " + std::string(key) + " is not a number");
    };
    if (key == "DataRate") {
      if (!numeric) return bad();
      h.rate = number, has_rate = true;
    } else if (key == "NumFrames") {
      if (!numeric) return bad();
      h.frames = number, has_frames = true;
    } else if (key == "NumMarkers") {
      if (!numeric) return bad();
      h.markers = number, has_markers = true;
    } else if (key == "Units") {
      h.unit = std::string(value);
    } else if (key == "UpAxis") {
      if (value != "Y" && value != "Z") return MakeError(src + ", line 3: UpAxis is not Y or Z");
      h.up = value == "Z" ? UpAxis::kZ : UpAxis::kY;
    }
  }
  if (!has_rate || !has_frames || !has_markers || h.unit.empty()) {
    return MakeError(src + ", line 2: DataRate, NumFrames, NumMarkers and Units are required");
  }
  if (UnitMetres(h.unit) == 0.0f) {
    return MakeError(src + ", line 3: unknown Units " + Printable(h.unit) + " (mm, cm or m)");
  }
  if (!(h.rate >= kMinRate && h.rate <= kMaxRate)) {
    return MakeError(src + ", line 3: DataRate is outside [1, 10000]");
  }
  if (h.frames < 1) return MakeError(src + ": no frames");
  if (h.markers < 1) return MakeError(src + ": no markers");
  if (h.frames > kMaxFrames || std::floor(h.frames) != h.frames) {
    return MakeError(src + ", line 3: NumFrames is not a whole number up to the limit of " +
                     std::to_string(kMaxFrames));
  }
  if (h.markers > kMaxMarkers || std::floor(h.markers) != h.markers) {
    return MakeError(src + ", line 3: NumMarkers is not a whole number up to the limit of " +
                     std::to_string(kMaxMarkers));
  }
  if (h.frames * h.markers > static_cast<double>(kMaxSamples)) {
    return MakeError(src + ": frames x markers above the limit of " + std::to_string(kMaxSamples));
  }
  return h;
}

Status ReadNames(std::string_view line, int count, const std::string& src, Take& take) {
  const auto fields = Fields(line);
  if (fields.size() < 2 || Trim(fields[0]) != "Frame#") {
    return MakeError(src + ", line 4: expected Frame# and Time before the marker names");
  }
  for (std::size_t i = 2; i < fields.size(); ++i) {
    const std::string_view name = Trim(fields[i]);
    if (name.empty()) continue;
    if (const char* problem = CheckMarkerName(std::string(name))) {
      return MakeError(src + ", line 4: " + problem + " (\"" + Printable(name) + "\")");
    }
    if (take.names.size() >= static_cast<std::size_t>(kMaxMarkers)) {
      return MakeError(src + ", line 4: more than " + std::to_string(kMaxMarkers) + " markers");
    }
    take.names.emplace_back(name);
  }
  if (take.marker_count() != count) {
    return MakeError(src + ", line 4: " + std::to_string(take.marker_count()) +
                     " marker names where NumMarkers says " + std::to_string(count));
  }
  return Ok{};
}

Status ReadDataLine(std::string_view line, int frame, int line_number, float metres,
                    const std::string& src, Take& take) {
  const auto fields = Fields(line);
  const std::string where = src + ", line " + std::to_string(line_number);
  const std::size_t markers = take.names.size();
  if (fields.size() > 2 + 3 * markers + 1) return MakeError(where + ": too many fields");
  double number = 0;
  if (!ParseNumber(fields[0], number))
    return MakeError(where + ": the frame number is not a number");
  if (frame == 0) take.first_frame = static_cast<int>(std::fmin(std::fmax(number, -1e9), 1e9));
  for (std::size_t m = 0; m < markers; ++m) {
    double xyz[3];
    int present = 0;
    for (int k = 0; k < 3; ++k) {
      const std::size_t i = 2 + 3 * m + k;
      const std::string_view field = i < fields.size() ? Trim(fields[i]) : std::string_view();
      if (field.empty()) continue;
      if (!ParseNumber(field, xyz[k])) {
        return MakeError(where + ": marker " + take.names[m] + ": \"" + Printable(field) +
                         "\" is not a finite number");
      }
      ++present;
    }
    if (present == 0) continue;
    if (present != 3) return MakeError(where + ": marker " + take.names[m] + ": a partial x y z");
    const glm::vec3 file(static_cast<float>(xyz[0]), static_cast<float>(xyz[1]),
                         static_cast<float>(xyz[2]));
    take.positions[take.index(frame, static_cast<int>(m))] = FileToWorld(file, metres, take.up);
    take.seen[take.index(frame, static_cast<int>(m))] = 1;
  }
  return Ok{};
}

}  // namespace

Result<Take> ReadTrcText(std::string_view text, const std::string& source) {
  const std::vector<std::string_view> lines = Lines(text);
  Result<TrcHeader> header = ReadHeader(lines, source);
  if (!header.ok()) return MakeError(header.error());
  const TrcHeader& h = header.value();
  Take take;
  take.source = source;
  take.rate = static_cast<float>(h.rate);
  take.unit = h.unit;
  take.up = h.up;
  if (Status names = ReadNames(lines[3], static_cast<int>(h.markers), source, take); !names.ok()) {
    return MakeError(names.error());
  }
  int data_lines = 0;
  for (std::size_t i = 5; i < lines.size(); ++i) data_lines += Trim(lines[i]).empty() ? 0 : 1;
  if (data_lines != static_cast<int>(h.frames)) {
    return MakeError(source + ": NumFrames says " + std::to_string(static_cast<long>(h.frames)) +
                     " but the file has " + std::to_string(data_lines) + " data lines");
  }
  take.frame_count = data_lines;
  take.positions.assign(static_cast<std::size_t>(data_lines) * take.names.size(), glm::vec3(0.0f));
  take.seen.assign(take.positions.size(), 0);
  const float metres = UnitMetres(take.unit);
  int frame = 0;
  for (std::size_t i = 5; i < lines.size(); ++i) {
    if (Trim(lines[i]).empty()) continue;
    Status line = ReadDataLine(lines[i], frame, static_cast<int>(i) + 1, metres, source, take);
    if (!line.ok()) return MakeError(line.error());
    ++frame;
  }
  if (Status valid = ValidateTake(take); !valid.ok()) return MakeError(valid.error());
  return take;
}

Result<Take> ReadTrcFile(const std::string& path) {
  Result<std::string> bytes = ReadMarkerFile(path);
  if (!bytes.ok()) return MakeError(bytes.error());
  return ReadTrcText(bytes.value(), path);
}

namespace {

void AppendNumber(std::string& out, double value) {
  char buffer[64];
  const int n = std::snprintf(buffer, sizeof buffer, "%.6f", value);
  out.append(buffer, static_cast<std::size_t>(n));
}

}  // namespace

std::string TrcText(const Take& take) {
  const float metres = UnitMetres(take.unit);
  std::string name = take.source.substr(take.source.find_last_of('/') + 1);
  for (char& c : name) c = (c > ' ' && c < 0x7f) ? c : '_';
  std::string out = "PathFileType\t4\t(X/Y/Z)\t" + name + "\n";
  out +=
      "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame"
      "\tOrigNumFrames\n";
  std::string rate;
  AppendNumber(rate, take.rate);
  out += rate + "\t" + rate + "\t" + std::to_string(take.frame_count) + "\t" +
         std::to_string(take.marker_count()) + "\t" + take.unit + "\t" + rate + "\t" +
         std::to_string(take.first_frame) + "\t" + std::to_string(take.frame_count) + "\n";
  out += "Frame#\tTime";
  for (const std::string& name : take.names) out += "\t" + name + "\t\t";
  out += "\n\t";
  for (int m = 1; m <= take.marker_count(); ++m) {
    const std::string k = std::to_string(m);
    out += "\tX" + k + "\tY" + k + "\tZ" + k;
  }
  out += "\n\n";
  for (int f = 0; f < take.frame_count; ++f) {
    out += std::to_string(take.first_frame + f) + "\t";
    AppendNumber(out, f / static_cast<double>(take.rate));
    for (int m = 0; m < take.marker_count(); ++m) {
      if (!take.is_seen(f, m)) {
        out += "\t\t\t";
        continue;
      }
      const glm::vec3 p = WorldToFile(take.position(f, m), metres, UpAxis::kY);
      for (int k = 0; k < 3; ++k) out += '\t', AppendNumber(out, p[k]);
    }
    out += '\n';
  }
  return out;
}

Status WriteTrcFile(const Take& take, const std::string& path) {
  return io::WriteFileAtomic(path, TrcText(take));
}

}  // namespace fabrik::markers

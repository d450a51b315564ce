// The settings table, gathered from the commands' entries, and the helpers their checks share
// (docs/settings.md).
#include "core/saved_setting.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>

#include "core/command_table.h"
#include "lang/text.h"

namespace fabrik {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxPathBytes = 4096;

bool IsPath(const std::string& path) {
  if (path.empty() || path.size() > kMaxPathBytes) return false;
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f || c == '"') return false;
  }
  return true;
}

// The restore of a setting restored by the line `COMMAND VALUE`.
std::function<void(const json&, const SettingValues&, RestoreLines&)> LineOf(std::string command) {
  return [command = std::move(command)](const json& v, const SettingValues&, RestoreLines& out) {
    out.now.push_back(command + " " + SettingText(v));
  };
}

// A flag: a JSON bool under its name, restored by `NAME on|off`.
SettingRow FlagRow(const CommandEntry& flag) {
  SettingRow row;
  row.key = std::string(flag.language.name);
  row.order = RestoreOrder::kFlag;
  row.capture = [&flag](const AppState& state) { return json(FlagValue(state, flag)); };
  row.check = [](const json& v) -> Result<json> {
    if (!v.is_boolean()) return MakeError("expected true or false");
    return v;
  };
  row.restore = LineOf(row.key);
  return row;
}

// An app command's `saved`: its canonical words as a JSON string under its name, held to what
// the console would take (the entry's own parse, words written back canonical), restored by
// `NAME WORDS`.
SettingRow CommandRow(const CommandEntry& entry) {
  SettingRow row;
  row.key = std::string(entry.language.name);
  row.order = RestoreOrder::kCommand;
  row.capture = [&entry](const AppState& state) {
    std::string words = entry.saved(state);
    return words.empty() ? json() : json(std::move(words));
  };
  row.check = [&entry](const json& v) -> Result<json> {
    Result<std::vector<std::string>> words =
        v.is_string() ? text::Tokenize(v.get<std::string>())
                      : Result<std::vector<std::string>>(MakeError("not a string"));
    Result<std::vector<std::string>> args =
        words.ok() ? entry.language.parse(words.value()) : MakeError(words.error());
    if (!args.ok())
      return MakeError("expected what '" + std::string(entry.language.usage) + "' takes");
    std::string joined;
    for (const std::string& w : args.value()) joined += (joined.empty() ? "" : " ") + w;
    return json(joined);
  };
  row.restore = LineOf(row.key);
  return row;
}

SettingRow Row(const SavedSetting& s) {
  SettingRow row{std::string(s.key), s.order, s.capture, s.check, s.restore, s.overridden_by};
  if (s.restore == nullptr) row.restore = LineOf(std::string(s.command));
  return row;
}

}  // namespace

std::span<const SettingRow> SettingsTable() {
  static const std::vector<SettingRow> table = [] {
    std::vector<SettingRow> t;
    // The registry lists the typed built-ins, the app commands and the flags in that order,
    // the order rows of the same RestoreOrder keep.
    for (const CommandEntry& e : CommandRegistry()) {
      if (e.setting != nullptr) t.push_back(Row(*e.setting));
      if (e.saved != nullptr) t.push_back(CommandRow(e));
      if (e.is_flag() && e.flag.saved) t.push_back(FlagRow(e));
    }
    std::stable_sort(t.begin(), t.end(),
                     [](const SettingRow& a, const SettingRow& b) { return a.order < b.order; });
    return t;
  }();
  return table;
}

bool SettingNumber(const json& v, double lo, double hi, bool lo_open, double& out) {
  if (!v.is_number()) return false;
  const double d = v.get<double>();
  const double f = static_cast<float>(d);
  for (const double x : {d, f}) {
    if (!std::isfinite(x) || x > hi || (lo_open ? x <= lo : x < lo)) return false;
  }
  out = d;
  return true;
}

Result<json> CheckSettingReal(const json& v, double lo, double hi, bool lo_open,
                              std::string_view range) {
  double d = 0.0;
  if (!SettingNumber(v, lo, hi, lo_open, d)) {
    return MakeError("expected a number " + std::string(range));
  }
  return json(static_cast<float>(d));
}

Result<json> CheckSettingNumber(const json& v, const NumberRange& range) {
  if (!v.is_number() || !range.Contains(v.get<double>())) {
    return MakeError("expected a number " + std::string(range.text));
  }
  return json(static_cast<float>(v.get<double>()));
}

Result<json> CheckSettingWhole(const json& v, long lo, long hi, std::string_view expected) {
  if (v.is_number_integer()) {
    const long long n =
        v.is_number_unsigned()
            ? static_cast<long long>(std::min<std::uint64_t>(v.get<std::uint64_t>(), 1ull << 62))
            : v.get<long long>();
    if (n >= lo && n <= hi) return json(static_cast<long>(n));
  }
  return MakeError(std::string(expected));
}

Result<json> CheckSettingWord(const json& v, bool (*valid)(const std::string&),
                              std::string_view what) {
  if (!v.is_string() || !valid(v.get<std::string>())) {
    return MakeError("expected " + std::string(what));
  }
  return v;
}

Result<json> CheckSettingPath(const json& v) { return CheckSettingWord(v, IsPath, "a path"); }

std::string SettingText(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "on" : "off";
  if (v.is_number_float()) return SettingReal(v.get<float>());
  if (v.is_number()) return std::to_string(v.get<long long>());
  std::string text;
  if (v.is_array()) {
    for (const json& item : v) text += (text.empty() ? "" : " ") + SettingText(item);
  }
  return text;
}

std::string SettingReal(float v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
  return buf;
}

std::string SettingQuoted(std::string_view words, const std::string& path) {
  std::string out(words);
  out += " \"";
  out += path;
  out += '"';
  return out;
}

std::string SettingPath(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  if (p.is_relative() && fs::is_regular_file(p, ec)) {
    const fs::path absolute = fs::absolute(p, ec);
    if (!ec) return absolute.lexically_normal().string();
  }
  return path;
}

}  // namespace fabrik

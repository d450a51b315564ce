// The built-in commands' core entries, gathered from their group files, and the dispatch of a
// command to its apply by its place in Command.
#include "core/builtin_table.h"

#include <array>
#include <string>
#include <vector>

namespace fabrik {
namespace {

// One line per file of core/commands/, and the core's own.
using Group = std::span<const BuiltinEntry> (*)();
constexpr Group kBuiltinGroups[] = {ChainBuiltins, PlaybackBuiltins, SessionBuiltins, ViewBuiltins,
                                    CoreBuiltins};

constexpr std::size_t kAlternatives = std::variant_size_v<Command>;

// Each alternative's command name, for the check's message.
template <class... Ts>
constexpr std::array<std::string_view, sizeof...(Ts)> NamesOf(const std::variant<Ts...>*) {
  return {Ts::kName...};
}
constexpr auto kNames = NamesOf(static_cast<const Command*>(nullptr));

using ApplyFn = decltype(BuiltinApply::apply);

// The apply of each alternative, from the table (null where it has none).
const std::array<ApplyFn, kAlternatives>& Dispatch() {
  static const std::array<ApplyFn, kAlternatives> dispatch = [] {
    std::array<ApplyFn, kAlternatives> d{};
    for (const BuiltinEntry& e : BuiltinTable()) {
      for (const BuiltinApply& a : e.applies) {
        if (a.index < kAlternatives && d[a.index] == nullptr) d[a.index] = a.apply;
      }
    }
    return d;
  }();
  return dispatch;
}

}  // namespace

std::span<const BuiltinEntry> BuiltinTable() {
  static const std::vector<BuiltinEntry> table = [] {
    std::vector<BuiltinEntry> t;
    for (Group group : kBuiltinGroups) {
      for (const BuiltinEntry& e : group()) t.push_back(e);
    }
    return t;
  }();
  return table;
}

Status CheckBuiltinApplies(std::span<const BuiltinEntry> entries) {
  std::array<int, kAlternatives> count{};
  for (const BuiltinEntry& e : entries) {
    for (const BuiltinApply& a : e.applies) {
      if (a.index >= kAlternatives || a.apply == nullptr) {
        return MakeError("built-in commands: '" + std::string(e.name) +
                         "' lists an apply that is not one of Command's alternatives");
      }
      ++count[a.index];
    }
  }
  for (std::size_t i = 0; i < kAlternatives; ++i) {
    if (count[i] == 1) continue;
    const std::string name = kNames[i].empty() ? "(no name)" : "'" + std::string(kNames[i]) + "'";
    return MakeError("built-in commands: " + name + " (Command alternative " + std::to_string(i) +
                     ") has " + (count[i] == 0 ? "no apply" : "more than one apply"));
  }
  return Ok{};
}

ApplyFn BuiltinApplyFor(std::size_t index) {
  return index < kAlternatives ? Dispatch()[index] : nullptr;
}

}  // namespace fabrik

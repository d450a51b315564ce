// The built-in commands' core entries, gathered from their group files.
#include "core/builtin_table.h"

#include <vector>

namespace fabrik {
namespace {

// One line per file of core/commands/.
using Group = std::span<const BuiltinEntry> (*)();
constexpr Group kGroups[] = {ChainBuiltins, PlaybackBuiltins, SessionBuiltins, ViewBuiltins};

}  // namespace

std::span<const BuiltinEntry> BuiltinTable() {
  static const std::vector<BuiltinEntry> table = [] {
    std::vector<BuiltinEntry> t;
    for (Group group : kGroups) {
      for (const BuiltinEntry& e : group()) t.push_back(e);
    }
    return t;
  }();
  return table;
}

}  // namespace fabrik

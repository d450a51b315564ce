// The built-in commands' saved entries, gathered from their group files.
#include "core/builtin_table.h"

#include <vector>

namespace fabrik {
namespace {

// One line per file of core/commands/ with saved commands.
using Group = std::span<const BuiltinEntry> (*)();
constexpr Group kBuiltinGroups[] = {ChainBuiltins, PlaybackBuiltins, SessionBuiltins};

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

}  // namespace fabrik

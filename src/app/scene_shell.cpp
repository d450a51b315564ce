#include "app/scene_shell.h"

#include <array>

namespace fabrik {
namespace {

using MakeShell = SceneShell (*)();
constexpr MakeShell kShells[] = {ArmShell,    CreatureShell, FieldShell,
                                 WalkerShell, MocapShell,    CrowdShell};

}  // namespace

const SceneShell* FindSceneShell(std::string_view name) {
  // Built once, on first use (the entries are constants).
  static const auto shells = [] {
    std::array<SceneShell, std::size(kShells)> all{};
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = kShells[i]();
    return all;
  }();
  for (const SceneShell& shell : shells) {
    if (shell.name == name) return &shell;
  }
  return nullptr;
}

}  // namespace fabrik

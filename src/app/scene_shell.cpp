#include "app/scene_shell.h"

#include <array>

#include "core/scene_registry.h"
#include "scenes/registry.h"

namespace fabrik {

// Each registry line's shell function, defined in the scene's NAME_shell.cpp.
#define FABRIK_DECLARE_SHELL(NAME, CORE, SHELL) SceneShell SHELL();
FABRIK_SCENES(FABRIK_DECLARE_SHELL)
#undef FABRIK_DECLARE_SHELL

namespace {

struct NamedShell {
  std::string_view name;
  SceneShell (*make)();
};

#define FABRIK_SHELL_ENTRY(NAME, CORE, SHELL) NamedShell{#NAME, SHELL},
constexpr NamedShell kShells[] = {FABRIK_SCENES(FABRIK_SHELL_ENTRY)};
#undef FABRIK_SHELL_ENTRY

}  // namespace

const SceneShell* FindSceneShell(std::string_view name) {
  // Built once, on first use (the entries are constants).
  static const auto shells = [] {
    std::array<SceneShell, std::size(kShells)> all{};
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = kShells[i].make();
    return all;
  }();
  for (std::size_t i = 0; i < shells.size(); ++i) {
    if (kShells[i].name == name) return &shells[i];
  }
  return nullptr;
}

std::span<const OptionScene> OptionScenes() {
  static const auto scenes = [] {
    std::array<OptionScene, std::size(kShells)> all{};
    const std::span<const SceneEntry> entries = RegisteredScenes();  // the same registry order
    for (std::size_t i = 0; i < all.size(); ++i) {
      const SceneShell* shell = FindSceneShell(kShells[i].name);
      all[i] = {kShells[i].name, entries[i].options, shell->check_options};
    }
    return all;
  }();
  return scenes;
}

}  // namespace fabrik

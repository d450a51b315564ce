// registry.h - the one list of scenes. Each line names a scene for both halves of the program:
//
//   X(NAME, CORE, SHELL)
//
//   NAME   the scene's name as `scene NAME`, --scene and the settings file write it;
//   CORE   a function `SceneEntry CORE()` (core/scene_registry.h) defined in the scene's core
//          files in src/scenes/NAME/: how to make the scene and the commands it adds;
//   SHELL  a function `SceneShell SHELL()` (app/scene_shell.h) defined in its
//          src/scenes/NAME/NAME_shell.cpp: its label, panel section and drawing.
//
// The core's registry (core/scene_registry.cpp) and the app's shell table
// (app/scene_shell.cpp) both expand this list, so `scene`, --scene, Tab completion,
// `help scene`, the settings check, the panel's scene list and the drawing all follow it. The
// order is the panel's and `help scene`'s; "chain" stays first (the scene at start).
// Adding a scene: its folder src/scenes/NAME/ and one line here (docs/architecture.md,
// "Worked example: a scene").
#pragma once

#define FABRIK_SCENES(X)                         \
  X(chain, ChainSceneEntry, ChainShell)          \
  X(arm, ArmSceneEntry, ArmShell)                \
  X(creature, CreatureSceneEntry, CreatureShell) \
  X(field, FieldSceneEntry, FieldShell)          \
  X(walker, WalkerSceneEntry, WalkerShell)       \
  X(mocap, MocapSceneEntry, MocapShell)          \
  X(crowd, CrowdSceneEntry, CrowdShell)          \
  X(markers, MarkersSceneEntry, MarkersShell)

// app_command.h - every change to the app's state, as a typed value, and the queue that
// carries them to the one place they are applied (ApplyCommands, frame step 2).
//
// Who enqueues what:
//   * the console, --exec and the panel's file pickers: a text line (app::Line), parsed when
//     applied, in the command language of docs/language.md;
//   * keys and panel widgets: an already parsed language Command (mode, solver, moe, ...) or
//     one of the app-only commands below (drag, camera, scene edits);
//   * a running script: its due commands are applied in the same step, after the queue.
// Nothing else writes AppState: the shell (window, input, panel) only reads it and enqueues.
//
// Adding an app-only command: add a struct to namespace app below, add it to AppCommand, and
// add its apply in apply.cpp (plus a test in tests/app_core). A scene panel's own command is
// whole in the scene's folder instead: its struct and `ApplyPanelCommand(AppState&, const T&)`
// declared in scenes/NAME/NAME_panel_commands.h and defined in its .cpp; it travels as
// app::ScenePanelEdit (below), which the struct converts to, so the core names no scene's
// struct. Console-language commands are added to the command table instead
// (core/command_table.h).
#pragma once

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "camera/unproject.h"
#include "core/scene.h"
#include "lang/command.h"

namespace fabrik {

struct AppState;

// Who asked for a command. Decides the echo and output in the console log:
//   kConsole  the line is echoed ("> line") and its output printed (console, panel pickers);
//   kStartup  as kConsole (--exec; an error there makes the demo exit with code 2);
//   kScript   output printed, no echo; a target line moves the scripted target only;
//   kQuiet    keys and panel widgets: no echo, no output, errors still reported.
enum class CommandSource { kConsole, kScript, kStartup, kQuiet };

namespace app {

// A console line, parsed when applied (so a bad line reports at the apply step).
struct Line {
  std::string text;
};
// Left button pressed in drag mode: `grab` is what the shell picked under the cursor,
// `position` where that handle is (world units), `plane_normal` the camera's forward vector.
struct DragStart {
  Grab grab;
  glm::vec3 position{0.0f};
  glm::vec3 plane_normal{0.0f, 0.0f, -1.0f};
};
// The cursor moved during a drag: its world ray (camera/unproject.h).
struct DragMove {
  Ray ray;
};
// Left button released.
struct DragEnd {};
// Mouse camera controls, in window pixels (camera/orbit_camera.h).
struct CameraOrbit {
  glm::vec2 pixels{0.0f};
};
struct CameraPan {
  glm::vec2 pixels{0.0f};
  float window_height = 1.0f;
};
struct CameraZoom {
  float wheel = 0.0f;
};
// The window's size in screen coordinates and pixels, and the panel's width.
struct Viewport {
  glm::ivec2 window{1, 1};
  glm::ivec2 framebuffer{1, 1};
  float panel_width = 340.0f;
};
// Step view controls without a language form.
struct StepIterationBack {};
struct StepRate {
  float reaches_per_second = 4.0f;  // clamped to [0.5, 60]
};
// A scene panel's own edit, a widget with no language form (the arm's pole, a creature
// effector's weight): a struct T of the scene's folder with its apply
// `void ApplyPanelCommand(AppState&, const T&)` declared beside it
// (scenes/NAME/NAME_panel_commands.h), found by argument-dependent lookup. The struct is
// pushed as it is (`queue.Push(app::ArmOptions{...})`) and converts to this; a struct without
// its apply does not convert, so it does not build. The apply runs at the apply step, changes
// the scene when it is the current one and ignores the edit otherwise. Copies share the
// struct (made once, when the widget changes).
class ScenePanelEdit {
 public:
  template <class T, class = decltype(ApplyPanelCommand(std::declval<AppState&>(),
                                                        std::declval<const T&>()))>
  ScenePanelEdit(T edit)  // NOLINT(google-explicit-constructor): pushed as the struct itself
      : edit_(std::make_shared<const Edit<T>>(std::move(edit))) {}
  void Apply(AppState& state) const { edit_->Apply(state); }

 private:
  struct AnyEdit {
    virtual ~AnyEdit() = default;
    virtual void Apply(AppState& state) const = 0;
  };
  template <class T>
  struct Edit final : AnyEdit {
    explicit Edit(T e) : edit(std::move(e)) {}
    void Apply(AppState& state) const override { ApplyPanelCommand(state, edit); }
    T edit;
  };
  std::shared_ptr<const AnyEdit> edit_;
};

// A line for the console log (Tab completion lists) or the panel's message line.
struct Print {
  std::string text;
};
struct Notice {
  std::string text;
  bool is_error = false;
};
// docs/settings.md: the help overlay (F1, the panel's ?, Escape), the
// screenshot key (F12) and the shell's report once the PNG is written (or not), and the
// camera pose restored from the settings (clamped to OrbitCamera's ranges; non-finite
// values change nothing).
struct HelpOverlay {
  bool open = false;
};
struct ScreenshotRequest {};
struct ScreenshotDone {
  std::string path;
  std::string error;  // "" when written
};
struct CameraPose {
  glm::vec3 pivot{0.0f};
  float yaw = 0.0f;
  float pitch = 0.0f;
  float distance = 1.0f;
};

}  // namespace app

using AppCommand =
    std::variant<Command, app::Line, app::DragStart, app::DragMove, app::DragEnd, app::CameraOrbit,
                 app::CameraPan, app::CameraZoom, app::Viewport, app::StepIterationBack,
                 app::StepRate, app::ScenePanelEdit, app::Print, app::Notice, app::HelpOverlay,
                 app::ScreenshotRequest, app::ScreenshotDone, app::CameraPose>;

struct QueuedCommand {
  AppCommand command;
  CommandSource source = CommandSource::kQuiet;
};

// First in, first out. The shell owns one and passes it to ApplyCommands (core/frame.h).
// Its storage is kept between frames, so steady use allocates nothing.
class CommandQueue {
 public:
  CommandQueue() {
    items_.reserve(64);
    batch_.reserve(64);
  }
  void Push(AppCommand command, CommandSource source = CommandSource::kQuiet) {
    items_.push_back({std::move(command), source});
  }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  // Takes every queued command out, oldest first. The batch stays valid until the next call;
  // commands pushed meanwhile wait for the next call.
  std::vector<QueuedCommand>& TakeAll() {
    batch_.clear();
    batch_.swap(items_);
    return batch_;
  }

 private:
  std::vector<QueuedCommand> items_;
  std::vector<QueuedCommand> batch_;
};

}  // namespace fabrik

// key_table.h - every mouse and key binding of the demo, written once. The input step
// (input.cpp, console.cpp) takes which key does what from these rows, the help overlay lists
// them, and README's Controls table has one row per binding with the same key text (a test in
// the app core's suite compares the two). Plain data: no GLFW or ImGui, so that test suite can
// read it without linking either.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

namespace fabrik::keys {

// The keys bound below, as GLFW's key codes (input.cpp checks each against GLFW's name).
enum Code : int {
  kNone = -1,
  kSpace = 32,
  k1 = 49,
  k2 = 50,
  k3 = 51,
  k4 = 52,
  kP = 80,
  kR = 82,
  kGrave = 96,
  kEscape = 256,
  kRight = 262,
  kLeft = 263,
  kDown = 264,
  kUp = 265,
  kHome = 268,
  kEnd = 269,
  kF1 = 290,
  kF12 = 301,
};

// The help overlay's groups.
enum class Section { kMouse, kKeys, kStep, kConsole };

// What a binding does; input.cpp (console.cpp for the console key) carries each out, reading
// the keys from the binding's `codes` in the order given here.
enum class Action {
  kMouse,          // a mouse action (input.cpp's camera and drag code); no codes
  kCameraReset,    // codes[0]
  kMode,           // codes[i]: target mode i (drag, spline, console, script)
  kConsole,        // codes[0] opens the console, or closes it when it has the keyboard
  kConsoleKeys,    // the console's own line editing (console.cpp); no codes
  kStepToggle,     // codes[0]: step view on / off
  kStepReach,      // step view, no Shift: codes[0] previous, codes[1] next reach
  kStepPass,       // step view, Shift: codes[0] previous, codes[1] next half-pass
  kStepIteration,  // step view: codes[0] previous, codes[1] next iteration
  kStepEnds,       // step view: codes[0] start, codes[1] end, codes[2] play / pause
  kHelp,           // codes[0] opens or closes the help overlay, codes[1] closes it
  kScreenshot,     // codes[0]
};

struct Binding {
  Section section;
  Action action;
  std::string_view keys;  // the input, as README's Controls table writes it (Markdown)
  std::string_view text;  // what it does, for the help overlay
  std::array<int, 4> codes{kNone, kNone, kNone, kNone};
};

// In README's order.
inline constexpr Binding kBindings[] = {
    {Section::kMouse, Action::kMouse, "left drag on or near the orange effector (or anywhere)",
     "drag mode: the target follows the cursor (a click brings it under the cursor)"},
    {Section::kMouse, Action::kMouse, "right drag", "orbit the camera (in the 2D view: pan)"},
    {Section::kMouse, Action::kMouse, "middle drag, or Shift + right drag", "pan the camera"},
    {Section::kMouse, Action::kMouse, "mouse wheel", "zoom"},
    {Section::kMouse, Action::kMouse, "`Shift` / `Ctrl` / `Alt` + wheel",
     "drag mode, orientation target set: turn its yaw / pitch / roll 5 degrees a notch"},
    {Section::kKeys, Action::kCameraReset, "`R` / *Reset camera*", "reset the camera", {kR}},
    {Section::kKeys,
     Action::kMode,
     "`1` `2` `3` `4`",
     "target mode: drag, spline, console, script",
     {k1, k2, k3, k4}},
    {Section::kMouse, Action::kMouse,
     "left drag on the violet pole (arm), or any effector (creature)", "move it"},
    {Section::kKeys,
     Action::kConsole,
     "`` ` `` (backtick)",
     "open / close the console; type 'help' there for every command",
     {kGrave}},
    {Section::kKeys, Action::kStepToggle, "`P`", "step view on / off", {kP}},
    {Section::kStep,
     Action::kStepReach,
     "`Left` / `Right`",
     "previous / next reach",
     {kLeft, kRight}},
    {Section::kStep,
     Action::kStepPass,
     "`Shift` + `Left` / `Right`",
     "previous / next half-pass",
     {kLeft, kRight}},
    {Section::kStep,
     Action::kStepIteration,
     "`Down` / `Up`",
     "previous / next iteration",
     {kDown, kUp}},
    {Section::kStep,
     Action::kStepEnds,
     "`Home` / `End`, `Space`",
     "start / end of the solve, play / pause",
     {kHome, kEnd, kSpace}},
    {Section::kConsole, Action::kConsoleKeys, "console: `Enter`, `Up`/`Down`, `Tab`",
     "run the line, walk the history, complete"},
    {Section::kKeys,
     Action::kHelp,
     "`F1` / *? Help*",
     "this help (F1 or Escape closes it)",
     {kF1, kEscape}},
    {Section::kKeys,
     Action::kScreenshot,
     "`F12` / *Screenshot*",
     "save a screenshot (PNG) in --screenshot-dir",
     {kF12}},
};

// The binding doing `action` (each action has one).
constexpr const Binding& Find(Action action) {
  for (const Binding& b : kBindings) {
    if (b.action == action) return b;
  }
  return kBindings[0];  // not reached: every Action but kMouse and kConsoleKeys has a row
}

// A key text without its Markdown: "`R` / *Reset camera*" -> "R / Reset camera",
// "`` ` `` (backtick)" -> "` (backtick)".
inline std::string PlainText(std::string_view markdown) {
  std::string out;
  for (std::size_t i = 0; i < markdown.size(); ++i) {
    if (markdown.substr(i, 5) == "`` ` ") {  // a code span holding a backtick
      out += '`';
      i += 6;  // past "`` ` ``"
      continue;
    }
    if (markdown[i] != '`' && markdown[i] != '*') out += markdown[i];
  }
  return out;
}

}  // namespace fabrik::keys

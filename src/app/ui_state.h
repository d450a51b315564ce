// ui_state.h - what the shell keeps between frames that is not app state: the console's
// input line and history, the panel's file pickers, joint selector, record and export paths, and
// the renderer's draw count. The core never sees it (the state line gets ShellReport,
// core/state_writer.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/state_writer.h"

namespace fabrik {

struct ConsoleUi {
  bool open = false;
  bool focus_input = false;  // give the input line the keyboard on the next frame
  // The input line had the keyboard at the end of this frame with no refocus pending, so
  // characters typed from now on are taken (ImGui ignores them on the frame a text field is
  // activated). The state line's `console_ready`: tests wait for it instead of for frames.
  bool ready = false;
  char input[512] = {};
  std::vector<std::string> history;
  int history_pos = -1;          // -1: editing a new line
  std::size_t printed_seen = 0;  // console lines seen; more means scroll to the bottom
};

// A file picker's combo selection and path field, refreshed when the loaded path changes.
struct PickerUi {
  char path[512] = {};
  int picked = -1;
  std::string shown;  // the loaded path the field was last filled from
};

struct UiState {
  ConsoleUi console;
  PickerUi spline;
  PickerUi script;
  int arm_joint = 2;                        // the joint the arm's constraint editor shows
  char record_path[512] = "recording.txt";  // the panel's record path field, as typed
  char export_path[512] = "corrected.bvh";  // the mocap panel's export path field, as typed
  ShellReport report;
};

}  // namespace fabrik

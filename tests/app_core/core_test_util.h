// core_test_util.h - a headless app core for tests: the state from StartApp, a command
// queue, and frames at a fixed time step of 1/60 s. No window, GL or ImGui.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <glm/geometric.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/frame.h"
#include "core/startup.h"
#include "core/state_writer.h"

namespace fabrik::testing {

inline constexpr float kDt = 1.0f / 60.0f;

inline StartOptions FixedStep(StartOptions options = {}) {
  options.fixed_dt = kDt;
  return options;
}

class Core {
 public:
  explicit Core(const StartOptions& options = FixedStep()) {
    auto started = StartApp(options, FABRIK_SOURCE_DIR);
    if (!started) ADD_FAILURE() << started.error();
    state_ = std::move(started).value();
    // A window's worth of view, so rays and projections are well defined.
    queue_.Push(app::Viewport{{1280, 800}, {1280, 800}, 340.0f});
  }
  AppState& state() { return *state_; }
  const AppState& state() const { return *state_; }
  CommandQueue& queue() { return queue_; }

  // A line as typed in the console (applied at the next frame).
  void Type(const std::string& line) { queue_.Push(app::Line{line}, CommandSource::kConsole); }
  // A command as a key or panel widget sends it.
  void Send(AppCommand command) { queue_.Push(std::move(command), CommandSource::kQuiet); }
  void Frames(int n = 1) {
    for (int i = 0; i < n; ++i) SimulateFrame(*state_, queue_, kDt);
  }
  // Types a line and runs one frame: the line is applied.
  void Run(const std::string& line) {
    Type(line);
    Frames(1);
  }
  const std::string& LastLine() const { return state_->console.log.back().text; }
  ConsoleLine::Kind LastKind() const { return state_->console.log.back().kind; }
  // The state line without what changes every frame or with every console line, to compare
  // "nothing changed".
  std::string Fingerprint() const {
    nlohmann::json j = nlohmann::json::parse(StateLine(*state_));
    for (const char* key :
         {"frame", "time", "fps", "solve_us", "console_last", "console_printed"}) {
      j.erase(key);
    }
    if (j.contains("race")) {
      for (auto& e : j["race"]) e.erase("solve_us");
    }
    return j.dump();
  }
  nlohmann::json Json() const { return nlohmann::json::parse(StateLine(*state_)); }

 private:
  std::unique_ptr<AppState> state_;
  CommandQueue queue_;
};

// A file in the build's temporary folder with `text`; returns its path.
inline std::string WriteTempFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace fabrik::testing

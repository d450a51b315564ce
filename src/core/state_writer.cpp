#include "core/state_writer.h"

#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <nlohmann/json.hpp>

#include "core/command_table.h"
#include "core/json_util.h"
#include "core/orient.h"
#include "core/step_view.h"
#include "core/tool_solve.h"
#include "core/view_2d.h"

namespace fabrik {
namespace {

using state_json::Num;
using state_json::Vec;

nlohmann::json Mat(const glm::mat4& m) {
  nlohmann::json out = nlohmann::json::array();
  const float* f = glm::value_ptr(m);  // column-major, as glm stores it
  for (int i = 0; i < 16; ++i) out.push_back(Num(f[i]));
  return out;
}

}  // namespace

Result<std::unique_ptr<StateWriter>> StateWriter::Open(const std::string& path) {
  auto file = io::LineFile::Open(path);
  if (!file) return MakeError("--state-out: " + file.error());
  return std::unique_ptr<StateWriter>(new StateWriter(std::move(file).value()));
}

namespace {

// The spline and the script, when loaded (docs/state.md: The state line).
void WritePlayback(const AppState& s, nlohmann::json& j) {
  if (s.spline.follower.has_spline()) {
    j["spline"] = {{"path", s.spline.path},
                   {"distance", Num(s.spline.follower.distance())},
                   {"length", Num(s.spline.follower.spline().length())},
                   {"speed", Num(s.spline.follower.speed())},
                   {"playing", s.spline.follower.playing()},
                   {"position", Vec(s.spline.follower.position())}};
  }
  if (s.script.player.has_script()) {
    j["script"] = {{"path", s.script.path},
                   {"time", Num(s.script.player.time())},
                   {"duration", Num(s.script.player.duration())},
                   {"playing", s.script.player.playing()},
                   {"running", s.script.running},
                   {"finished", s.script.player.finished()},
                   {"next_line", s.script.player.next_source_line()},
                   {"due", s.script.player.due_lines()}};
  }
}

// The step view, while on (docs/scenes.md: Step view).
void WriteStepView(const AppState& s, nlohmann::json& j) {
  if (s.step.active) {
    nlohmann::json step = {{"step", s.step.step},
                           {"reach_count", s.step.recording.reach_count()},
                           {"half_passes", s.step.recording.half_pass_count()},
                           {"tool_steps", s.step.tool_step_count},
                           {"step_count", s.step.total_steps()},
                           {"playing", s.step.playing}};
    if (s.step.step > s.step.recording.reach_count()) {
      // A tool's step after the recorded passes (core/tool_passes.h).
      step["tool"] =
          ToolStageName(s.step.tool_steps[s.step.step - s.step.recording.reach_count() - 1].stage);
    } else if (s.step.step >= 1 && s.step.recording.recorded()) {
      const RecordingObserver::Reach r = s.step.recording.reach(s.step.step - 1);
      step["joint"] = r.joint;
      step["iteration"] = r.iteration;
      step["pass"] = PassShortName(r.kind);
    }
    // The real chain keeps the start pose while the view replays the recorded solve.
    nlohmann::json chain_pose = nlohmann::json::array();
    for (const glm::vec3& p : s.chain.joints()) chain_pose.push_back(Vec(p));
    step["chain_joints"] = std::move(chain_pose);
    j["step"] = std::move(step);
  }
}

// The race, while on: one entry per racing solver.
void WriteRace(const AppState& s, nlohmann::json& j) {
  if (s.race.active) {
    nlohmann::json race = nlohmann::json::array();
    for (const RaceEntry& e : s.race.entries) {
      if (!e.chain) continue;
      race.push_back({{"solver", RacerName(e)},
                      {"iterations", e.last.iterations},
                      {"distance", Num(e.last.distance)},
                      {"reached", e.last.reached},
                      {"solve_us", Num(e.solve_us)},
                      {"effector", Vec(e.chain->effector())}});
    }
    j["race"] = std::move(race);
  }
}

// The scene, its grab, its own fields and the terrain.
void WriteScene(const AppState& s, nlohmann::json& j) {
  j["scene"] = std::string(s.scene.name());
  j["grab"] = s.scene.grab.kind == Grab::Kind::kPole             ? "pole"
              : s.scene.grab.kind == Grab::Kind::kEffectorTarget ? "effector"
              : s.scene.grab.kind == Grab::Kind::kTarget         ? "target"
                                                                 : "none";
  j["grab_index"] = s.scene.grab.index;
  if (s.scene.current) s.scene.current->WriteState(j);
  if (s.terrain.map) {
    j["terrain"] = {{"path", s.terrain.path},
                    {"size", Num(s.terrain.size)},
                    {"height", Num(s.terrain.height)},
                    {"pixels", {s.terrain.map->width(), s.terrain.map->height()}}};
  }
}

}  // namespace

std::string StateLine(const AppState& s, const ShellReport& shell, bool with_console_last) {
  nlohmann::json j;
  j["frame"] = s.timing.frame;
  j["time"] = Num(s.timing.time);
  j["mode"] = std::string(ModeName(s.mode));
  j["target"] = Vec(s.target());
  nlohmann::json joints = nlohmann::json::array();
  // The pose on screen: the chain's, or the step view's replayed pose.
  for (const glm::vec3& p : DisplayedPose(s)) joints.push_back(Vec(p));
  j["joints"] = std::move(joints);
  j["iterations"] = s.last.iterations;
  j["distance"] = Num(s.last.distance);
  j["reached"] = s.last.reached;
  j["reachable"] = s.last.reachable;
  j["solve_us"] = Num(s.solve_us);
  j["fps"] = Num(s.timing.fps);
  j["view"] = Mat(s.view.view);
  j["projection"] = Mat(s.view.projection);
  j["viewport"] = {s.view.framebuffer_size.x, s.view.framebuffer_size.y};
  j["window"] = {s.view.window_size.x, s.view.window_size.y};
  j["cursor"] = shell.cursor_valid ? nlohmann::json{Num(shell.cursor.x), Num(shell.cursor.y)}
                                   : nlohmann::json(nullptr);
  j["buttons"] = {shell.buttons[0], shell.buttons[1], shell.buttons[2]};
  // Fields beyond the minimum every line holds (docs/state.md: The state line).
  j["solver"] = s.tools.two_bone ? std::string(kTwoBoneSolverName) : SolverName(s.solver);
  j["tolerance"] = Num(s.settings.tolerance);
  j["max_iterations"] = s.settings.max_iterations;
  // Every on/off flag under its name: accelerate, skin, axes, ... (core/command_table.h).
  for (const CommandEntry& e : CommandRegistry()) {
    if (e.is_flag()) j[std::string(e.language.name)] = FlagValue(s, e);
  }
  WriteToolFields(s, j);  // soften, stretch, turn_limit, stiffness, ... (core/tool_solve.h)
  j["dragging"] = s.drag.dragging;
  j["camera"] = {{"pivot", Vec(s.view.camera.pivot())},
                 {"distance", Num(s.view.camera.distance())},
                 {"yaw", Num(s.view.camera.yaw())},
                 {"pitch", Num(s.view.camera.pitch())}};
  j["draw_calls"] = shell.draw_calls;
  j["drawn_items"] = shell.drawn_items;
  WritePlayback(s, j);
  WriteStepView(s, j);
  WriteRace(s, j);
  WriteScene(s, j);
  j["console_open"] = shell.console_open;
  j["console_ready"] = shell.console_ready;
  if (with_console_last && !s.console.log.empty()) j["console_last"] = s.console.log.back().text;
  // Lines ever printed: a test sees how many lines one typed command gave (echo included).
  j["console_printed"] = s.console.printed;
  j["lengths"] = s.lengths;
  // Record and replay, free root, 2D view (docs/settings.md: Record and replay; docs/scenes.md:
  // Free root, The 2D view). The root's position is joints[0]; "view" is the view matrix, hence
  // "view_mode".
  j["recording"] =
      s.recording.active() ? nlohmann::json(s.recording.path()) : nlohmann::json(nullptr);
  j["root_free"] = s.root.free;
  j["view_mode"] = View2d(s) ? "2d" : "3d";
  // Rotations, orientation target, skin and axes (docs/rotations.md: Rotations, orientation target
  // and skinning).
  WriteOrientState(s, j);
  // Help overlay and screenshots (docs/settings.md).
  j["help_open"] = s.help_open;
  j["last_screenshot"] =
      s.last_screenshot ? nlohmann::json(*s.last_screenshot) : nlohmann::json(nullptr);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Status StateWriter::Write(const AppState& state, const ShellReport& shell) {
  if (!file_.is_open()) return Ok{};
  const Status written = file_.Write(StateLine(state, shell) + "\n");
  if (!written) return MakeError("--state-out: " + written.error());
  return Ok{};
}

}  // namespace fabrik

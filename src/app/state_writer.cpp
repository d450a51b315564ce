#include "app/state_writer.h"

#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <nlohmann/json.hpp>

#include "app/step_view.h"

namespace fabrik {
namespace {

// JSON has no NaN or inf; the state never holds them, but a number that somehow is not
// finite is written as null rather than producing invalid JSON.
nlohmann::json Num(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

nlohmann::json Vec(const glm::vec3& v) { return {Num(v.x), Num(v.y), Num(v.z)}; }

nlohmann::json Mat(const glm::mat4& m) {
  nlohmann::json out = nlohmann::json::array();
  const float* f = glm::value_ptr(m);  // column-major, as glm stores it
  for (int i = 0; i < 16; ++i) out.push_back(Num(f[i]));
  return out;
}

}  // namespace

Result<std::unique_ptr<StateWriter>> StateWriter::Open(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (!file) return MakeError("cannot write --state-out file '" + path + "'");
  return std::unique_ptr<StateWriter>(new StateWriter(file));
}

StateWriter::~StateWriter() { std::fclose(file_); }

std::string StateLine(const AppState& s, bool with_console_last) {
  nlohmann::json j;
  j["frame"] = s.timing.frame;
  j["time"] = Num(s.timing.time);
  j["mode"] = std::string(ModeName(s.mode));
  j["target"] = Vec(s.target);
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
  j["cursor"] = s.view.cursor_valid ? nlohmann::json{Num(s.view.cursor.x), Num(s.view.cursor.y)}
                                    : nlohmann::json(nullptr);
  j["buttons"] = {s.view.buttons[0], s.view.buttons[1], s.view.buttons[2]};
  // Extras beyond the contract.
  j["solver"] = SolverName(s.solver);
  j["tolerance"] = Num(s.settings.tolerance);
  j["max_iterations"] = s.settings.max_iterations;
  j["accelerate"] = s.settings.accelerate;
  j["dragging"] = s.dragging;
  j["camera"] = {{"pivot", Vec(s.view.camera.pivot())},
                 {"distance", Num(s.view.camera.distance())},
                 {"yaw", Num(s.view.camera.yaw())},
                 {"pitch", Num(s.view.camera.pitch())}};
  j["draw_calls"] = s.draw_calls;
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
                   {"finished", s.script.player.finished()}};
  }
  if (s.step.active) {
    nlohmann::json step = {{"step", s.step.step},
                           {"reach_count", s.step.recording.reach_count()},
                           {"half_passes", s.step.recording.half_pass_count()},
                           {"playing", s.step.playing}};
    if (s.step.step >= 1 && s.step.recording.recorded()) {
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
  j["scene"] = SceneName(s.scene.kind);
  j["grab"] = s.scene.grab.kind == Grab::Kind::kPole             ? "pole"
              : s.scene.grab.kind == Grab::Kind::kEffectorTarget ? "effector"
              : s.scene.grab.kind == Grab::Kind::kTarget         ? "target"
                                                                 : "none";
  j["grab_index"] = s.scene.grab.index;
  if (s.scene.kind == SceneKind::kArm) {
    j["pole"] = Vec(s.scene.arm.pole);
    j["use_pole"] = s.scene.arm.use_pole;
    j["limited"] = s.scene.arm.last.limited;
    j["joints_at_limit"] = s.scene.arm.last.joints_at_limit;
    j["at_limit"] = s.scene.arm.at_limit;
    j["max_violation"] = Num(s.scene.arm.last.max_violation);
  }
  if (s.scene.kind == SceneKind::kCreature && s.scene.creature.tree) {
    const CreatureScene& c = s.scene.creature;
    nlohmann::json effectors = nlohmann::json::array();
    for (std::size_t k = 0; k < c.targets.size(); ++k) {
      const auto node = static_cast<std::size_t>(c.targets[k].node);
      effectors.push_back({{"node", c.targets[k].node},
                           {"position", Vec(c.tree->positions()[node])},
                           {"target", Vec(c.targets[k].position)},
                           {"distance", Num(c.distances[k])},
                           {"primary", static_cast<int>(k) == c.primary}});
    }
    j["effectors"] = std::move(effectors);
    nlohmann::json parents = nlohmann::json::array();
    for (std::size_t i = 0; i < c.tree->node_count(); ++i) parents.push_back(c.tree->parent(i));
    j["parents"] = std::move(parents);
    j["limited"] = c.last.limited;
    j["joints_at_limit"] = c.last.joints_at_limit;
    j["max_violation"] = Num(c.last.max_violation);
  }
  j["console_open"] = s.console.open;
  if (with_console_last && !s.console.log.empty()) j["console_last"] = s.console.log.back().text;
  j["lengths"] = s.lengths;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void StateWriter::Write(const AppState& state) {
  const std::string line = StateLine(state);
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fputc('\n', file_);
  std::fflush(file_);
}

}  // namespace fabrik

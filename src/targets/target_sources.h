// target_sources.h - where the target comes from: one interface per source, and the mixer
// that is the target's only writer.
//
// Every frame, at the target step (core/frame.h), the active mode's source says where it
// wants the target (TargetSource::Wanted) and TargetMixer::Update moves the target there,
// blending over kGlideSeconds after a switch so the chain never jumps (README "The four
// target modes"). Nothing else assigns the target: commands ask the mixer to jump or glide.
//
// Adding a target source: add a TargetMode value and its name (lang/command.h), a class
// deriving from TargetSource here (its state, Wanted, Activate), a member in AppState and a
// case in AppState::source (core/app_state.h), plus tests in tests/app_core.
#pragma once

#include <glm/vec3.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "targets/drag_source.h"
#include "targets/script_player.h"
#include "targets/spline_follower.h"

namespace fabrik {

class TargetSource {
 public:
  virtual ~TargetSource() = default;
  // Where this source wants the target after `dt` more seconds (0 while the step view holds
  // time), world units; nullopt to leave the target where the mixer has it. Never allocates.
  virtual std::optional<glm::vec3> Wanted(float dt) = 0;
  // The mode just became active: forget any wish older than the switch.
  virtual void Activate() {}
};

// Drag mode: the point under the cursor on the grabbed plane (targets/drag_source.h).
class DragTarget final : public TargetSource {
 public:
  std::optional<glm::vec3> Wanted(float) override { return hit; }
  void Activate() override { hit.reset(); }
  DragSource plane;
  bool dragging = false;
  std::optional<glm::vec3> hit;  // the latest cursor hit for the target (not pole/effector)
};

// Spline mode: the follower's point, advanced by dt along the curve at constant speed.
class SplineTarget final : public TargetSource {
 public:
  std::optional<glm::vec3> Wanted(float dt) override;
  SplineFollower follower;
  std::string path;                 // as loaded, for the panel and the state line
  std::vector<glm::vec3> polyline;  // tessellated once per load, for drawing
};

// Console mode: where `target X Y Z` put it; holds still until the next one.
class ConsoleTarget final : public TargetSource {
 public:
  std::optional<glm::vec3> Wanted(float) override { return typed; }
  void Activate() override { typed.reset(); }
  std::optional<glm::vec3> typed;
};

// Script mode: the running script's target (the script advances at the apply step, so a
// script keeps running in other modes; its target drives the chain only in this one).
class ScriptTarget final : public TargetSource {
 public:
  std::optional<glm::vec3> Wanted(float) override { return target; }
  ScriptPlayer player;
  std::string path;
  bool running = false;             // started and not stopped or finished
  std::optional<glm::vec3> target;  // the scripted target, once a line set it
};

// The target's one writer.
class TargetMixer {
 public:
  static constexpr float kGlideSeconds = 0.6f;
  // The target this frame, world units; always finite.
  const glm::vec3& position() const { return position_; }
  // Where the target is going (the end of a glide).
  const glm::vec3& wanted() const { return wanted_; }
  bool gliding() const { return gliding_; }

  // Puts the target at `p` now, no glide (start-up, a scene's start, the step view). A
  // non-finite `p` is ignored.
  void Jump(const glm::vec3& p);
  // Starts a glide from where the target is: the next wishes are reached over kGlideSeconds
  // with smoothstep easing (a mode switch, a typed target).
  void BeginGlide();
  // Stops a glide where the target is now (a drag grabs the target where it is seen).
  void CancelGlide();
  // Ends a glide at its destination now (the step view records towards the final target).
  void Settle();
  // The target step: `wanted` is the active source's wish (nullopt keeps the last one), `dt`
  // the frame's seconds. `no_glide` (the step view) takes a new wish at once.
  void Update(const std::optional<glm::vec3>& wanted, float dt, bool no_glide);

 private:
  glm::vec3 position_{0.0f};
  glm::vec3 wanted_{0.0f};
  glm::vec3 from_{0.0f};
  bool gliding_ = false;
  float elapsed_ = 0.0f;
};

}  // namespace fabrik

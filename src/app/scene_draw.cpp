// Step 5 of the frame: the 3D scene. Everything is instanced: the cost of drawing a chain is
// a fixed handful of draw calls whatever its joint count.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "app/scene_palette.h"
#include "app/scene_shell.h"
#include "app/systems.h"
#include "core/step_view.h"
#include "render/instance_filter.h"

namespace fabrik {

using namespace draw;  // the palette (scene_palette.h)

namespace {

float NiceStep(float extent) {
  const float raw = std::max(extent / 10.0f, 1e-3f);
  const float p = std::pow(10.0f, std::floor(std::log10(raw)));
  for (float m : {1.0f, 2.0f, 5.0f}) {
    if (m * p >= raw) return m * p;
  }
  return 10.0f * p;
}

// True when every point of the tapered bone lies inside the opaque joint spheres at its ends
// (radii rs at the start, re at the end), so drawing it changes no pixel. The distance from
// a joint to the bone's surface is convex along the axis, so checking the half nearer each
// joint at its two ends suffices; 0.8 of each radius allows for the coarsest sphere mesh,
// whose flat faces dip to 0.8 of the radius.
bool HiddenByJoints(const BoneInstance& b, float rs, float re) {
  const float half = 0.5f * glm::length(b.end - b.start);
  const float mid = 0.5f * (b.r0 + b.r1);
  const float mid2 = half * half + mid * mid;
  const float s2 = 0.64f * rs * rs, e2 = 0.64f * re * re;
  return std::max(b.r0 * b.r0, mid2) <= s2 && std::max(b.r1 * b.r1, mid2) <= e2;
}

}  // namespace

void SceneDrawer::RebuildGrid(float reach, bool planar, const glm::vec3& root) {
  grid_reach_ = reach;
  grid_planar_ = planar;
  grid_.clear();
  const float extent = std::max(10.0f, reach * 1.6f);
  const float step = NiceStep(extent);
  const int n = static_cast<int>(std::ceil(extent / step));
  // Centred on the grid line nearest the root (a free root may wander far from the origin),
  // so lines stay on multiples of the step and the origin's lines stay major.
  const float five = step * 5.0f;
  const float cx = std::round(root.x / five) * five;
  const float cy = std::round((planar ? root.y : root.z) / five) * five;
  grid_centre_ = planar ? glm::vec3(cx, cy, 0.0f) : glm::vec3(cx, 0.0f, cy);
  // 3D: the ground (XZ, y = 0); 2D: the XY plane the view shows (z = 0).
  auto at = [&](float a, float b) {
    return planar ? glm::vec3(cx + a, cy + b, 0.0f) : glm::vec3(cx + a, 0.0f, cy + b);
  };
  for (int i = -n; i <= n; ++i) {
    const bool major = (i % 5) == 0;
    const glm::vec4 color =
        major ? glm::vec4(0.55f, 0.60f, 0.68f, 0.45f) : glm::vec4(0.45f, 0.50f, 0.58f, 0.22f);
    const float x = i * step, e = n * step;
    grid_.push_back({at(x, -e), color});
    grid_.push_back({at(x, e), color});
    grid_.push_back({at(-e, x), color});
    grid_.push_back({at(e, x), color});
  }
  // World axes from the origin: X red, Y green, Z blue.
  const float a = std::max(1.0f, step * 2.0f);
  const glm::vec3 axes[] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const glm::vec4 axis_colors[] = {
      {0.95f, 0.3f, 0.3f, 0.9f}, {0.35f, 0.9f, 0.4f, 0.9f}, {0.35f, 0.55f, 1.0f, 0.9f}};
  for (int i = 0; i < 3; ++i) {
    grid_.push_back({glm::vec3(0.0f, 0.003f, 0.0f), axis_colors[i]});
    grid_.push_back({axes[i] * a + glm::vec3(0.0f, 0.003f, 0.0f), axis_colors[i]});
  }
}

void SceneDrawer::DrawRacers(const AppState& state, Renderer& renderer, float base) {
  bones_.clear();
  spheres_.clear();
  for (const RaceEntry& e : state.race.entries) {
    if (!e.chain) continue;
    const glm::vec4 color = RacerColor(e);
    std::span<const glm::vec3> q = e.chain->joints();
    for (std::size_t i = 0; i + 1 < q.size(); ++i) {
      bones_.push_back({q[i], base * 0.22f, q[i + 1], base * 0.22f, color});
    }
    spheres_.push_back({q.back(), base * 0.55f, color});
  }
  renderer.DrawBones(bones_);
  renderer.DrawSpheres(spheres_);
}

void SceneDrawer::DrawStepOverlay(const AppState& state, Renderer& renderer, float base) {
  const StepState& s = state.step;
  const RecordingObserver& r = s.recording;
  if (s.step == 0 || s.ghost.size() != s.pose.size() || s.pose.empty()) return;
  // The pose one reach earlier, as a ghost.
  bones_.clear();
  spheres_.clear();
  const glm::vec4 ghost(0.75f, 0.80f, 0.95f, 0.28f);
  for (std::size_t i = 0; i + 1 < s.ghost.size(); ++i) {
    bones_.push_back({s.ghost[i], base * 0.5f, s.ghost[i + 1], base * 0.3f, ghost});
  }
  renderer.DrawBones(bones_);
  if (s.step > r.reach_count() || !r.recorded()) {
    // A tool's step (core/tool_passes.h) moves the whole pose at once: each joint's move.
    lines_.clear();
    const glm::vec4 move(1.0f, 0.92f, 0.25f, 0.8f);
    for (std::size_t i = 0; i < s.pose.size(); ++i) {
      if (s.pose[i] == s.ghost[i]) continue;
      lines_.push_back({s.ghost[i], move});
      lines_.push_back({s.pose[i], move});
    }
    renderer.DrawLines(lines_, 2.0f, true);
    return;
  }
  // The joint this reach moved, and where it came from.
  const RecordingObserver::Reach reach = r.reach(s.step - 1);
  const std::size_t j = reach.joint;
  const std::size_t n = s.pose.size();
  spheres_.push_back({s.pose[j], base * 1.5f, glm::vec4(1.0f, 0.92f, 0.25f, 0.45f)});
  spheres_.push_back({s.ghost[j], base * 0.8f, glm::vec4(0.75f, 0.80f, 0.95f, 0.45f)});
  renderer.DrawSpheres(spheres_);

  lines_.clear();
  const glm::vec4 slide(1.0f, 0.92f, 0.25f, 0.95f);
  const glm::vec4 reach_color(1.0f, 0.6f, 0.9f, 0.9f);
  if (reach.kind == PassKind::kStraighten || reach.kind == PassKind::kBendScale ||
      (reach.kind == PassKind::kBackward && j == n - 1) ||
      (reach.kind == PassKind::kForward && j == 0)) {
    // The effector jumps onto the target, or the root back home: show the jump.
    lines_.push_back({s.ghost[j], slide});
    lines_.push_back({s.pose[j], slide});
  } else {
    // The joint slides along the line from its anchor through its old position, stopping one
    // segment length from the anchor (the circle shows that length).
    const std::size_t anchor = reach.kind == PassKind::kBackward ? j + 1 : j - 1;
    const glm::vec3 a = s.pose[anchor];
    const glm::vec3 dir = SafeDirection(s.ghost[j] - a);
    const float far = std::max(glm::length(s.ghost[j] - a), glm::length(s.pose[j] - a)) * 1.25f;
    lines_.push_back({a, slide});
    lines_.push_back({a + dir * far, slide});
    const float length = state.chain.lengths()[std::min(j, anchor)];
    const glm::vec3 f = state.view.camera.forward();
    const glm::vec3 u = SafeDirection(glm::cross(f, glm::vec3(0, 1, 0)));
    const glm::vec3 v = glm::cross(u, f);
    AddCircle(lines_, a, length, u, v, reach_color, 64);
  }
  renderer.DrawLines(lines_, 2.0f, true);
}

void SceneDrawer::AddTargetMarker(const glm::vec3& target, const glm::vec4& color, float base,
                                  bool planar) {
  const float cross = base * 2.6f;
  const glm::vec4 solid(glm::vec3(color), 1.0f);
  for (const glm::vec3& axis : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)}) {
    lines_.push_back({target - axis * cross, solid});
    lines_.push_back({target + axis * cross, solid});
  }
  // The drop line to the ground helps read the target's height (not in the 2D view, which
  // looks along the ground).
  if (!planar) {
    lines_.push_back({target, glm::vec4(glm::vec3(color), 0.35f)});
    lines_.push_back({glm::vec3(target.x, 0.0f, target.z), glm::vec4(glm::vec3(color), 0.35f)});
  }
  spheres_.push_back({target, base * 0.7f, color});
}

void SceneDrawer::DrawChainBody(const AppState& state, Renderer& renderer,
                                std::span<const glm::vec3> p, std::span<const float> len,
                                float base, const std::vector<std::uint8_t>* at_limit) {
  if (DrawSkin(state, renderer, p, base)) return;
  spheres_.clear();
  bones_.clear();
  joint_radii_.resize(p.size());  // same size frame after frame: no allocation
  for (std::size_t i = 0; i < p.size(); ++i) {
    // Joint size follows the shorter neighbouring segment so short links stay readable.
    const float local = std::min(i > 0 ? len[i - 1] : len[0], i < len.size() ? len[i] : len.back());
    const float r = std::clamp(local * 0.16f, base * 0.6f, base * 1.2f);
    joint_radii_[i] = i + 1 == p.size() ? std::max(r, base) * 1.15f : r;
  }
  // The chain scene's stretched pose (`stretch S`): every bone scaled by one factor, drawn
  // from the bone colour towards a hot orange as the factor grows to 1.5.
  const float stretch =
      state.scene.free_chain() && !state.step.active && p.data() != state.chain.joints().data()
          ? state.tools.stretch_factor
          : 1.0f;
  const glm::vec4 bone_color = stretch > 1.0f
                                   ? glm::mix(kBoneColor, kStretchedBoneColor,
                                              std::clamp((stretch - 1.0f) * 2.0f, 0.35f, 1.0f))
                                   : kBoneColor;
  for (std::size_t i = 0; i < len.size() && i + 1 < p.size(); ++i) {
    const float r = std::clamp(len[i] * 0.13f, base * 0.45f, base * 0.9f);
    const BoneInstance bone{p[i], r, p[i + 1], r * 0.55f, bone_color};
    // Short links of a long chain lie wholly inside their two joints: skip them
    // (docs/performance.md: Rendering cost).
    if (!HiddenByJoints(bone, joint_radii_[i], joint_radii_[i + 1])) bones_.push_back(bone);
  }
  // Plain joints packed much closer than their radius (a long chain of short links) are
  // thinned out where that changes nothing visible (render/instance_filter.h); the root, the
  // effector and every joint of its own colour are always drawn (docs/performance.md: Rendering
  // cost).
  std::size_t kept = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    glm::vec4 color = kJointColor;
    if (i == 0) color = kRootColor;
    // (The arm's pedestal, joint 0, is rigid: always "at its limit", never worth a colour.)
    if (at_limit && i > 0 && i < at_limit->size() && (*at_limit)[i]) color = kAtLimitColor;
    if (i + 1 == p.size()) color = kEffectorColor;
    const float r = joint_radii_[i];
    if (color == kJointColor && i > 0 && i + 1 < p.size() &&
        !JointSphereNeeded(p[i], r, p[kept], joint_radii_[kept], renderer.PixelsPerUnitAt(p[i]))) {
      continue;
    }
    spheres_.push_back({p[i], r, color});
    kept = i;
  }
  // A free root (or the snake of `spline ik`) is not mounted on anything; the 2D view looks along
  // the ground, where shadows would be a smear.
  if (!state.scene.free_chain() || (!state.root.free && !state.tools.root_moved)) {
    AddPlinth(p[0], base);
  }
  if (!state.view.camera.planar()) renderer.DrawShadows(spheres_);
  renderer.DrawBones(bones_);
  renderer.DrawSpheres(spheres_);
}

void SceneDrawer::AddPlinth(const glm::vec3& root, float base) {
  bones_.push_back({root - glm::vec3(0.0f, base * 0.6f, 0.0f), base * 3.2f,
                    root + glm::vec3(0.0f, base * 0.2f, 0.0f), base * 2.6f,
                    glm::vec4(0.22f, 0.24f, 0.28f, 1.0f)});
}

void SceneDrawer::Draw(const AppState& state, Renderer& renderer) {
  const SceneShell* shell = FindSceneShell(state.scene.name());
  if (shell != nullptr && shell->draw != nullptr) {
    shell->draw(*this, state, renderer);
  } else {
    DrawChainScene(state, renderer, ChainLook{});
  }
}

void SceneDrawer::DrawChainScene(const AppState& state, Renderer& renderer, const ChainLook& look) {
  const Chain& chain = state.chain;
  std::span<const glm::vec3> p = DisplayedPose(state);
  std::span<const float> len = chain.lengths();
  const float reach = chain.total_length();
  const float mean_len = reach / static_cast<float>(len.size());
  // Sizes follow the segments, but never so thin that a long chain of short links vanishes.
  const float base = std::clamp(std::max(mean_len * 0.15f, reach * 0.012f), 0.01f, 50.0f);

  renderer.SetCamera(state.view.view, state.view.projection, state.view.camera.eye());

  const bool planar = state.view.camera.planar();
  DrawGrid(state, renderer, reach, chain.root());

  // A scene's own body (the creature's tree), else the chain through the pose.
  if (look.body) {
    look.body(*this, state, renderer, base);
  } else {
    DrawChainBody(state, renderer, p, len, base, look.at_limit);
  }
  if (look.extras) look.extras(*this, state, renderer, base);

  // The target: a translucent ball with a crosshair, coloured by the solve's outcome.
  const glm::vec4 target_color = !state.last.reachable ? kTargetOutOfReach
                                 : state.last.reached  ? kTargetReached
                                                       : kTargetChasing;
  const glm::vec3 effector = look.effector ? *look.effector : p.back();
  lines_.clear();
  spheres_.clear();
  AddTargetMarker(state.target(), target_color, base, planar);
  if (!state.last.reached) {
    lines_.push_back({effector, glm::vec4(1.0f, 1.0f, 1.0f, 0.5f)});
    lines_.push_back({state.target(), glm::vec4(1.0f, 1.0f, 1.0f, 0.5f)});
  }
  if (look.markers) look.markers(*this, state, renderer, base);
  renderer.DrawLines(lines_, 1.5f, true);
  // Smaller than the effector: once reached, the ball hides inside it and only the
  // crosshair shows through; while chasing, it stands out on its own.
  renderer.DrawSpheres(spheres_);

  DrawOrientOverlay(state, renderer, base);
  if (state.step.active) DrawStepOverlay(state, renderer, base);
  if (state.race.active) DrawRacers(state, renderer, base);

  DrawSpline(state, renderer, base);

  // The reach: a faint shell and its circle on the ground (a chain's; a tree has one per
  // effector, so it draws none).
  // A free root has no reach: its trail is drawn instead.
  const bool free_root = state.root.free && state.scene.free_chain();
  if (free_root) DrawRootTrail(state, renderer);
  // The snake of `spline ik` has no reach either: it lies along the spline.
  const bool snake = state.tools.root_moved && state.scene.free_chain();
  if (look.reach && !free_root && !snake) {
    lines_.clear();
    // On the ground in 3D; in the 2D view, in the XY plane round the root.
    if (planar) {
      AddCircle(lines_, chain.root(), reach, {1, 0, 0}, {0, 1, 0},
                glm::vec4(0.35f, 0.62f, 0.98f, 0.45f), 128);
    } else {
      AddCircle(lines_, glm::vec3(chain.root().x, 0.002f, chain.root().z), reach, {1, 0, 0},
                {0, 0, 1}, glm::vec4(0.35f, 0.62f, 0.98f, 0.45f), 128);
    }
    renderer.DrawLines(lines_, 1.0f, false);
    // Seen flat, the shell would only be a disc hiding the grid; the circle says it all.
    if (!planar) renderer.DrawShell(chain.root(), reach, kReachColor);
  }
}

void SceneDrawer::DrawGrid(const AppState& state, Renderer& renderer, float reach,
                           const glm::vec3& root) {
  const bool planar = state.view.camera.planar();
  if (GridStale(reach, planar, root)) RebuildGrid(reach, planar, root);
  renderer.DrawLines(grid_, 1.0f, false, root, std::max(10.0f, reach * 1.6f));
}

bool SceneDrawer::GridStale(float reach, bool planar, const glm::vec3& root) const {
  if (std::fabs(grid_reach_ - reach) > 1e-3f * std::max(reach, 1.0f) || planar != grid_planar_) {
    return true;
  }
  // Re-centre once the root is more than two major cells from the grid's centre.
  const float five = NiceStep(std::max(10.0f, reach * 1.6f)) * 5.0f;
  const glm::vec2 offset = planar ? glm::vec2(root.x - grid_centre_.x, root.y - grid_centre_.y)
                                  : glm::vec2(root.x - grid_centre_.x, root.z - grid_centre_.z);
  return std::fabs(offset.x) > 2.0f * five || std::fabs(offset.y) > 2.0f * five;
}

// docs/scenes.md: Free root - where the root has been over the last seconds, fading with age.
void SceneDrawer::DrawRootTrail(const AppState& state, Renderer& renderer) {
  const FreeRootState& root = state.root;
  if (root.trail_count < 2) return;
  lines_.clear();
  const float n = static_cast<float>(root.trail_count);
  for (std::size_t i = 0; i + 1 < root.trail_count; ++i) {
    const float age = 1.0f - static_cast<float>(i) / n;  // 1 = oldest
    const glm::vec4 color(0.95f, 0.55f, 0.25f, 0.9f * (1.0f - age) + 0.05f);
    lines_.push_back({root.TrailAt(i), color});
    lines_.push_back({root.TrailAt(i + 1), color});
  }
  renderer.DrawLines(lines_, 2.5f, true);
}

void SceneDrawer::DrawSpline(const AppState& state, Renderer& renderer, float base) {
  // The spline being followed: the curve, its control points and the point on it now.
  if (state.spline.follower.has_spline()) {
    const bool active = state.mode == TargetMode::kSpline;
    const glm::vec4 curve(0.30f, 0.85f, 0.95f, active ? 0.9f : 0.35f);
    lines_.clear();
    const auto& poly = state.spline.polyline;
    for (std::size_t i = 0; i + 1 < poly.size(); ++i) {
      lines_.push_back({poly[i], curve});
      lines_.push_back({poly[i + 1], curve});
    }
    renderer.DrawLines(lines_, 2.0f, false);
    spheres_.clear();
    const auto& points = state.spline.follower.spline().points();
    if (points.size() <= 2000) {
      for (const glm::vec3& cp : points) {
        spheres_.push_back(
            {cp, base * 0.32f, glm::vec4(0.30f, 0.85f, 0.95f, active ? 1.0f : 0.4f)});
      }
    }
    spheres_.push_back({state.spline.follower.position(), base * 0.45f,
                        glm::vec4(1.0f, 1.0f, 1.0f, active ? 0.9f : 0.3f)});
    renderer.DrawSpheres(spheres_);
  }
}

}  // namespace fabrik

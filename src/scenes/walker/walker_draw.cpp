#include "scenes/walker/walker_draw.h"

#include <cmath>
#include <cstdio>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "app/scene_palette.h"
#include "terrain/terrain_mesh.h"
#include "walker/gait.h"

namespace fabrik {
namespace {

constexpr int kTerrainSlot = 0;
constexpr int kBodySlot = 1;

void AddRing(std::vector<LineVertex>& out, const Heightmap& ground, glm::vec3 c, float r,
             const glm::vec4& color, int segments = 32) {
  constexpr float kTau = 6.2831853f;
  glm::vec3 prev(0.0f);
  for (int i = 0; i <= segments; ++i) {
    const float a = kTau * static_cast<float>(i) / static_cast<float>(segments);
    glm::vec3 p(c.x + r * std::cos(a), 0.0f, c.z + r * std::sin(a));
    p.y = ground.HeightAt(p.x, p.z) + 0.03f;  // hugs the hills, just above them
    if (i > 0) {
      out.push_back({prev, color});
      out.push_back({p, color});
    }
    prev = p;
  }
}

void AddPolyline(std::vector<LineVertex>& out, std::span<const glm::vec3> p,
                 const glm::vec4& color) {
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    out.push_back({p[i], color});
    out.push_back({p[i + 1], color});
  }
}

// A unit sphere as an indexed mesh (the body's ellipsoid after scaling).
void UnitSphere(std::vector<glm::vec3>& positions, std::vector<std::uint32_t>& indices) {
  constexpr int kRings = 24, kSectors = 36;
  constexpr float kPi = 3.14159265f;
  for (int r = 0; r <= kRings; ++r) {
    const float phi = kPi * static_cast<float>(r) / kRings;
    for (int s = 0; s <= kSectors; ++s) {
      const float theta = 2.0f * kPi * static_cast<float>(s) / kSectors;
      positions.emplace_back(std::sin(phi) * std::cos(theta), std::cos(phi),
                             std::sin(phi) * std::sin(theta));
    }
  }
  const auto row = static_cast<std::uint32_t>(kSectors + 1);
  for (std::uint32_t r = 0; r < kRings; ++r) {
    for (std::uint32_t s = 0; s < static_cast<std::uint32_t>(kSectors); ++s) {
      const std::uint32_t i0 = r * row + s, i1 = i0 + 1, i2 = i0 + row, i3 = i2 + 1;
      indices.insert(indices.end(), {i0, i1, i2, i1, i3, i2});  // anticlockwise outside
    }
  }
}

}  // namespace

bool WalkerDrawer::EnsureSurfaces(const AppState& state) {
  if (surfaces_) return true;
  if (surfaces_failed_) return false;
  auto made = SurfaceRenderer::Create(state.data_dir + "/shaders");
  if (!made) {
    std::fprintf(stderr, "fabrik-demo: walker surfaces not drawn: %s\n", made.error().c_str());
    surfaces_failed_ = true;
    return false;
  }
  surfaces_ = std::move(made).value();
  std::vector<glm::vec3> positions;
  std::vector<std::uint32_t> indices;
  UnitSphere(positions, indices);
  surfaces_->Upload(kBodySlot, positions, positions, indices);  // unit sphere: normal = position
  return true;
}

// The quadruped's fur (a warm brown, docs/walker.md: The skinned quadruped).
constexpr glm::vec4 kQuadrupedColor{0.62f, 0.40f, 0.22f, 1.0f};

bool WalkerDrawer::DrawModel(const AppState& state, const WalkerScene& scene) {
  if (!skin_pass_ && !skin_pass_failed_) {
    auto made = ModelSkinPass::Create(state.data_dir + "/shaders");
    if (!made) {
      std::fprintf(stderr, "fabrik-demo: the quadruped not drawn: %s\n", made.error().c_str());
      skin_pass_failed_ = true;
    } else {
      skin_pass_ = std::move(made).value();
    }
  }
  if (!skin_pass_) return false;
  const character::QuadrupedWalker& q = *scene.quadruped;
  if (uploaded_ != q.model_ptr()) {
    skin_pass_->SetModel(q.model());
    uploaded_ = q.model_ptr();
  }
  const glm::mat4 view_projection = state.view.projection * state.view.view;
  for (std::size_t i = 0; i < q.model().parts.size(); ++i) {
    skin_pass_->Draw(scene.bones, static_cast<int>(i), kQuadrupedColor, false, view_projection,
                     state.view.camera.eye());
  }
  return true;
}

void WalkerDrawer::DrawModelDebug(const WalkerScene& scene, Renderer& renderer) {
  // Each leg as its cycle put it before the solve (the ghost), its solved chain and the
  // foot's goal.
  const character::QuadrupedWalker& q = *scene.quadruped;
  lines_.clear();
  spheres_.clear();
  AddStepView(q.recording(), scene.step_leg);
  for (std::size_t i = 0; i < 4 && scene.show_pre_solve; ++i) {
    AddPolyline(lines_, q.leg_pre_solve(i), draw::kWalkerGhost);
    AddPolyline(lines_, q.leg_joints(i), draw::kWalkerPole);
    for (const glm::vec3& p : q.leg_joints(i)) spheres_.push_back({p, 0.025f, draw::kWalkerPole});
    spheres_.push_back(
        {q.foot_goal(i), 0.035f, q.planted(i) ? draw::kWalkerPlanted : draw::kWalkerSwinging});
  }
  renderer.DrawLines(lines_, 1.5f, true);
  renderer.DrawSpheres(spheres_);
}

void WalkerDrawer::Draw(const AppState& state, const WalkerScene& scene, Renderer& renderer) {
  const Walker& w = *scene.active();
  const Heightmap& ground = w.terrain();
  const glm::vec3 eye = state.view.camera.eye();
  renderer.SetCamera(state.view.view, state.view.projection, eye);
  const glm::mat4 view_projection = state.view.projection * state.view.view;

  if (EnsureSurfaces(state)) {
    if (meshed_ != w.terrain_ptr()) {
      // Once per terrain load: a 257 x 257 grid (about 130k triangles) uploads in a blink;
      // flat ground is its four corners.
      auto mesh = BuildTerrainMesh(ground, TerrainDrawResolution(ground, kSceneTerrainResolution));
      if (mesh) {
        surfaces_->Upload(kTerrainSlot, mesh.value().positions, mesh.value().normals,
                          mesh.value().indices);
      }
      meshed_ = w.terrain_ptr();
    }
    SurfaceStyle terrain;
    terrain.color = {0.27f, 0.42f, 0.24f, 1.0f};
    terrain.high_color = {0.56f, 0.49f, 0.38f, 1.0f};
    terrain.ramp_height = std::max(ground.height_scale(), 1e-3f);
    terrain.grid_step = 1.0f;
    terrain.grid_color = {0.90f, 0.95f, 1.0f, 0.28f};
    surfaces_->Draw(kTerrainSlot, glm::mat4(1.0f), view_projection, eye, terrain);
  }
  if (scene.quadruped) {
    DrawModel(state, scene);
  } else if (surfaces_) {
    const glm::vec3 half = 0.5f * w.settings().body_size;
    const glm::mat4 model = glm::translate(glm::mat4(1.0f), w.body_position()) *
                            glm::mat4_cast(w.body_rotation()) * glm::scale(glm::mat4(1.0f), half);
    SurfaceStyle body;
    body.color = {0.34f, 0.44f, 0.62f, 1.0f};
    surfaces_->Draw(kBodySlot, model, view_projection, eye, body);
  }

  // Legs: tapered bones, knees, feet coloured by planted; the head shows the heading.
  spheres_.clear();
  bones_.clear();
  lines_.clear();
  const glm::vec3 forward = w.body_rotation() * glm::vec3(0.0f, 0.0f, 1.0f);
  const glm::vec3 up = w.body_rotation() * glm::vec3(0.0f, 1.0f, 0.0f);
  if (!scene.quadruped) {
    spheres_.push_back(
        {w.body_position() + forward * (0.5f * w.settings().body_size.z) + up * 0.08f, 0.2f,
         glm::vec4(0.95f, 0.55f, 0.18f, 1.0f)});
  }
  for (std::size_t i = 0; i < w.legs().size(); ++i) {
    const WalkerLegState& leg = w.legs()[i];
    if (scene.quadruped) {
      // The model's legs are skinned: only the foot target's ring.
      AddRing(lines_, ground, leg.planted ? leg.foot_target : leg.swing_to, 0.12f,
              leg.planted ? draw::kWalkerPlanted : draw::kWalkerSwinging, 24);
      continue;
    }
    const auto joints = leg.leg.joints();
    const bool chosen = static_cast<int>(i) == scene.step_leg;
    const glm::vec4 bone_color = chosen ? glm::vec4(1.0f, 0.86f, 0.55f, 1.0f) : draw::kBoneColor;
    for (std::size_t k = 0; k + 1 < joints.size(); ++k) {
      const float t0 = static_cast<float>(k) / static_cast<float>(joints.size() - 1);
      const float t1 = static_cast<float>(k + 1) / static_cast<float>(joints.size() - 1);
      bones_.push_back(
          {joints[k], 0.11f - 0.06f * t0, joints[k + 1], 0.11f - 0.06f * t1, bone_color});
    }
    for (std::size_t k = 0; k + 1 < joints.size(); ++k) {
      spheres_.push_back({joints[k], k == 0 ? 0.12f : 0.085f, draw::kJointColor});
    }
    spheres_.push_back(
        {joints.back(), 0.08f, leg.planted ? draw::kWalkerPlanted : draw::kWalkerSwinging});
    // The foot target: a ring on the ground, green while planted, orange in flight.
    AddRing(lines_, ground, leg.planted ? leg.foot_target : leg.swing_to, 0.22f,
            leg.planted ? draw::kWalkerPlanted : draw::kWalkerSwinging, 24);
  }
  renderer.DrawBones(bones_);
  renderer.DrawSpheres(spheres_);

  // The goal: a ring and a post on the ground, plus a small ball where the target is.
  const glm::vec3 goal = ground.PointAt(w.goal().x, w.goal().z);
  AddRing(lines_, ground, goal, 0.45f, draw::kWalkerGoal, 40);
  AddRing(lines_, ground, goal, 0.3f, draw::kWalkerGoal, 40);
  lines_.push_back({goal, draw::kWalkerGoal});
  lines_.push_back({goal + glm::vec3(0.0f, 1.2f, 0.0f), draw::kWalkerGoal});
  renderer.DrawLines(lines_, 2.0f, false);
  spheres_.clear();
  spheres_.push_back({goal + glm::vec3(0.0f, 1.2f, 0.0f), 0.12f, draw::kWalkerGoal});
  renderer.DrawSpheres(spheres_);

  if (scene.quadruped) {
    DrawModelDebug(scene, renderer);
    return;
  }
  DrawDebug(w, scene, renderer);
}

void WalkerDrawer::DrawDebug(const Walker& w, const WalkerScene& scene, Renderer& renderer) {
  lines_.clear();
  spheres_.clear();
  if (scene.show_pre_solve) {
    // Each leg's chain as it was before this step's solve, its knee pole, and the path a
    // swinging foot follows to its landing point.
    for (const WalkerLegState& leg : w.legs()) {
      AddPolyline(lines_, leg.leg.pre_solve(), draw::kWalkerGhost);
      spheres_.push_back({leg.pole, 0.06f, draw::kWalkerPole});
      lines_.push_back({leg.leg.hip(), glm::vec4(draw::kWalkerPole.r, draw::kWalkerPole.g,
                                                 draw::kWalkerPole.b, 0.4f)});
      lines_.push_back({leg.pole, glm::vec4(draw::kWalkerPole.r, draw::kWalkerPole.g,
                                            draw::kWalkerPole.b, 0.4f)});
      if (!leg.planted) {
        constexpr int kSamples = 16;
        glm::vec3 prev = leg.swing_from;
        for (int s = 1; s <= kSamples; ++s) {
          const glm::vec3 p =
              SwingPoint(w.terrain(), leg.swing_from, leg.swing_to,
                         static_cast<float>(s) / kSamples, w.settings().swing_height);
          lines_.push_back({prev, draw::kWalkerSwinging});
          lines_.push_back({p, draw::kWalkerSwinging});
          prev = p;
        }
      }
    }
  }
  AddStepView(w.recording(), scene.step_leg);
  renderer.DrawLines(lines_, 1.5f, true);
  renderer.DrawSpheres(spheres_);
}

void WalkerDrawer::AddStepView(const RecordingObserver& rec, int step_leg) {
  if (step_leg >= 0 && rec.recorded()) {
    // The chosen leg's last solve, half-pass by half-pass: backward passes warm, forward
    // passes cool, later passes brighter; the start pose dim white; the solve's target.
    AddPolyline(lines_, rec.start_pose(), glm::vec4(1.0f, 1.0f, 1.0f, 0.35f));
    const std::size_t n = rec.half_pass_count();
    for (std::size_t h = 0; h < n; ++h) {
      const RecordingObserver::HalfPass pass = rec.half_pass(h);
      const float a = 0.35f + 0.6f * static_cast<float>(h + 1) / static_cast<float>(n);
      const glm::vec4 color = pass.kind == PassKind::kBackward ? glm::vec4(1.0f, 0.45f, 0.3f, a)
                                                               : glm::vec4(0.35f, 0.8f, 1.0f, a);
      AddPolyline(lines_, pass.joints, color);
      for (const glm::vec3& p : pass.joints) spheres_.push_back({p, 0.035f, color});
    }
    spheres_.push_back({rec.target(), 0.07f, glm::vec4(1.0f, 1.0f, 1.0f, 0.8f)});
  }
}

}  // namespace fabrik

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>

#include "scenes/mocap/mocap_look.h"
#include "terrain/terrain_mesh.h"

namespace fabrik {
namespace {

constexpr int kGroundSlot = 0;

// Body parts, each with its colour: clothes on the torso and legs, skin on the arms and head.
enum BodyPart : int { kTorso, kLeg, kArm, kHead, kPartCount };
const glm::vec4 kPartColor[kPartCount] = {
    {0.30f, 0.46f, 0.70f, 1.0f},  // torso: a blue shirt
    {0.22f, 0.25f, 0.32f, 1.0f},  // legs: dark trousers
    {0.86f, 0.70f, 0.58f, 1.0f},  // arms
    {0.88f, 0.72f, 0.60f, 1.0f},  // head
};
const glm::vec4 kGhostColor(0.80f, 0.88f, 1.0f, 0.30f);
const glm::vec4 kContactColor(0.25f, 0.92f, 0.45f, 0.95f);
const glm::vec4 kPinColor(1.0f, 0.95f, 0.35f, 1.0f);
const glm::vec4 kRightReachColor(1.00f, 0.52f, 0.12f, 0.95f);
const glm::vec4 kLeftReachColor(0.35f, 0.80f, 1.00f, 0.95f);
const glm::vec4 kLookColor(0.85f, 0.45f, 0.95f, 0.95f);

void AddGroundRing(std::vector<LineVertex>& out, const Heightmap& ground, glm::vec3 c, float r,
                   const glm::vec4& color) {
  constexpr int kSegments = 24;
  glm::vec3 prev(0.0f);
  for (int i = 0; i <= kSegments; ++i) {
    const float a = 6.2831853f * static_cast<float>(i) / kSegments;
    glm::vec3 p(c.x + r * std::cos(a), 0.0f, c.z + r * std::sin(a));
    p.y = ground.HeightAt(p.x, p.z) + 0.01f;  // just above the ground, hugging its slope
    if (i > 0) {
      out.push_back({prev, color});
      out.push_back({p, color});
    }
    prev = p;
  }
}

// A target marker: a ball and a dashed-looking line from the limb to it.
void AddTarget(std::vector<SphereInstance>& spheres, std::vector<LineVertex>& lines,
               const glm::vec3& from, const glm::vec3& target, float radius,
               const glm::vec4& color) {
  spheres.push_back({target, radius, color});
  lines.push_back({from, glm::vec4(glm::vec3(color), 0.55f)});
  lines.push_back({target, glm::vec4(glm::vec3(color), 0.55f)});
}

}  // namespace

bool MocapLook::DrawGround(const AppState& state, const std::shared_ptr<const Heightmap>& ground) {
  if (!surfaces_ && !surfaces_failed_) {
    auto made = SurfaceRenderer::Create(state.data_dir + "/shaders");
    if (!made) {
      std::fprintf(stderr, "fabrik-demo: mocap ground not drawn: %s\n", made.error().c_str());
      surfaces_failed_ = true;
    } else {
      surfaces_ = std::move(made).value();
    }
  }
  if (!surfaces_ || !ground) return false;
  if (meshed_ != ground) {
    auto mesh = BuildTerrainMesh(*ground, TerrainDrawResolution(*ground, kSceneTerrainResolution));
    if (mesh) {
      surfaces_->Upload(kGroundSlot, mesh.value().positions, mesh.value().normals,
                        mesh.value().indices);
    }
    meshed_ = ground;
  }
  SurfaceStyle style;
  style.color = {0.30f, 0.44f, 0.27f, 1.0f};
  style.high_color = {0.58f, 0.52f, 0.40f, 1.0f};
  style.ramp_height = std::max(ground->height_scale(), 1e-3f);
  style.grid_step = 1.0f;
  style.grid_color = {0.90f, 0.95f, 1.0f, 0.22f};
  surfaces_->Draw(kGroundSlot, glm::mat4(1.0f), state.view.projection * state.view.view,
                  state.view.camera.eye(), style);
  return true;
}

bool MocapLook::PrepareSkin(const AppState& state,
                            const std::shared_ptr<const character::Model>& model) {
  if (!skin_pass_ && !skin_pass_failed_) {
    auto made = ModelSkinPass::Create(state.data_dir + "/shaders");
    if (!made) {
      std::fprintf(stderr, "fabrik-demo: the skinned character not drawn: %s\n",
                   made.error().c_str());
      skin_pass_failed_ = true;
    } else {
      skin_pass_ = std::move(made).value();
    }
  }
  if (!skin_pass_) return false;
  if (uploaded_ != model) {
    skin_pass_->SetModel(*model);
    uploaded_ = model;
  }
  return true;
}

void MocapLook::DrawSkin(const AppState& state, const character::Model& model,
                         std::span<const DualQuat> bones, bool linear) {
  const glm::mat4 view_projection = state.view.projection * state.view.view;
  const std::vector<character::MeshPart>& parts = model.parts;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    // The packaged human's meshes by name (docs/characters.md): a shirt, trousers, a head.
    const std::string& name = parts[i].name;
    const BodyPart part = name == "Legs" ? kLeg : name == "Head" ? kHead : kTorso;
    skin_pass_->Draw(bones, static_cast<int>(i), kPartColor[part], linear, view_projection,
                     state.view.camera.eye());
  }
}

void MocapLook::CacheRadii(const mocap::Rig& rig) {
  if (radii_rig_ == &rig) return;
  radii_rig_ = &rig;
  const mocap::Clip& clip = rig.clip;
  const mocap::Limbs& limbs = rig.limbs;
  const float h = clip.rest_height();
  const auto n = static_cast<std::size_t>(clip.joint_count());
  // Proportions of a person 1.7 m tall, as fractions of the height.
  bone_radius_.assign(n, 0.068f * h);  // spine and clavicles: the chest and shoulders
  part_.assign(n, kTorso);
  auto mark = [&](const mocap::Limb& limb, BodyPart part, float upper, float lower, float end) {
    // Every joint of the subtree from the limb's first joint: the limb and its fingers/toes.
    const int first = limb.chain.front();
    for (int j = first; j < clip.subtree_end(first); ++j) {
      part_[static_cast<std::size_t>(j)] = part;
      bone_radius_[static_cast<std::size_t>(j)] = end * h;
    }
    bone_radius_[static_cast<std::size_t>(first)] = upper * h;  // the pelvis to the hip
    for (std::size_t k = 1; k < limb.chain.size(); ++k) {
      const int joint = limb.chain[k];
      const bool before_middle = static_cast<int>(k) <= limb.middle;
      bone_radius_[static_cast<std::size_t>(joint)] = (before_middle ? upper : lower) * h;
    }
  };
  for (const mocap::Limb& leg : limbs.legs) mark(leg, kLeg, 0.045f, 0.032f, 0.024f);
  if (limbs.has_arms) {
    for (const mocap::Limb& arm : limbs.arms) mark(arm, kArm, 0.028f, 0.022f, 0.015f);
  }
  if (limbs.has_head) {
    for (int j = limbs.head; j < clip.subtree_end(limbs.head); ++j) {
      part_[static_cast<std::size_t>(j)] = kHead;
      bone_radius_[static_cast<std::size_t>(j)] = 0.062f * h;  // the skull, head to its tip
    }
    part_[static_cast<std::size_t>(limbs.head)] = kHead;
    bone_radius_[static_cast<std::size_t>(limbs.head)] = 0.026f * h;  // the neck
  }
}

void MocapLook::AddBody(const mocap::Rig& rig, const mocap::Pose& pose, float alpha, bool ghost) {
  CacheRadii(rig);
  const std::span<const int> parents = rig.clip.parents();
  const std::span<const glm::vec3> p = pose.positions;
  for (std::size_t j = 1; j < p.size(); ++j) {
    const auto parent = static_cast<std::size_t>(parents[j]);
    if (glm::distance(p[parent], p[j]) < 1e-4f) continue;  // zero offsets: no bone to draw
    const float r = bone_radius_[j];
    glm::vec4 color = ghost ? kGhostColor : kPartColor[part_[j]];
    color.a *= alpha;
    // A capsule: a cylinder ending in two spheres of its radius.
    bones_.push_back({p[parent], r, p[j], r, color});
    spheres_.push_back({p[j], r, color});
    if (!ghost || parent == 0) spheres_.push_back({p[parent], r, color});
  }
}

void MocapLook::DrawMocap(const AppState& state, const MocapScene& scene, Renderer& renderer) {
  renderer.SetCamera(state.view.view, state.view.projection, state.view.camera.eye());
  const mocap::Character& c = scene.character();
  const Heightmap& ground = *scene.ground();
  DrawGround(state, scene.ground());

  bones_.clear();
  spheres_.clear();
  lines_.clear();
  if (scene.skin() && PrepareSkin(state, scene.skin()->shared_model())) {
    DrawSkin(state, scene.skin()->model(), scene.skin()->bones(), scene.linear_skinning());
  } else {
    AddBody(c.rig(), c.pose(), 1.0f, false);
  }
  const mocap::Limbs& limbs = c.rig().limbs;
  const float h = c.rig().clip.rest_height();
  // Contacts and pins: a green ring on the ground under a foot in contact, a yellow pin ball
  // and ring where a pinned foot is held.
  for (const mocap::Side side : {mocap::kLeft, mocap::kRight}) {
    const mocap::FootState& foot = c.foot(side);
    const glm::vec3 ankle = c.pose().positions[static_cast<std::size_t>(foot.joint)];
    if (foot.contact) AddGroundRing(lines_, ground, ankle, 0.09f * h, kContactColor);
    if (foot.pinned) {
      spheres_.push_back({foot.pin, 0.012f * h, kPinColor});
      AddGroundRing(lines_, ground, foot.pin, 0.05f * h, kPinColor);
    }
  }
  // Reach and look targets, with lines from the hand or head to them.
  if (limbs.has_arms) {
    for (const mocap::Side side : {mocap::kLeft, mocap::kRight}) {
      const glm::vec3 wrist = c.pose().positions[static_cast<std::size_t>(limbs.arms[side].end())];
      const glm::vec4& color = side == mocap::kRight ? kRightReachColor : kLeftReachColor;
      if (auto target = c.reach_target(side)) {
        AddTarget(spheres_, lines_, wrist, *target, 0.022f * h, color);
      } else if (side == mocap::kRight) {
        // The app's target rides on the free right hand: a small ring shows it can be taken.
        spheres_.push_back({state.target(), 0.012f * h, glm::vec4(glm::vec3(color), 0.6f)});
      }
    }
  }
  if (limbs.has_head) {
    if (auto look = c.look_target()) {
      const glm::vec3 head = c.pose().positions[static_cast<std::size_t>(limbs.head)];
      AddTarget(spheres_, lines_, head, *look, 0.025f * h, kLookColor);
    }
  }
  renderer.DrawBones(bones_);
  renderer.DrawSpheres(spheres_);
  renderer.DrawLines(lines_, 2.0f, false);

  // The ghost last: translucent over the opaque body and ground.
  if (scene.ghost) {
    bones_.clear();
    spheres_.clear();
    AddBody(c.rig(), c.animated(), 1.0f, true);
    renderer.DrawBones(bones_);
    renderer.DrawSpheres(spheres_);
  }
}

void MocapLook::DrawCrowd(const AppState& state, const CrowdScene& scene, Renderer& renderer) {
  renderer.SetCamera(state.view.view, state.view.projection, state.view.camera.eye());
  DrawGround(state, scene.ground());
  const mocap::Crowd& crowd = scene.crowd();
  // The characters nearest the pivot, at most the scene's drawn cap (kMaxDrawnCharacters,
  // fewer for large skeletons): the frame's drawing cost stays bounded whatever N and the
  // clip's joint count are.
  const glm::vec3 pivot = state.view.camera.pivot();
  nearest_.clear();
  for (std::size_t i = 0; i < crowd.size(); ++i) {
    const mocap::Character& c = crowd.character(i);
    const glm::vec3 root = c.pose().positions[static_cast<std::size_t>(c.rig().limbs.pelvis)];
    const glm::vec3 d = root - pivot;
    nearest_.push_back({d.x * d.x + d.z * d.z, i});
  }
  const std::size_t drawn = std::min(nearest_.size(), static_cast<std::size_t>(scene.drawn_cap()));
  std::nth_element(nearest_.begin(), nearest_.begin() + static_cast<std::ptrdiff_t>(drawn) - 1,
                   nearest_.end());
  bones_.clear();
  spheres_.clear();
  lines_.clear();
  // The skinned characters (the scene's nearest, crowd_scene.h) are drawn skinned, the rest
  // of the drawn ones as capsules.
  skinned_member_.assign(crowd.size(), 0);
  if (scene.skin() && PrepareSkin(state, scene.skin()->shared_model())) {
    for (const CrowdSkinned& s : scene.skinned()) {
      DrawSkin(state, scene.skin()->model(), s.bones, false);
      skinned_member_[static_cast<std::size_t>(s.member)] = 1;
    }
  }
  for (std::size_t k = 0; k < drawn; ++k) {
    const mocap::Character& c = crowd.character(nearest_[k].second);
    if (skinned_member_[nearest_[k].second] == 0) AddBody(c.rig(), c.pose(), 1.0f, false);
    for (const mocap::Side side : {mocap::kLeft, mocap::kRight}) {
      const mocap::FootState& foot = c.foot(side);
      if (foot.pinned) {
        AddGroundRing(lines_, *scene.ground(), foot.pin, 0.07f * c.rig().clip.rest_height(),
                      kContactColor);
      }
    }
  }
  renderer.DrawBones(bones_);
  renderer.DrawSpheres(spheres_);
  renderer.DrawLines(lines_, 1.5f, false);
}

}  // namespace fabrik

// Step 5 for the creature: its tree as joints and bones, and its ball joints' cone outlines.
#include "scenes/creature/creature_draw.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "app/scene_palette.h"
#include "app/systems.h"
#include "scenes/creature/creature_scene.h"

namespace fabrik {

using namespace draw;  // the palette

void DrawCreatureTree(SceneDrawer& drawer, const CreatureScene& c, Renderer& renderer, float base) {
  std::vector<SphereInstance>& spheres = drawer.spheres();
  std::vector<BoneInstance>& bones = drawer.bones();
  std::vector<LineVertex>& lines = drawer.lines();
  const Tree& tree = *c.tree;
  std::span<const glm::vec3> p = tree.positions();
  spheres.clear();
  bones.clear();
  const float joint_r = base * 0.8f;
  for (std::size_t i = 0; i < p.size(); ++i) {
    glm::vec4 color = tree.children(i).size() > 1 ? kSubBaseColor : kJointColor;
    if (i == 0) color = kRootColor;
    if (i < c.at_limit.size() && c.at_limit[i]) color = kAtLimitColor;
    float r = joint_r;
    if (tree.is_effector(i)) {
      color = kEffectorColor;
      r = base * 1.1f;
    }
    spheres.push_back({p[i], r, color});
    if (i > 0) {
      const glm::vec3& q = p[static_cast<std::size_t>(tree.parent(i))];
      bones.push_back({q, base * 0.55f, p[i], base * 0.35f, kBoneColor});
    }
  }
  renderer.DrawShadows(spheres);
  renderer.DrawBones(bones);
  renderer.DrawSpheres(spheres);
  // Limits: a cone outline at every ball joint.
  lines.clear();
  std::vector<Frame>& frames = drawer.frames();
  frames.resize(p.size());
  frames[0] = MakeFrame(tree.base());
  for (std::size_t i = 1; i < p.size(); ++i) {
    const Frame& parent = frames[static_cast<std::size_t>(tree.parent(i))];
    frames[i] = TransportFrame(parent, p[i] - p[static_cast<std::size_t>(tree.parent(i))]);
    const bool limit = i < c.at_limit.size() && c.at_limit[i];
    drawer.AddConstraintOutline(tree.constraint(i), parent,
                                p[static_cast<std::size_t>(tree.parent(i))], tree.length(i) * 0.35f,
                                limit);
  }
  renderer.DrawLines(lines, 1.0f, false);
}

}  // namespace fabrik

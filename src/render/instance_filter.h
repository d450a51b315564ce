// instance_filter.h - keeps the work of the instanced draws bounded whatever the pose, the
// joint count and the camera (docs/performance.md: Rendering cost). Pure math on instance lists, no
// GL.
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <utility>
#include <vector>

#include "render/renderer.h"

namespace fabrik {

// True when the eye lies inside the sphere, or within `margin` (world units, >= 0; the near
// plane distance) of its surface. Such a sphere could only show its inside, clipped by the
// near plane: a whole-screen fill that hides everything else. False for non-finite input.
bool EyeInsideSphere(const SphereInstance& s, const glm::vec3& eye, float margin);

// The same test for a tapered bone (within the larger of its two radii of its axis).
bool EyeInsideBone(const BoneInstance& b, const glm::vec3& eye, float margin);

// A shadow's spread (footprint radius / sphere radius / 1.3) at a height `lift` above the
// ground (world units): grows by 0.35 a unit up to 7 units of height, then stays at 3.45, so
// no shadow is wider than 4.5 times its sphere however high it floats.
float ShadowSpread(float lift);

// The ground shadows of `spheres` as discs on y = 0 (centre x, z; radius = footprint radius;
// colour = the blob's colour), at most one per cell of a ground grid whose cell is a quarter of
// the footprint radius (radii binned by powers of two): joints stacked over one spot, which
// would blend their blobs hundreds of times, give one blob. Skips non-finite spheres. `out`
// and `keys` are reused (no allocation once grown).
void BuildShadows(std::span<const SphereInstance> spheres, std::vector<SphereInstance>& out,
                  std::vector<std::pair<std::uint64_t, std::uint32_t>>& keys);

// Whether a plain joint sphere (centre `p`, radius `r`) of a chain shows anything that the
// last joint sphere drawn before it (centre `kept`, radius `kept_r`) and the ones after do
// not: false while `p` lies closer to `kept` than a third of the smaller radius AND than 1.5
// pixels on screen (`pixels_per_unit` at `p`, Renderer::PixelsPerUnitAt). Spheres that far
// apart form a tube whose scallops are 1.4 % of a radius deep, with shading seams at most 1.5
// pixels apart, which blur as they would with every joint drawn; zoomed in, every joint is
// needed again. True for non-finite input (nothing is hidden on a guess).
bool JointSphereNeeded(const glm::vec3& p, float r, const glm::vec3& kept, float kept_r,
                       float pixels_per_unit);

}  // namespace fabrik

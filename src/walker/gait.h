// gait.h - the pure decisions of the walker's gait: which feet step, and the path of a step.
//
// docs/walker.md: The walker. Legs belong to one of two groups (walker_settings.h). A group may
// lift only while every foot of the other group is planted, so at most half the feet are ever in
// the air.
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>
#include <span>

#include "terrain/heightmap.h"

namespace fabrik {

struct GaitLeg {
  int group = 0;        // 0 or 1
  bool planted = true;  // false while the foot swings
  float drift = 0.0f;   // horizontal distance from the planted foot to where the body wants it
};

// The group that should lift now, or -1 for none. None while any foot is in the air. A group
// is a candidate when its largest drift exceeds `step_threshold`, or, when `settling` (the
// body stands at its goal), exceeds `settle_threshold`. Of two candidates the one with the
// larger drift steps, unless the two are within 10% of each other: then the group that did
// not step last (`last_group`, -1 if none) goes, so the groups alternate.
int ChooseStepGroup(std::span<const GaitLeg> legs, int last_group, bool settling,
                    float step_threshold, float settle_threshold);

// The point of a swinging foot at `phase` in [0, 1] (clamped) of its flight from `from` to
// `to` (both on the ground): horizontally an ease-in-out (smoothstep) blend of the two, and
// vertically the higher of the straight line between them and the ground beneath, plus
// arc_height x sin(pi x phase). Phase 0 gives `from` and phase 1 `to`, exactly.
glm::vec3 SwingPoint(const Heightmap& ground, const glm::vec3& from, const glm::vec3& to,
                     float phase, float arc_height);

}  // namespace fabrik

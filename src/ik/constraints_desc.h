// constraints_desc.h - plain descriptions of constraints and trees, one field per JSON key.
//
// The fabrik-solve CLI (and scene files) can fill these straight from JSON and convert them
// here; all checking and every error message lives in one place. Shapes (see also
// constraints.h and tree.h):
//   chain request:  {"joints": [...], "target": [...],
//                    "constraints": [{"joint": 1, "type": "ball", "up": 0.5, "down": 0.5,
//                                     "left": 0.5, "right": 0.5},
//                                    {"joint": 2, "type": "hinge", "axis": [0, 0, 1],
//                                     "space": "world", "min": -1.5, "max": 1.5}],
//                    "base": {"forward": [0, 1, 0], "up": [0, 0, -1]},
//                    "pole": [x, y, z]}                                  // optional
//   tree request:   {"nodes": [{"parent": -1, "position": [0, 0, 0]},
//                              {"parent": 0, "position": [0, 1, 0],
//                               "constraint": {"type": "ball", "angle": 0.6}}, ...],
//                    "targets": {"4": [x, y, z], ...}, "weights": {"4": 2.0}}
// Units: radians and world units; vectors world space, or parent-local (x = right, y = up,
// z = forward of the parent segment's frame) for "space": "parent" hinges.
// Conversions never throw; they return an Error whose message names the entry
// ("constraints[1]: hinge needs an axis").
#pragma once

#include <cstddef>
#include <glm/vec3.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "constraints.h"
#include "result.h"
#include "tree.h"

namespace fabrik {

// One entry of a "constraints" array (or a tree node's "constraint" object, which has no
// "joint"). Unset optionals take the defaults noted.
struct ConstraintDesc {
  int joint = -1;             // chain joint index, 0 .. joint_count - 2; ignored for tree nodes
  std::string type = "none";  // "none", "ball" or "hinge"
  // ball: half-angles in radians, [0, pi]; each unset one takes `angle`, or pi (no limit).
  std::optional<float> angle;
  std::optional<float> up, down, left, right;
  // hinge: `axis` required (non-zero). `reference` (zero angle) defaults to (0, 0, 1) - straight
  // on - for "parent" space, and for "world" space to a perpendicular of the axis (towards +Y,
  // or +X when the axis is mostly vertical).
  std::optional<glm::vec3> axis;
  std::optional<glm::vec3> reference;
  std::optional<float> min, max;  // radians, default -pi and pi
  std::string space = "parent";   // "parent" or "world"
};

// One entry of a tree request's "nodes" array.
struct TreeNodeDesc {
  int parent = -1;
  glm::vec3 position{0.0f};
  std::optional<ConstraintDesc> constraint;
};

// A single constraint; `label` prefixes error messages (e.g. "constraints[1]").
Result<JointConstraint> ToJointConstraint(const ConstraintDesc& desc,
                                          const std::string& label = "constraint");

// A chain's constraints. Fails on a joint index outside 0 .. joint_count - 2 (the effector has
// no segment), the same joint twice, or any bad entry.
Result<ChainConstraints> ToChainConstraints(std::span<const ConstraintDesc> descs,
                                            std::size_t joint_count, const BaseFrame& base = {});

// A tree (Tree::Create's checks plus the constraint conversions).
Result<Tree> ToTree(std::span<const TreeNodeDesc> nodes, const BaseFrame& base = {});

}  // namespace fabrik

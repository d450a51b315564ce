// solve_extended.h - fabrik-solve requests beyond a plain chain: joint constraints with an
// optional pole on a chain, and trees with several end effectors (docs/fabrik-solve.md: The
// headless solver, "Constraints" and "Trees").
//
// Constrained chain: a plain request (solve_request.h) plus any of
//   "constraints": [{"joint": 1, "type": "ball", "up": 0.5, "down": 0.5, "left": 0.5,
//                    "right": 0.5},                            // or "angle": 0.8 for a circle
//                   {"joint": 2, "type": "hinge", "axis": [1, 0, 0], "min": -1.5, "max": 1.5,
//                    "space": "parent", "reference": [0, 0, 1]}],   // space: parent|world
//   "base": {"forward": [0, 1, 0], "up": [0, 0, -1]},          // the root joint's frame
//   "pole": [x, y, z]                                          // picks the bend side
// Angles in radians; constraint i limits segment i (joint i -> i+1) in the frame of segment
// i-1 (see ik/constraints.h). Only the fabrik solver takes constraints. A hinge's reference
// must be non-zero and not along its axis; base.up non-zero and not along base.forward. The
// response adds "limited" (reachable by distance, not reached, held back by the limits),
// "joints_at_limit", "at_limit" (per joint, 1 = at its limit) and "max_violation" (radians).
//
// Tree: {"nodes": [{"parent": -1, "position": [0, 0, 0]},
//                  {"parent": 0, "position": [0, 1, 0], "constraint": {"type": "ball",
//                                                                      "angle": 0.6}}, ...],
//        "base": {...}, "targets": {"2": [x, y, z], "3": [x, y, z]},   // keys: leaf nodes
//        "weights": {"2": 2.0}, "tolerance": 0.01, "max_iterations": 50}
// Node 0 is the root (parent -1); every other parent has a smaller index. Target and weight
// keys are node indices written in plain decimal ("2"; not "02", "+2" or " 2"); every weight
// key must also be a target key; weights are >= 0 and not all 0. Trees take no "solver" other
// than "fabrik", and no "pole", "joints", "target" or "constraints" (chain fields). Response:
//   {"ok": true, "positions": [[x, y, z], ...], "iterations": 12,
//    "distances": {"2": 0.004, "3": 0.007}, "reached": true, "reachable": true,
//    "limited": false, "joints_at_limit": 0, "at_limit": [0, ...], "max_violation": 0.0}
// Every error is {"ok": false, "error": "..."} naming the field or entry, as for plain lines.
#pragma once

#include <optional>
#include <string>

#include "ik/constraints.h"
#include "ik/constraints_desc.h"
#include "solve_cli/solve_request.h"

namespace fabrik::tools {

// The response for a tree or constrained-chain request object; nullopt for a plain request.
std::optional<Json> HandleExtendedRequest(const Json& request, const RequestId& id);

// Shared by the chain and tree readers (solve_extended.cpp):
// "base" of a request (the default frame when absent).
Result<BaseFrame> ReadBase(const Json& request);
// One constraint object; `where` names it ("constraints[2]", "nodes[4].constraint"). With
// `max_joint` >= 0 it must hold a "joint" index in 0..max_joint.
Result<ConstraintDesc> ReadConstraint(const Json& c, const std::string& where, long long max_joint);
// A tree request (solve_tree.cpp).
Json HandleTree(const Json& request, const RequestId& id);

}  // namespace fabrik::tools

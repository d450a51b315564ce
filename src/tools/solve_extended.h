// solve_extended.h - fabrik-solve requests beyond the plain request (README "The headless
// solver"): joint constraints with an optional pole on a chain, and trees with several end
// effectors.
//
// Constrained chain: a plain request (solve_request.h) plus any of
//   "constraints": [{"joint": 1, "type": "ball", "up": 0.5, "down": 0.5, "left": 0.5,
//                    "right": 0.5},                            // or "angle": 0.8 for a circle
//                   {"joint": 2, "type": "hinge", "axis": [1, 0, 0], "min": -1.5, "max": 1.5,
//                    "space": "parent", "reference": [0, 0, 1]}],   // space: parent|world
//   "base": {"forward": [0, 1, 0], "up": [0, 0, -1]},          // the root joint's frame
//   "pole": [x, y, z]                                          // picks the bend side
// Angles in radians; constraint i limits segment i (joint i -> i+1) in the frame of segment
// i-1 (see ik/constraints.h). Only the fabrik solver takes constraints. The response adds
//   "limited" (reachable by distance, not reached, held back by the limits), "joints_at_limit",
//   "at_limit" (per joint, 1 = at its limit) and "max_violation" (radians).
//
// Tree: {"nodes": [{"parent": -1, "position": [0, 0, 0]},
//                  {"parent": 0, "position": [0, 1, 0], "constraint": {"type": "ball",
//                                                                      "angle": 0.6}}, ...],
//        "base": {...}, "targets": {"2": [x, y, z], "3": [x, y, z]},   // keys: leaf nodes
//        "weights": {"2": 2.0}, "tolerance": 0.01, "max_iterations": 50}
// Node 0 is the root (parent -1); every other parent has a smaller index. Response:
//   {"ok": true, "positions": [[x, y, z], ...], "iterations": 12,
//    "distances": {"2": 0.004, "3": 0.007}, "reached": true, "reachable": true,
//    "limited": false, "joints_at_limit": 0, "at_limit": [0, ...], "max_violation": 0.0}
// Every error is {"ok": false, "error": "..."} naming the field or entry, as for plain lines.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fabrik::tools {

// The response for a tree or constrained-chain request; nullopt for anything else (a plain
// request, or a line that is not a JSON object - the plain path reports those).
std::optional<std::string> HandleExtendedLine(std::string_view line);

}  // namespace fabrik::tools

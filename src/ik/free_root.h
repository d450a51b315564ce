// free_root.h - a chain with a free root, pulled by its head like a rope ("pull chain"), and
// laying a chain flat in the plane z = 0 (docs/scenes.md: Free root, The 2D view).
//
// PullChain(chain, target) is FABRIK's backward-reaching pass alone (Aristidou & Lasenby,
// "FABRIK", Graphical Models 73(5), 2011, section 4, the first half of algorithm 1): the end
// effector is put on the target, then each joint, from the effector's parent down to the
// root, is placed on the line from the joint it hangs from through its own old position, one
// segment length away. The root is not put back, so it follows: the chain trails behind its
// head like a rope dragged across a table.
//
// Promises, for any finite target and any valid Chain:
//   * the end effector is exactly `target` afterwards (bitwise), so distance = 0;
//   * every segment keeps its length (to float rounding of the joint coordinates);
//   * no joint becomes NaN or inf: a joint lying on the joint it hangs from is placed in the
//     direction of the reach before it (for the first reach: straight down, -Y);
//   * no heap allocation; O(joints), one pass.
// A non-finite target, or one farther than 1e37 - 2 x total length from the origin (beyond
// which joints could overflow a float), is refused (ok = false, the chain untouched). The result
// reports iterations = 1, distance 0, reached = true and reachable = true (a free root can follow
// any target). This and LayChainFlat are the only functions in src/ik that move a chain's root
// (ik/chain.h).
#pragma once

#include "chain.h"
#include "solve_types.h"

namespace fabrik {

SolveResult PullChain(Chain& chain, const glm::vec3& target);

// Lays the chain in the plane z = 0 without changing any segment length: the root goes to
// (x, y, 0), and each segment keeps the direction of its projection onto the plane (a segment
// seen end-on, parallel to Z, takes the direction of the one before it, +Y for the first).
// Nothing moves for a chain already in the plane. No heap allocation; never NaN.
void LayChainFlat(Chain& chain);

}  // namespace fabrik

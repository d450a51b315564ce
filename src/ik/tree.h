// tree.h - several end effectors: chains joined into a tree, solved with FABRIK's centroid rule.
//
// Aristidou & Lasenby, "FABRIK: A fast, iterative solver for the Inverse Kinematics problem",
// Graphical Models 73(5), 2011, section 5 (multiple end effectors).
//
// A Tree is a set of nodes (joints). Node 0 is the root; it never moves. Every other node has a
// parent with a smaller index (so index order is a valid root-to-leaf order) and a rigid segment
// from its parent. A node with several children is a sub-base; a node with none is an effector
// (leaf). Positions are world space, lengths world units, angles radians.
//
// Constraints (constraints.h). Node i's `constraint` limits the segment parent(i) -> i, relative
// to the frame of the parent's own incoming segment; for children of the root, relative to the
// tree's BaseFrame. Frames are carried from the base outwards by parallel transport, as in a
// chain. (A chain with ChainConstraints c is the tree whose node i+1 has c.joints[i].) The root
// itself has no incoming segment and must be unconstrained.
//
// SolveTree, one iteration:
//   backward pass, nodes in decreasing index (every child before its parent):
//     * an effector with a target of weight > 0 is put on the target;
//     * any other node with at least one such branch below it is put at the weighted average
//       (centroid) of the positions its active children propose for it, each child weighted by
//       the total target weight below it - the sub-base rule; a node with a single active child
//       is simply where that child puts it, i.e. ordinary FABRIK;
//     * each placed node then proposes its parent's position: one segment length back along the
//       line to the parent's current position, the direction limited by the children's
//       limits seen from below (MirroredConstraint) and by its own limit when that is world-fixed.
//     Branches with no target (or only zero weights) are not moved by this pass.
//   forward pass, nodes in increasing index: the root stays; each node is placed one segment
//     length from its (already placed) parent towards where the backward pass put it (or towards
//     its current position on an untargeted branch, which is thus dragged along), the direction
//     moved into the node's limit. This is the pass that makes the limits hold exactly.
//   Iterations stop when every targeted effector is within tolerance, after max_iterations, or
//   when no node moved more than 1e-3 x the largest remaining distance to a target (or
//   1e-7 x total length): no more progress.
//   A stalled solve of reachable targets with iterations to spare and some limit in the tree
//   is retried once from the rest pose (every segment straight on from its parent, moved into
//   its limit); the attempt with the smaller sum of weight x distance^2 is kept, and
//   `iterations` and the observer count both.
// Guarantees, whatever the input: the root does not move, every segment keeps its length (to
// float rounding), no position becomes NaN or inf, and every limit holds after the solve (to
// float rounding). A tree whose nodes all lie on one line is bent slightly first (the FABRIK
// straight-chain trap). No heap allocation: the Tree owns the scratch space.
//
// Failure behaviour: Tree::Create rejects bad input with a message naming the node; SolveTree
// rejects bad targets or settings with ok = false and a static message, leaving the tree
// untouched.
//
// JSON shape proposed for a fabrik-solve tree request:
//   {"nodes": [{"parent": -1, "position": [0, 0, 0]},
//              {"parent": 0, "position": [0, 1, 0], "constraint": {"type": "ball", "angle": 0.6}},
//              {"parent": 1, "position": [-0.5, 1.5, 0]},
//              {"parent": 1, "position": [0.5, 1.5, 0]}],
//    "base": {"forward": [0, 1, 0], "up": [0, 0, -1]},                     // optional
//    "targets": {"2": [-0.8, 1.2, 0.3], "3": [0.7, 1.6, 0]},   // keys: effector node indices
//    "weights": {"2": 2.0},                                   // optional, default 1
//    "tolerance": 0.01, "max_iterations": 50}
// response:
//   {"ok": true, "positions": [[x,y,z], ...], "iterations": 12,
//    "distances": {"2": 0.004, "3": 0.007}, "reached": true, "reachable": true,
//    "limited": false, "at_limit": [0, 0, 1, 0]}
// A "constraint" object inside a node takes the fields of one constraints-array entry
// (constraints.h) without "joint".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "constraints.h"
#include "result.h"
#include "solve_types.h"

namespace fabrik {

// One node as the caller describes it. Lengths are taken from the positions.
struct TreeNodeSpec {
  int parent = -1;             // -1 for node 0 only; otherwise 0 <= parent < this node's index
  glm::vec3 position{0.0f};    // world space, finite
  JointConstraint constraint;  // limits the segment parent -> this node; kNone for the root
};

// A target for one effector. `node` must be a leaf; each leaf at most once.
struct EffectorTarget {
  int node = -1;
  glm::vec3 position{0.0f};  // world space, finite
  float weight = 1.0f;       // finite, >= 0; 0 means "do not pull" (the branch just follows)
};

class Tree {
 public:
  // Fails on fewer than 2 nodes, node 0 with a parent or a constraint, a parent index not below
  // the node's own, a non-finite position, a zero-length segment, an invalid constraint or base
  // frame, or a total length that overflows. The message names the first bad node.
  static Result<Tree> Create(std::span<const TreeNodeSpec> nodes, const BaseFrame& base = {});

  std::size_t node_count() const { return positions_.size(); }
  // -1 for the root.
  int parent(std::size_t node) const { return parents_[node]; }
  // Length of the segment parent -> node; 0 for the root.
  float length(std::size_t node) const { return lengths_[node]; }
  const JointConstraint& constraint(std::size_t node) const { return constraints_[node]; }
  std::span<const int> children(std::size_t node) const;
  // Leaves, in increasing index.
  std::span<const int> effectors() const { return effectors_; }
  bool is_effector(std::size_t node) const { return child_begin_[node] == child_begin_[node + 1]; }
  // Sum of the segment lengths from the root to `node`: nothing farther is reachable for it.
  float reach(std::size_t node) const { return reach_[node]; }
  // Sum of all segment lengths.
  float total_length() const { return total_length_; }
  // The longest root-to-leaf path: no node ever gets farther from the root. The tree's size
  // for precision and convergence (many sibling branches make the sum far larger).
  float max_reach() const { return max_reach_; }
  const BaseFrame& base() const { return base_; }

  std::span<const glm::vec3> positions() const { return positions_; }
  const glm::vec3& root() const { return positions_.front(); }
  // The nodes as specs (parents, current positions, constraints), e.g. to rebuild a variant.
  std::vector<TreeNodeSpec> Specs() const;

  // Replaces the pose; accepted only with node_count() finite points, the root unchanged and
  // every length kept within a relative 1e-4. Otherwise an error and no change.
  Status SetPose(std::span<const glm::vec3> pose);
  // Replaces one node's constraint (validated; the root cannot be constrained).
  Status SetConstraint(std::size_t node, const JointConstraint& constraint);

  // Mutable positions for solvers in src/ik only; a writer takes on the guarantees above.
  std::span<glm::vec3> pose_for_solver() { return positions_; }

  // Solver scratch, sized once at creation so solves never allocate. Not part of the API.
  struct Scratch {
    std::vector<glm::vec3> backward;  // where the backward pass put each node
    std::vector<glm::dvec3> sum;      // weighted sum of the proposals for each node
    std::vector<double> weight;       // total proposal weight per node
    std::vector<Frame> frames;        // frame of each node's incoming segment (root: base)
    std::vector<Frame> back_frames;   // the same during the backward pass
    std::vector<int> target_of;       // index into the targets span, or -1
    std::vector<glm::vec3> kept;      // the first attempt's pose while a retry runs
  };
  Scratch& scratch_for_solver() { return scratch_; }

 private:
  Tree() = default;

  std::vector<glm::vec3> positions_;
  std::vector<int> parents_;
  std::vector<float> lengths_;
  std::vector<float> reach_;
  std::vector<JointConstraint> constraints_;
  std::vector<int> child_begin_;  // children of i: child_list_[child_begin_[i] .. [i+1])
  std::vector<int> child_list_;
  std::vector<int> effectors_;
  BaseFrame base_;
  float total_length_ = 0.0f;
  float max_reach_ = 0.0f;
  Scratch scratch_;
};

// The outcome of SolveTree.
struct TreeSolveResult {
  // False when the input was rejected (see `error`); the tree is then unchanged.
  bool ok = true;
  const char* error = nullptr;  // static text, nullptr when ok
  int iterations = 0;
  // The largest |effector - target| over the targets, world units.
  float max_distance = 0.0f;
  // Every target within tolerance.
  bool reached = false;
  // Every target within reach(effector) of the root. Necessary, not sufficient: branches share
  // their trunk, so targets reachable one by one may not be reachable together.
  bool reachable = false;
  // Reachable, not reached, and the limits held the tree back: some joint at its limit, or the
  // last forward pass had to move a direction into its limit (a heuristic; see
  // constrained_fabrik.h).
  bool limited = false;
  int joints_at_limit = 0;
  // Largest constraint violation of the returned pose, radians (float rounding).
  float max_violation = 0.0f;
};

// Optional outputs of SolveTree; empty spans are skipped, short ones filled as far as they go.
struct TreeSolveOutputs {
  std::span<float> distances;        // distances[k] = |effector - target| for targets[k]
  std::span<std::uint8_t> at_limit;  // per node: 1 at its limit (IsAtLimit), else 0
};

// Optional observer of a tree solve, for tests and teaching views. Callbacks run inside the
// solve; spans are valid only during the call.
class TreeObserver {
 public:
  virtual ~TreeObserver() = default;
  virtual void OnBegin(std::span<const glm::vec3> positions) { (void)positions; }
  // During the backward pass: `child` proposes `proposed` as the position of its parent
  // `sub_base`, with `weight` (the total target weight below `child`).
  virtual void OnProposal(int iteration, int sub_base, int child, const glm::vec3& proposed,
                          float weight) {
    (void)iteration, (void)sub_base, (void)child, (void)proposed, (void)weight;
  }
  // kBackward: where the backward pass put every node (untargeted branches where they were;
  // the root at the centroid of its proposals, which the forward pass then discards).
  // kForward: the pose after the forward pass.
  virtual void OnHalfPass(PassKind kind, int iteration, std::span<const glm::vec3> positions) {
    (void)kind, (void)iteration, (void)positions;
  }
};

// See the header comment. `targets`: at least one; settings as for SolveFabrik.
[[nodiscard]] TreeSolveResult SolveTree(Tree& tree, std::span<const EffectorTarget> targets,
                                        const SolveSettings& settings,
                                        TreeObserver* observer = nullptr,
                                        TreeSolveOutputs outputs = {});

// Largest ViolationAngle over the tree's nodes (radians); *worst_node is its index or -1.
// Allocates one frame per node.
float TreeMaxConstraintViolation(const Tree& tree, int* worst_node = nullptr);

// Writes 1 into at_limit[i] for every node at its limit, 0 otherwise (as far as the span goes);
// returns the count. Allocates one frame per node.
int TreeJointsAtLimit(const Tree& tree, std::span<std::uint8_t> at_limit,
                      float epsilon = kAtLimitEpsilon);

// ---- Builders ---------------------------------------------------------------------------------

// A hand: the wrist is the root; a two-segment palm runs along +Y; the thumb branches from the
// middle of the palm (a sub-base) towards +X, the other fingers fan out in the XY plane from
// the knuckle at the top of the palm (a nested sub-base), curling slightly towards +Z.
struct HandSpec {
  glm::vec3 wrist{0.0f};
  int fingers = 5;               // effectors, thumb included: 3..5
  float palm_length = 1.0f;      // > 0
  float segment_length = 0.35f;  // each finger segment, > 0
  int segments_per_finger = 3;   // 1..8
  // Add limits: palm cones of 0.6 rad; finger bases Ball(up 0.3, down 1.2, left/right 0.6);
  // finger joints Ball(up 0.3, down 1.4, left/right 0.35), so fingers curl mostly towards +Z
  // (the BaseFrame default has up = -Z, and the frames carried up the palm keep it).
  bool constrained = false;
};
Result<Tree> BuildHand(const HandSpec& spec);

// A creature: the hips are the root; a spine runs up +Y to the chest, a sub-base for the arms
// (towards -X and +X) and, with 3 or 5 effectors, the neck and head; with 4 or 5 effectors two
// legs hang from the hips. Effectors: 3 = arms + head, 4 = arms + legs, 5 = arms + head + legs.
struct CreatureSpec {
  glm::vec3 hips{0.0f};
  int effectors = 5;   // 3..5
  float scale = 1.0f;  // > 0, multiplies every length
  // Add limits: spine and neck cones of 0.5 rad, arms and legs cones of 1.2 rad relative to
  // their parent segment, and wide cones (2.8 rad, the angular regime) where limbs leave the
  // root or the chest.
  bool constrained = false;
};
Result<Tree> BuildCreature(const CreatureSpec& spec);

}  // namespace fabrik

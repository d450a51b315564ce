// crowd.h - many characters playing clips, their legs solved together by the batched solver.
//
// Each member is a Character (character.h) with its own placement and clip time. Update(dt)
// advances every member's clip time by dt (looping), then per frame:
//   1. every character samples its clip and places it (Character::SamplePose), in parallel
//      over characters; then finds its pins and pelvis and sets up its two leg problems
//      (Character::PrepareLegs), in parallel;
//   2. all 2N leg chains are solved in one SolveFabrikBatch (ik/batch_fabrik.h): the same
//      result per leg as SolveFabrik, SIMD lanes across legs, blocks across cores;
//   3. every character applies its legs, hands and gaze (Character::EndFrame), in parallel.
// Every member's legs must have the same joint count (e.g. clips of one skeleton). After
// Create, Update allocates nothing.
#pragma once

#include <memory>
#include <vector>

#include "ik/batch_fabrik.h"
#include "ik/result.h"
#include "mocap/character.h"

namespace fabrik::mocap {

struct CrowdMember {
  std::shared_ptr<const Rig> rig;
  Placement placement;
  float time = 0.0f;  // the clip time the member starts at, seconds
};

// Wall times of the last Update, seconds.
struct CrowdTiming {
  double frame_seconds = 0.0;   // the whole Update
  double sample_seconds = 0.0;  // stage 1's sampling: the animation, before any IK
  double ik_seconds = 0.0;      // everything after sampling: grounding, solve, write-back
  double solve_seconds = 0.0;   // the batched leg solve alone (part of ik_seconds)
};

class Crowd {
 public:
  // Fails on no members, a member without a rig, or legs of differing joint counts.
  // `terrain` (null: flat ground at y = 0) is not owned and must outlive the crowd's use.
  static Result<Crowd> Create(const std::vector<CrowdMember>& members, const Heightmap* terrain,
                              const CharacterSettings& settings = {},
                              BatchThreads threads = BatchThreads::kAll);

  // Advances every member by dt seconds (non-finite or negative: 0) and poses it.
  void Update(float dt);

  std::size_t size() const { return characters_.size(); }
  const Character& character(std::size_t i) const { return characters_[i]; }
  Character& character(std::size_t i) { return characters_[i]; }
  float time(std::size_t i) const { return times_[i]; }
  const CrowdTiming& last_timing() const { return timing_; }
  // Sets every member's IK weight (refused, nothing changed, outside [0, 1]).
  Status SetIkWeight(float weight);

 private:
  Crowd(std::vector<Character> characters, std::vector<float> times, ChainBatch batch,
        BatchThreads threads);
  std::vector<Character> characters_;
  std::vector<float> times_;
  ChainBatch batch_;
  std::vector<glm::vec3> targets_;  // [2 x character + side]
  std::vector<glm::vec3> solved_;   // [(2 x character + side) x leg joints]
  SolveSettings solve_;
  BatchThreads threads_;
  CrowdTiming timing_;
};

}  // namespace fabrik::mocap

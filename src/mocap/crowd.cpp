// crowd.cpp - see crowd.h.
#include "mocap/crowd.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>

#include "ik/fork_join_tsan.h"
#include "mocap/clip_sample.h"

namespace fabrik::mocap {
namespace {

using Clock = std::chrono::steady_clock;

// Runs body(i) for i in [0, n), over all cores or on this thread.
template <typename Body>
void ForEach(std::size_t n, BatchThreads threads, const Body& body) {
  if (threads == BatchThreads::kOne) {
    for (std::size_t i = 0; i < n; ++i) body(i);
    return;
  }
  // oneTBB's fork and join, stated for ThreadSanitizer builds; the join is at the end of scope.
  const tsan::ForkJoin edges;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 32),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      const tsan::ForkJoin::Body checked(edges);
                      for (std::size_t i = r.begin(); i != r.end(); ++i) body(i);
                    });
}

}  // namespace

Result<Crowd> Crowd::Create(const std::vector<CrowdMember>& members, const Heightmap* terrain,
                            const CharacterSettings& settings, BatchThreads threads) {
  if (members.empty()) return MakeError("a crowd needs at least one character");
  std::vector<Character> characters;
  std::vector<float> times;
  std::vector<Chain> chains;
  characters.reserve(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    Result<Character> c = Character::Create(members[i].rig, settings);
    if (!c) return MakeError("character " + std::to_string(i) + ": " + c.error());
    c.value().SetTerrain(terrain);
    c.value().SetPlacement(members[i].placement);
    for (int side : {kLeft, kRight}) chains.push_back(c.value().leg_chain(static_cast<Side>(side)));
    if (chains.back().joint_count() != chains.front().joint_count() ||
        chains[chains.size() - 2].joint_count() != chains.front().joint_count()) {
      return MakeError("character " + std::to_string(i) +
                       ": its legs have a different joint count from the first character's");
    }
    times.push_back(WrapClipTime(members[i].rig->clip, members[i].time));
    characters.push_back(std::move(c.value()));
  }
  Result<ChainBatch> batch = ChainBatch::FromChains(chains);
  if (!batch) return MakeError(batch.error());
  Crowd crowd(std::move(characters), std::move(times), std::move(batch.value()), threads);
  crowd.solve_.tolerance = settings.tolerance;
  crowd.solve_.max_iterations = settings.max_iterations;
  return crowd;
}

Crowd::Crowd(std::vector<Character> characters, std::vector<float> times, ChainBatch batch,
             BatchThreads threads)
    : characters_(std::move(characters)),
      times_(std::move(times)),
      batch_(std::move(batch)),
      threads_(threads) {
  targets_.resize(batch_.chain_count());
  solved_.resize(batch_.chain_count() * batch_.joint_count());
}

Status Crowd::SetIkWeight(float weight) {
  for (Character& c : characters_) {
    Status s = c.SetIkWeight(weight);
    if (!s) return s;
  }
  return Ok{};
}

void Crowd::Update(float dt) {
  if (!std::isfinite(dt) || dt < 0.0f) dt = 0.0f;
  const auto start = Clock::now();
  const std::size_t joints = batch_.joint_count();
  ForEach(characters_.size(), threads_, [&](std::size_t i) {
    Character& c = characters_[i];
    times_[i] = WrapClipTime(c.rig().clip, times_[i] + dt);
    c.SamplePose(times_[i]);
  });
  const auto ik_start = Clock::now();
  ForEach(characters_.size(), threads_, [&](std::size_t i) {
    Character& c = characters_[i];
    c.PrepareLegs(dt);
    for (int side : {kLeft, kRight}) {
      const std::size_t chain = 2 * i + side;
      const auto local = c.leg_local(static_cast<Side>(side));
      // A leg left out (weight 0, or a pose the batch refuses) is aimed at its own ankle:
      // already reached, so the solve leaves it as it is.
      targets_[chain] = local.back();
      if (c.leg_active(static_cast<Side>(side)) && batch_.SetPose(chain, local)) {
        targets_[chain] = c.leg_target_local(static_cast<Side>(side));
      }
    }
  });
  const auto solve_start = Clock::now();
  (void)SolveFabrikBatch(batch_, targets_, solve_, threads_);
  const auto solve_end = Clock::now();
  ForEach(characters_.size(), threads_, [&](std::size_t i) {
    const std::span<glm::vec3> left(solved_.data() + 2 * i * joints, joints);
    const std::span<glm::vec3> right(solved_.data() + (2 * i + 1) * joints, joints);
    batch_.CopyPose(2 * i, left);
    batch_.CopyPose(2 * i + 1, right);
    characters_[i].EndFrame(left, right);
  });
  const auto end = Clock::now();
  timing_.frame_seconds = std::chrono::duration<double>(end - start).count();
  timing_.sample_seconds = std::chrono::duration<double>(ik_start - start).count();
  timing_.ik_seconds = std::chrono::duration<double>(end - ik_start).count();
  timing_.solve_seconds = std::chrono::duration<double>(solve_end - solve_start).count();
}

}  // namespace fabrik::mocap

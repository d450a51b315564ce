// bench_peers: FABRIK against Orocos KDL (the kinematics library ROS uses) on the same chains,
// the same cold targets and the same position-only task (docs/peers.md has the table).
//
// Chains (bench/peers/kdl_chain.h): unit segments from the origin, straight along +Y at the
// start of every solve (KDL: all angles zero, the same pose).
//   * ball: 7 and 10 joints (6 and 9 bones), every joint but the effector a ball joint without
//     limits; in KDL a spherical joint of three revolute joints (18 and 27 KDL joints).
//   * hinge: 7 and 10 joints, planar, every joint a full-circle hinge about +Z; in KDL one
//     revolute joint per bone (6 and 9 KDL joints).
// Targets: 1000 per case, fixed seed; distance from the root uniform in 5-99.9 % of the reach,
// direction uniform on the sphere (ball) or on the circle in the XY plane (hinge).
// Tolerance: 1e-3 and 1e-5 of the reach (6 or 9 world units), Euclidean, position only.
// Iteration cap: 500 for every solver (KDL LMA's default).
// Solvers:
//   fabrik           SolveFabrik, textbook. On the hinge chain too: with the start pose and the
//                    target in one plane every reach stays in it, so an unconstrained solve
//                    is a hinge solve (the verdict below checks the plane).
//   fabrik_accel     the same with settings.accelerate (bend-scale steps)
//   fabrik_hinges    hinge chain only: SolveFabrikConstrained with a world hinge about +Z at
//                    every joint, the tool for hinges with limits; _accel: accelerated
//   fabrik_batch_1t  SolveFabrikBatch on all 1000 chains at once, one thread (SIMD lanes)
//   fabrik_batch_all the same on all cores (oneTBB), timed by the wall clock
//   kdl_lma          ChainIkSolverPos_LMA with task weights L = (1, 1, 1, 0, 0, 0): the
//                    rotation error weighs nothing; eps = the tolerance (its stop test is the
//                    weighted error norm, i.e. the Euclidean position error).
//   kdl_nr_jl        ChainIkSolverPos_NR_JL, joint limits [-pi, pi] on every joint (they keep
//                    every pose reachable), Newton steps from ChainIkSolverVel_wdls with task
//                    weights diag(1, 1, 1, 0, 0, 0) and joint weights I: for singular values
//                    above its eps (1e-5) that is exactly ChainIkSolverVel_pinv's
//                    pseudo-inverse, of the position rows of the Jacobian only (pinv has no
//                    task weights: on all six rows it would also hold the effector's rotation,
//                    which fixes the last bone's direction). Its forward solver is
//                    ChainFkSolverPos_recursive behind peers::PositionOnlyFk (positions with
//                    the goal's identity rotation, so NR_JL's six-component stop test is the
//                    position test); eps = tolerance / sqrt(3) because that test is per axis.
//   kdl_nr_jl_wide   the same with limits of +-1000 rad, which never act: what the clamp costs.
// Success is decided here, not by the solver: the final effector is rebuilt by a forward
// kinematics of our own (for FABRIK from the pose's directions and the nominal lengths, so a
// stretched segment fails; for KDL from the joint angles with rotation matrices, checked
// against KDL's own in tests/peers) and must be within the tolerance of the target; a FABRIK
// hinge chain must also keep every joint within the tolerance of its plane.
// Counters: success (share verified), claimed (share the solver itself reported as solved),
// iter (mean iterations: FABRIK's SolveResult::iterations, LMA's steps tried, NR_JL's Newton
// steps), per_solve (time per solve). The shares and means come from one untimed pass over all
// 1000 targets (every solve is cold and deterministic, so each timed pass repeats it); the
// timed passes measure the solves alone (with the FABRIK pose reset, a copy of a few points).
#include <benchmark/benchmark.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <kdl/chainiksolverpos_lma.hpp>
#include <kdl/chainiksolverpos_nr_jl.hpp>
#include <kdl/chainiksolvervel_wdls.hpp>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ik/batch_fabrik.h"
#include "ik/chain.h"
#include "ik/constrained_fabrik.h"
#include "ik/fabrik.h"
#include "peers/kdl_chain.h"

namespace {

using fabrik::peers::JointKind;

constexpr std::size_t kTargets = 1000;
constexpr int kCap = 500;
constexpr double kPi = 3.14159265358979323846;
// kdl_nr_jl_wide's joint limit (radians): far beyond any angle a solve reaches, so NR_JL's
// clamp never acts and the run shows what the [-pi, pi] limits cost.
constexpr double kWideLimit = 1000.0;

// ---------------------------------------------------------------- the problem

struct Problem {
  JointKind kind = JointKind::kBall;
  int joints = 0;         // FABRIK joints, effector included
  double relative = 0.0;  // tolerance as a share of the reach
  std::vector<double> lengths;
  double reach = 0.0;
  double tolerance = 0.0;  // world units
  std::vector<glm::dvec3> targets;
};

Problem MakeProblem(JointKind kind, int joints, double relative) {
  Problem p;
  p.kind = kind;
  p.joints = joints;
  p.relative = relative;
  p.lengths.assign(joints - 1, 1.0);
  p.reach = joints - 1.0;
  p.tolerance = relative * p.reach;
  std::mt19937 rng(2011);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_real_distribution<double> share(0.05, 0.999), angle(0.0, 2.0 * kPi);
  while (p.targets.size() < kTargets) {
    glm::dvec3 direction;
    if (kind == JointKind::kBall) {
      direction = glm::dvec3(g(rng), g(rng), g(rng));
      if (glm::length(direction) < 1e-6) continue;
      direction = glm::normalize(direction);
    } else {
      const double a = angle(rng);
      direction = glm::dvec3(std::cos(a), std::sin(a), 0.0);
    }
    p.targets.push_back(direction * (share(rng) * p.reach));
  }
  return p;
}

// The verdict on one solve.
struct Verdict {
  double error = 0.0;    // |effector - target| / tolerance, effector from our own kinematics
  bool claimed = false;  // the solver reported success
  int iterations = 0;
};

double Error(const Problem& p, const glm::dvec3& effector, const glm::dvec3& target) {
  const double e = glm::length(effector - target) / p.tolerance;
  return std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
}

// A FABRIK pose's error; a moved root or (hinge) a joint off the plane by more than the
// tolerance makes it infinite.
double PoseError(const Problem& p, std::span<const glm::vec3> pose, const glm::dvec3& target) {
  if (pose[0] != glm::vec3(0.0f) ||
      (p.kind == JointKind::kHinge && fabrik::peers::MaxOffPlane(pose) > p.tolerance)) {
    return std::numeric_limits<double>::infinity();
  }
  return Error(p, fabrik::peers::EffectorFromPose(pose, p.lengths), target);
}

fabrik::SolveSettings Settings(const Problem& p, bool accelerate) {
  fabrik::SolveSettings s;
  s.tolerance = float(p.tolerance);
  s.max_iterations = kCap;
  s.accelerate = accelerate;
  return s;
}

// ---------------------------------------------------------------- the racers
// Each runs one cold solve of every target per Pass(); with `verdicts` it also judges them.

class Racer {
 public:
  virtual ~Racer() = default;
  virtual void Pass(std::vector<Verdict>* verdicts) = 0;
};

class FabrikRacer : public Racer {
 public:
  // `hinges`: solve with SolveFabrikConstrained and the hinge chain's world hinges.
  FabrikRacer(const Problem& p, bool accelerate, bool hinges)
      : p_(p),
        chain_(
            std::move(fabrik::Chain::Straight(glm::vec3(0.0f), glm::vec3(0, 1, 0), FloatLengths(p)))
                .value()),
        start_(chain_.joints().begin(), chain_.joints().end()),
        settings_(Settings(p, accelerate)) {
    for (const glm::dvec3& t : p.targets) targets_.emplace_back(t);
    if (hinges) {
      // World hinges about +Z spanning the whole circle: a planar chain without limits.
      constraints_.joints.assign(
          p.lengths.size(),
          fabrik::JointConstraint::Hinge(glm::vec3(0, 0, 1), -3.14159265f, 3.14159265f,
                                         fabrik::HingeSpace::kWorld, glm::vec3(0, 1, 0)));
    }
  }

  void Pass(std::vector<Verdict>* verdicts) override {
    for (std::size_t i = 0; i < targets_.size(); ++i) {
      std::copy(start_.begin(), start_.end(), chain_.pose_for_solver().begin());
      fabrik::SolveResult r;
      if (constraints_.joints.empty()) {
        r = fabrik::SolveFabrik(chain_, targets_[i], settings_);
      } else {
        r = fabrik::SolveFabrikConstrained(chain_, constraints_, targets_[i], settings_).base;
      }
      benchmark::DoNotOptimize(r);
      benchmark::ClobberMemory();
      if (verdicts) {
        (*verdicts)[i] = {PoseError(p_, chain_.joints(), p_.targets[i]), r.reached, r.iterations};
      }
    }
  }

  static std::vector<float> FloatLengths(const Problem& p) {
    return std::vector<float>(p.lengths.begin(), p.lengths.end());
  }

 private:
  const Problem& p_;
  fabrik::Chain chain_;
  std::vector<glm::vec3> start_;
  std::vector<glm::vec3> targets_;
  fabrik::ChainConstraints constraints_;
  fabrik::SolveSettings settings_;
};

class BatchRacer : public Racer {
 public:
  BatchRacer(const Problem& p, fabrik::BatchThreads threads)
      : p_(p),
        start_(MakeBatch(p)),
        batch_(start_),
        settings_(Settings(p, false)),
        threads_(threads),
        pose_(p.joints) {
    for (const glm::dvec3& t : p.targets) targets_.emplace_back(t);
  }

  void Pass(std::vector<Verdict>* verdicts) override {
    batch_ = start_;  // same shape: a copy, no allocation
    const fabrik::BatchSolveResult r = fabrik::SolveFabrikBatch(
        batch_, targets_, settings_, threads_, fabrik::BatchRegroup::kNever);
    benchmark::DoNotOptimize(r);
    benchmark::ClobberMemory();
    if (!verdicts) return;
    for (std::size_t c = 0; c < targets_.size(); ++c) {
      batch_.CopyPose(c, pose_);
      const fabrik::ChainOutcome o = batch_.outcome(c);
      (*verdicts)[c] = {PoseError(p_, pose_, p_.targets[c]), o.reached, o.iterations};
    }
  }

 private:
  static fabrik::ChainBatch MakeBatch(const Problem& p) {
    const std::vector<glm::vec3> roots(p.targets.size(), glm::vec3(0.0f));
    return std::move(fabrik::ChainBatch::FromRoots(roots, glm::vec3(0, 1, 0),
                                                   FabrikRacer::FloatLengths(p)))
        .value();
  }

  const Problem& p_;
  const fabrik::ChainBatch start_;
  fabrik::ChainBatch batch_;
  fabrik::SolveSettings settings_;
  fabrik::BatchThreads threads_;
  std::vector<glm::vec3> targets_;
  std::vector<glm::vec3> pose_;
};

// What both KDL racers share: the chain, the cold start (all zeros), the goals as frames with
// the identity rotation, and the verdict from our own forward kinematics.
class KdlRacer : public Racer {
 protected:
  explicit KdlRacer(const Problem& p)
      : p_(p),
        chain_(fabrik::peers::MakeKdlChain(p.kind, p.lengths)),
        zero_(chain_.getNrOfJoints()),
        q_(chain_.getNrOfJoints()) {
    for (const glm::dvec3& t : p.targets) goals_.emplace_back(KDL::Vector(t.x, t.y, t.z));
  }

  Verdict Judge(std::size_t i, bool claimed, int iterations) const {
    const std::vector<double> q(q_.data.data(), q_.data.data() + q_.rows());
    const glm::dvec3 effector =
        fabrik::peers::JointPositionsFromAngles(p_.kind, p_.lengths, q).back();
    return {Error(p_, effector, p_.targets[i]), claimed, iterations};
  }

  const Problem& p_;
  const KDL::Chain chain_;  // the solvers keep references to it: never moved
  const KDL::JntArray zero_;
  KDL::JntArray q_;
  std::vector<KDL::Frame> goals_;
};

class LmaRacer : public KdlRacer {
 public:
  explicit LmaRacer(const Problem& p)
      : KdlRacer(p), lma_(chain_, PositionWeights(), p.tolerance, kCap) {}

  void Pass(std::vector<Verdict>* verdicts) override {
    for (std::size_t i = 0; i < goals_.size(); ++i) {
      const int status = lma_.CartToJnt(zero_, goals_[i], q_);
      benchmark::DoNotOptimize(q_.data.data());
      if (verdicts) {
        // lastNrOfIter is the index of the step that stopped the solve: one more step ran when
        // it stopped on success.
        const int steps = lma_.lastNrOfIter + (status == KDL::SolverI::E_NOERROR ? 1 : 0);
        (*verdicts)[i] = Judge(i, status == KDL::SolverI::E_NOERROR, steps);
      }
    }
  }

 private:
  static Eigen::Matrix<double, 6, 1> PositionWeights() {
    Eigen::Matrix<double, 6, 1> l;
    l << 1.0, 1.0, 1.0, 0.0, 0.0, 0.0;
    return l;
  }

  KDL::ChainIkSolverPos_LMA lma_;
};

class NrJlRacer : public KdlRacer {
 public:
  // Every joint limited to [-limit, limit] radians.
  NrJlRacer(const Problem& p, double limit)
      : KdlRacer(p),
        fk_(chain_),
        wdls_(chain_),
        q_min_(chain_.getNrOfJoints()),
        q_max_(chain_.getNrOfJoints()) {
    Eigen::MatrixXd task = Eigen::MatrixXd::Zero(6, 6);
    task.diagonal() << 1.0, 1.0, 1.0, 0.0, 0.0, 0.0;
    wdls_.setWeightTS(task);
    // With the rotation rows weighted out, three singular values are exactly zero; wdls damps
    // values below its eps with lambda (0 would divide zero by zero). Values above eps, the
    // position task's, are inverted exactly as pinv does.
    wdls_.setLambda(1e-3);
    for (unsigned j = 0; j < chain_.getNrOfJoints(); ++j) {
      q_min_(j) = -limit;
      q_max_(j) = limit;
    }
    nr_ = std::make_unique<KDL::ChainIkSolverPos_NR_JL>(chain_, q_min_, q_max_, fk_, wdls_, kCap,
                                                        p.tolerance / std::sqrt(3.0));
  }

  void Pass(std::vector<Verdict>* verdicts) override {
    for (std::size_t i = 0; i < goals_.size(); ++i) {
      fk_.reset_calls();
      const int status = nr_->CartToJnt(zero_, goals_[i], q_);
      benchmark::DoNotOptimize(q_.data.data());
      if (verdicts) {
        // One forward solve per Newton step, plus the one that found the goal reached.
        const bool ok = status == KDL::SolverI::E_NOERROR;
        (*verdicts)[i] = Judge(i, ok, int(fk_.calls()) - (ok ? 1 : 0));
      }
    }
  }

 private:
  fabrik::peers::PositionOnlyFk fk_;
  KDL::ChainIkSolverVel_wdls wdls_;
  KDL::JntArray q_min_, q_max_;
  std::unique_ptr<KDL::ChainIkSolverPos_NR_JL> nr_;
};

// ---------------------------------------------------------------- benchmarks

// One entry of the race: its name and how to make its racer for a problem.
struct Entrant {
  const char* name;
  std::unique_ptr<Racer> (*make)(const Problem& p);
  bool ball = true;        // raced on the ball chains
  bool real_time = false;  // timed by the wall clock (its work runs on several threads)
};

template <typename R, auto... kArgs>
std::unique_ptr<Racer> Make(const Problem& p) {
  return std::make_unique<R>(p, kArgs...);
}

const Entrant kEntrants[] = {
    {"fabrik", Make<FabrikRacer, false, false>},
    {"fabrik_accel", Make<FabrikRacer, true, false>},
    {"fabrik_hinges", Make<FabrikRacer, false, true>, false},
    {"fabrik_hinges_accel", Make<FabrikRacer, true, true>, false},
    {"fabrik_batch_1t", Make<BatchRacer, fabrik::BatchThreads::kOne>},
    {"fabrik_batch_all", Make<BatchRacer, fabrik::BatchThreads::kAll>, true, true},
    {"kdl_lma", Make<LmaRacer>},
    {"kdl_nr_jl", Make<NrJlRacer, kPi>},
    {"kdl_nr_jl_wide", Make<NrJlRacer, kWideLimit>},
};

void BM_Race(benchmark::State& state, JointKind kind, int joints, double relative,
             const Entrant& entrant) {
  const Problem problem = MakeProblem(kind, joints, relative);
  const std::unique_ptr<Racer> racer = entrant.make(problem);
  std::vector<Verdict> verdicts(problem.targets.size());
  racer->Pass(&verdicts);  // untimed: the judged pass
  double success = 0.0, near = 0.0, claimed = 0.0, iterations = 0.0;
  for (const Verdict& v : verdicts) {
    success += v.error <= 1.0;
    near += v.error <= 1.01;
    claimed += v.claimed;
    iterations += v.iterations;
  }
  for (auto _ : state) racer->Pass(nullptr);
  // per_solve divides the CPU time of the benchmark's thread, except for the all-cores batch,
  // which runs under UseRealTime (its work is spread over oneTBB's threads).
  const double n = double(verdicts.size());
  state.counters["success"] = success / n;
  state.counters["success_1pct"] = near / n;
  state.counters["claimed"] = claimed / n;
  state.counters["iter"] = iterations / n;
  state.counters["per_solve"] = benchmark::Counter(
      n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  for (const JointKind kind : {JointKind::kBall, JointKind::kHinge}) {
    for (const int joints : {7, 10}) {
      for (const double relative : {1e-3, 1e-5}) {
        for (const Entrant& e : kEntrants) {
          if (kind == JointKind::kBall && !e.ball) continue;
          const std::string name = std::string(kind == JointKind::kBall ? "ball" : "hinge") +
                                   "/joints:" + std::to_string(joints) +
                                   (relative > 1e-4 ? "/tol:1e-3/" : "/tol:1e-5/") + e.name;
          benchmark::internal::Benchmark* b =
              benchmark::RegisterBenchmark(name.c_str(), BM_Race, kind, joints, relative, e);
          b->Unit(benchmark::kMillisecond);
          if (e.real_time) b->UseRealTime();
        }
      }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

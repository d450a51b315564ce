#include "ik/catmull_rom.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <string>

namespace fabrik {
namespace {

// Arc-length table budget: enough entries that the Newton refinement starts close, few
// enough that a 100,000-point spline stays a few MB.
constexpr int kMaxTableSamplesPerSegment = 64;
constexpr int kMinTableSamplesPerSegment = 4;
constexpr std::size_t kTableBudget = std::size_t{1} << 18;
constexpr std::size_t kTessellationBudget = std::size_t{1} << 22;

bool IsUsable(const glm::vec3& p) {
  for (int i = 0; i < 3; ++i) {
    if (!std::isfinite(p[i]) || std::fabs(p[i]) > Spline::kMaxCoordinate) return false;
  }
  return true;
}

// One level of the Barry-Goldman pyramid: the linear blend of x (at knot ta) and y (at knot
// tb) evaluated at t, and its derivative in t given the derivatives dx, dy of x and y.
//   L(t)  = ((tb - t) x + (t - ta) y) / (tb - ta)
//   L'(t) = (y - x + (tb - t) x' + (t - ta) y') / (tb - ta)
void Blend(double ta, double tb, double t, const double x[3], const double dx[3], const double y[3],
           const double dy[3], double out[3], double dout[3]) {
  const double inv = 1.0 / (tb - ta);
  const double wa = (tb - t) * inv;
  const double wb = (t - ta) * inv;
  for (int i = 0; i < 3; ++i) {
    const double v = wa * x[i] + wb * y[i];
    const double dv = (y[i] - x[i]) * inv + wa * dx[i] + wb * dy[i];
    out[i] = v;
    dout[i] = dv;
  }
}

// Gauss-Legendre 5-point rule on [-1, 1].
constexpr double kGaussX[5] = {0.0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640,
                               0.9061798459386640};
constexpr double kGaussW[5] = {0.5688888888888889, 0.4786286704993665, 0.4786286704993665,
                               0.2369268850561891, 0.2369268850561891};

}  // namespace

Result<Spline> Spline::Create(std::vector<glm::vec3> points, bool closed) {
  Spline spline;
  spline.closed_ = closed;
  spline.points_.reserve(std::min(points.size(), kMaxPoints + 1));
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!IsUsable(points[i])) {
      return MakeError("spline point " + std::to_string(i + 1) +
                       " has a coordinate that is not finite or beyond +-1e6");
    }
    if (!spline.points_.empty() &&
        glm::distance(spline.points_.back(), points[i]) <= kMinPointSpacing) {
      continue;
    }
    spline.points_.push_back(points[i]);
    if (spline.points_.size() > kMaxPoints + 1) break;  // reported below
  }
  if (closed && spline.points_.size() > 1 &&
      glm::distance(spline.points_.back(), spline.points_.front()) <= kMinPointSpacing) {
    spline.points_.pop_back();
  }
  const std::size_t needed = closed ? 3 : 2;
  if (spline.points_.size() < needed) {
    return MakeError(std::string("a") + (closed ? " closed" : "n open") +
                     " spline needs at least " + std::to_string(needed) + " distinct points, got " +
                     std::to_string(spline.points_.size()));
  }
  if (spline.points_.size() > kMaxPoints) {
    return MakeError("a spline may have at most " + std::to_string(kMaxPoints) + " points");
  }

  // Control point k, with wrap-around (closed) or reflected phantom points (open).
  const auto& p = spline.points_;
  const long n = static_cast<long>(p.size());
  auto point = [&](long k) -> glm::dvec3 {
    if (closed) return glm::dvec3(p[static_cast<std::size_t>(((k % n) + n) % n)]);
    if (k < 0) return 2.0 * glm::dvec3(p[0]) - glm::dvec3(p[1]);
    if (k >= n) return 2.0 * glm::dvec3(p[n - 1]) - glm::dvec3(p[n - 2]);
    return glm::dvec3(p[static_cast<std::size_t>(k)]);
  };

  const long segment_count = closed ? n : n - 1;
  spline.segments_.resize(static_cast<std::size_t>(segment_count));
  for (long i = 0; i < segment_count; ++i) {
    Segment& seg = spline.segments_[static_cast<std::size_t>(i)];
    glm::dvec3 q[4] = {point(i - 1), point(i), point(i + 1), point(i + 2)};
    for (int j = 0; j < 4; ++j) {
      for (int c = 0; c < 3; ++c) seg.p[j][c] = q[j][c];
    }
    // Centripetal knots: interval = |chord|^alpha. The floor only matters for points that a
    // reflection or wrap makes coincide (cleaning already removed consecutive duplicates);
    // it keeps every denominator in the pyramid positive.
    auto interval = [&](int a) {
      return std::max(std::pow(glm::distance(q[a], q[a + 1]), kAlpha), 1e-12);
    };
    seg.t1 = interval(0);
    seg.t2 = seg.t1 + interval(1);
    seg.t3 = seg.t2 + interval(2);
  }
  spline.BuildArcTable();
  return spline;
}

void Spline::Evaluate(int segment, double u, double out_point[3], double out_velocity[3]) const {
  const Segment& s = segments_[static_cast<std::size_t>(segment)];
  // Barry and Goldman's pyramidal formulation ("A recursive evaluation algorithm for a class
  // of Catmull-Rom splines", SIGGRAPH 1988): three levels of linear blends over the knots.
  const double t0 = 0.0, t1 = s.t1, t2 = s.t2, t3 = s.t3;
  const double t = t1 + u * (t2 - t1);
  const double zero[3] = {0.0, 0.0, 0.0};
  double a1[3], da1[3], a2[3], da2[3], a3[3], da3[3];
  Blend(t0, t1, t, s.p[0], zero, s.p[1], zero, a1, da1);
  Blend(t1, t2, t, s.p[1], zero, s.p[2], zero, a2, da2);
  Blend(t2, t3, t, s.p[2], zero, s.p[3], zero, a3, da3);
  double b1[3], db1[3], b2[3], db2[3];
  Blend(t0, t2, t, a1, da1, a2, da2, b1, db1);
  Blend(t1, t3, t, a2, da2, a3, da3, b2, db2);
  double c[3], dc[3];
  Blend(t1, t2, t, b1, db1, b2, db2, c, dc);
  for (int i = 0; i < 3; ++i) {
    out_point[i] = c[i];
    out_velocity[i] = dc[i] * (t2 - t1);  // chain rule: d/du = d/dt * dt/du
  }
}

Spline::Velocity Spline::VelocityOf(int segment) const {
  double p0[3], m0[3], p1[3], m1[3];
  Evaluate(segment, 0.0, p0, m0);
  Evaluate(segment, 1.0, p1, m1);
  // Derivative of the cubic Hermite form with end points p0, p1 and end velocities m0, m1:
  //   P'(u) = m0 + (6 (p1 - p0) - 4 m0 - 2 m1) u + (6 (p0 - p1) + 3 m0 + 3 m1) u^2
  Velocity v;
  for (int i = 0; i < 3; ++i) {
    const double chord = p1[i] - p0[i];
    v.c[0][i] = m0[i];
    v.c[1][i] = 6.0 * chord - 4.0 * m0[i] - 2.0 * m1[i];
    v.c[2][i] = -6.0 * chord + 3.0 * m0[i] + 3.0 * m1[i];
  }
  return v;
}

double Spline::Velocity::Speed(double u) const {
  double sum = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double d = c[0][i] + u * (c[1][i] + u * c[2][i]);
    sum += d * d;
  }
  return std::sqrt(sum);
}

double Spline::ArcLength(const Velocity& velocity, double u_from, double u_to) {
  const double half = 0.5 * (u_to - u_from);
  const double mid = 0.5 * (u_to + u_from);
  double sum = 0.0;
  for (int i = 0; i < 5; ++i) sum += kGaussW[i] * velocity.Speed(mid + half * kGaussX[i]);
  return sum * half;
}

void Spline::BuildArcTable() {
  const std::size_t segs = segments_.size();
  samples_per_segment_ = static_cast<int>(std::clamp<std::size_t>(
      kTableBudget / segs, kMinTableSamplesPerSegment, kMaxTableSamplesPerSegment));
  const int k = samples_per_segment_;
  cumulative_.assign(segs * static_cast<std::size_t>(k) + 1, 0.0);
  double total = 0.0;
  std::size_t index = 0;
  for (std::size_t s = 0; s < segs; ++s) {
    const Velocity velocity = VelocityOf(static_cast<int>(s));
    for (int j = 0; j < k; ++j) {
      const double a = static_cast<double>(j) / k;
      const double b = static_cast<double>(j + 1) / k;
      total += ArcLength(velocity, a, b);
      cumulative_[++index] = total;
    }
  }
  total_length_ = total;
}

glm::vec3 Spline::Evaluate(int segment, float t) const {
  segment = std::clamp(segment, 0, segment_count() - 1);
  const double u = std::isnan(t) ? 0.0 : std::clamp(static_cast<double>(t), 0.0, 1.0);
  double p[3], v[3];
  Evaluate(segment, u, p, v);
  return glm::vec3(static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2]));
}

glm::vec3 Spline::EvaluateGlobal(double u) const {
  const double n = static_cast<double>(segment_count());
  if (std::isnan(u)) u = 0.0;
  if (closed_) {
    if (!std::isfinite(u)) u = 0.0;
    u = std::fmod(u, n);
    if (u < 0.0) u += n;
  } else {
    u = std::clamp(u, 0.0, n);
  }
  int segment = static_cast<int>(std::floor(u));
  double local = u - segment;
  if (segment >= segment_count()) {  // u == n (open end), or rounding just below n
    segment = segment_count() - 1;
    local = closed_ ? 0.0 : 1.0;
    if (closed_) segment = 0;
  }
  double p[3], v[3];
  Evaluate(segment, local, p, v);
  return glm::vec3(static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2]));
}

double Spline::ParameterAtDistance(double s) const {
  const double total = total_length_;
  if (std::isnan(s)) s = 0.0;
  if (closed_) {
    if (!std::isfinite(s)) s = 0.0;
    s = std::fmod(s, total);
    if (s < 0.0) s += total;
  } else {
    s = std::clamp(s, 0.0, total);
    if (s >= total) return static_cast<double>(segment_count());
  }
  // The table entry at or before s.
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), s);
  std::size_t k = static_cast<std::size_t>(it - cumulative_.begin());
  k = (k == 0) ? 0 : k - 1;
  if (k + 1 >= cumulative_.size()) k = cumulative_.size() - 2;
  const int per = samples_per_segment_;
  const int segment = static_cast<int>(k / static_cast<std::size_t>(per));
  const double u_lo = static_cast<double>(k % static_cast<std::size_t>(per)) / per;
  const double u_hi = u_lo + 1.0 / per;
  const double rest = s - cumulative_[k];
  const double span = cumulative_[k + 1] - cumulative_[k];
  if (!(span > 0.0)) return segment + u_lo;

  // Refine the linear guess with safeguarded Newton steps on f(u) = arc(u_lo, u) - rest,
  // f' = speed. The table alone would leave a speed ripple as large as the speed's
  // variation across one table interval; this removes it.
  double lo = u_lo, hi = u_hi;
  double u = u_lo + (rest / span) * (u_hi - u_lo);
  const double tolerance = 1e-10 * std::max(1.0, span);
  const Velocity velocity = VelocityOf(segment);
  for (int iteration = 0; iteration < 12; ++iteration) {
    const double f = ArcLength(velocity, u_lo, u) - rest;
    if (std::fabs(f) <= tolerance) break;
    if (f > 0.0) {
      hi = u;
    } else {
      lo = u;
    }
    const double speed = velocity.Speed(u);
    double next = speed > 0.0 ? u - f / speed : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    u = next;
  }
  return segment + u;
}

glm::vec3 Spline::PointAtDistance(double s) const { return EvaluateGlobal(ParameterAtDistance(s)); }

std::vector<glm::vec3> Spline::Tessellate(int samples_per_segment) const {
  const std::size_t segs = segments_.size();
  std::size_t per = static_cast<std::size_t>(std::clamp(samples_per_segment, 1, 1024));
  per = std::max<std::size_t>(1, std::min(per, kTessellationBudget / segs));
  std::vector<glm::vec3> out;
  out.reserve(segs * per + 1);
  for (std::size_t s = 0; s < segs; ++s) {
    for (std::size_t j = 0; j < per; ++j) {
      out.push_back(Evaluate(static_cast<int>(s), static_cast<float>(j) / per));
    }
  }
  out.push_back(closed_ ? points_.front() : points_.back());
  return out;
}

}  // namespace fabrik

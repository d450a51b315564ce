#include "ik/constraints.h"
#include "ik/vec_util.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "ik/fabrik.h"

namespace fabrik {
namespace {

// SafeNormalize, also for vectors with a NaN among finite components (which it does not
// catch): any non-finite input gives the fallback.
glm::vec3 Unit(const glm::vec3& v, const glm::vec3& fallback) {
  return IsFinite(v) ? SafeNormalize(v, fallback) : fallback;
}

// The unit vector along the part of `v` perpendicular to unit `axis`, or AnyPerpendicular(axis)
// when there is no usable such part: v zero, not finite, or within 1e-4 rad of the axis line
// (what is left then is rounding noise, which would point anywhere).
glm::vec3 PerpendicularUnit(const glm::vec3& v, const glm::vec3& axis) {
  const glm::vec3 fallback = AnyPerpendicular(axis);
  if (!IsFinite(v)) return fallback;
  const glm::vec3 u = Unit(v, glm::vec3(0.0f));
  if (u == glm::vec3(0.0f)) return fallback;
  glm::vec3 perp = u - axis * glm::dot(u, axis);
  if (!(glm::length(perp) > 1e-4f)) return fallback;
  perp = glm::normalize(perp);
  // A second Gram-Schmidt step removes what rounding left along the axis.
  return Unit(perp - axis * glm::dot(perp, axis), fallback);
}

double ClampAngle(float a) { return std::clamp(static_cast<double>(a), 0.0, std::numbers::pi); }

// Angle between two vectors, robust for tiny and near-pi angles (acos is not).
float AngleBetween(const glm::vec3& a, const glm::vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

glm::vec3 ToWorld(const Frame& f, const glm::vec3& local) {
  return f.right * local.x + f.up * local.y + f.forward * local.z;
}

struct Vec2 {
  double x = 0.0;
  double y = 0.0;
};

// Is (px, py), both >= 0, inside the quarter ellipse with semi-axes a, b >= 0? A zero
// semi-axis makes the ellipse a segment on the other axis.
bool InsideEllipse(double a, double b, double px, double py) {
  const double u = a > 0.0 ? px / a : (px > 0.0 ? HUGE_VAL : 0.0);
  const double v = b > 0.0 ? py / b : (py > 0.0 ? HUGE_VAL : 0.0);
  return u * u + v * v <= 1.0;
}

// Nearest point of the ellipse (x/a)^2 + (y/b)^2 = 1 to a point (px, py) >= 0 outside it.
// The nearest point is q = (a^2 px / (t + a^2), b^2 py / (t + b^2)) where t > 0 is the root of
//   F(t) = (a px / (t + a^2))^2 + (b py / (t + b^2))^2 - 1,
// (D. Eberly, "Distance from a Point to an Ellipse, an Ellipsoid, or a Hyperellipsoid", 2013).
// F is convex and decreasing for t >= 0, so Newton's method started left of the root climbs to
// it without overshooting; a bisection bracket guards against rounding.
Vec2 NearestOnEllipse(double a, double b, double px, double py) {
  if (a <= 0.0 && b <= 0.0) return {0.0, 0.0};
  if (a <= 0.0) return {0.0, std::min(py, b)};  // the segment x = 0, 0 <= y <= b
  if (b <= 0.0) return {std::min(px, a), 0.0};
  const double a2 = a * a;
  const double b2 = b * b;
  const double ax = a * px;
  const double by = b * py;
  // F > 0 while either term alone exceeds 1, i.e. for t < a px - a^2 or t < b py - b^2.
  double lo = std::max({0.0, ax - a2, by - b2});
  // F(t) <= ((a px)^2 + (b py)^2) / t^2 - 1, which is <= 0 at t = hi.
  double hi = std::max(lo, std::hypot(ax, by));
  double t = lo;
  for (int i = 0; i < 100; ++i) {
    const double u = ax / (t + a2);
    const double v = by / (t + b2);
    const double f = u * u + v * v - 1.0;
    if (f == 0.0) break;
    if (f > 0.0) {
      lo = t;
    } else {
      hi = t;
    }
    const double slope = -2.0 * (u * u / (t + a2) + v * v / (t + b2));
    double next = slope < 0.0 ? t - f / slope : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (next == t || hi - lo <= 1e-15 * hi) break;
    t = next;
  }
  return {a2 * px / (t + a2), b2 * py / (t + b2)};
}

// Local coordinates of the nearest allowed direction, or nothing when already allowed.
struct ConeOutcome {
  bool inside = true;
  glm::dvec3 local{0.0, 0.0, 1.0};
};

// The cone projection in parent-local coordinates (x = right, y = up, z = forward); (x, y, z)
// is a unit vector.
ConeOutcome ProjectIntoQuadrant(double x, double y, double z, const ConeLimits& cone) {
  const double up = ClampAngle(cone.up);
  const double down = ClampAngle(cone.down);
  const double left = ClampAngle(cone.left);
  const double right = ClampAngle(cone.right);
  const double rho = std::hypot(x, y);
  ConeOutcome out;
  if (rho < 1e-12) {
    if (z > 0.0) return out;  // on the axis: inside every cone, even a zero one
    // Exactly opposite: every boundary point is as far along the sphere as its angle is short
    // of pi, so the nearest is the one reaching farthest - always on one of the four axis
    // directions, as an ellipse's radius peaks at a semi-axis end.
    double best = up;
    glm::dvec2 dir(0.0, 1.0);
    if (right > best) best = right, dir = {1.0, 0.0};
    if (down > best) best = down, dir = {0.0, -1.0};
    if (left > best) best = left, dir = {-1.0, 0.0};
    if (best >= std::numbers::pi) return out;
    out.inside = false;
    out.local = glm::dvec3(std::sin(best) * dir.x, std::sin(best) * dir.y, std::cos(best));
    return out;
  }
  // Work in the quadrant's positive corner and restore the signs at the end; the nearest point
  // of a quarter ellipse to a point in its quadrant lies in the same quadrant.
  const double sx = x >= 0.0 ? 1.0 : -1.0;
  const double sy = y >= 0.0 ? 1.0 : -1.0;
  const double h = x >= 0.0 ? right : left;
  const double v = y >= 0.0 ? up : down;
  const double ax = std::fabs(x);
  const double ay = std::fabs(y);
  if (h < kTangentPlaneMaxAngle && v < kTangentPlaneMaxAngle) {
    // The cone meets the plane z = 1 in an ellipse with semi-axes tan(angle).
    const double ea = std::tan(h);
    const double eb = std::tan(v);
    Vec2 q;
    if (z > 0.0) {
      const double px = ax / z;
      const double py = ay / z;
      if (InsideEllipse(ea, eb, px, py)) return out;
      q = NearestOnEllipse(ea, eb, px, py);
    } else {
      // At or behind z = 0 there is no intersection with the plane. As z -> 0+ the point runs
      // off to infinity along its azimuth and its nearest ellipse point tends to the one whose
      // outward normal has that azimuth; use that limit so the map stays continuous.
      const double nx = ax / rho;
      const double ny = ay / rho;
      // The ellipse point with outward normal (nx, ny) is (a^2 nx, b^2 ny) / |(a nx, b ny)|.
      const double norm = std::hypot(ea * nx, eb * ny);
      if (norm > 0.0) q = {ea * ea * nx / norm, eb * eb * ny / norm};
    }
    out.inside = false;
    out.local = glm::normalize(glm::dvec3(sx * q.x, sy * q.y, 1.0));
    return out;
  }
  // Angular regime: the point at (theta cos(phi), theta sin(phi)), theta = angle from the axis,
  // phi = azimuth; the quarter ellipse has the two angles as semi-axes.
  const double theta = std::atan2(rho, z);
  const double px = theta * ax / rho;
  const double py = theta * ay / rho;
  if (InsideEllipse(h, v, px, py)) return out;
  const Vec2 q = NearestOnEllipse(h, v, px, py);
  const double angle = std::hypot(q.x, q.y);
  out.inside = false;
  if (angle > 0.0) {
    const double s = std::sin(angle) / angle;
    out.local = glm::dvec3(s * sx * q.x, s * sy * q.y, std::cos(angle));
  }
  return out;
}

// The quadrant-wise projection above, with one repair. At the antipode of the axis the angular
// map tears (all azimuths meet there): a direction a hair's breadth from the antipode has an
// azimuth set by rounding, so it may land in a narrow quadrant although it lies right next to
// an allowed point reached through a wide one - a cone with up = pi allows the antipode itself.
// Within 1e-3 rad of the antipode the boundary points on the four axis directions are
// therefore also candidates, and the nearest on the sphere wins (ties keep the quadrant's).
ConeOutcome ProjectIntoCone(double x, double y, double z, const ConeLimits& cone) {
  ConeOutcome out = ProjectIntoQuadrant(x, y, z, cone);
  if (out.inside || z >= 0.0 || std::hypot(x, y) >= 1e-3) return out;
  const glm::dvec3 d(x, y, z);
  double best = glm::dot(d, out.local);
  const double limits[4] = {ClampAngle(cone.up), ClampAngle(cone.right), ClampAngle(cone.down),
                            ClampAngle(cone.left)};
  const glm::dvec2 dirs[4] = {{0.0, 1.0}, {1.0, 0.0}, {0.0, -1.0}, {-1.0, 0.0}};
  for (int k = 0; k < 4; ++k) {
    const double s = std::sin(limits[k]);
    const glm::dvec3 c(s * dirs[k].x, s * dirs[k].y, std::cos(limits[k]));
    const double dot = glm::dot(d, c);
    if (dot > best + 1e-12) {
      best = dot;
      out.local = c;
    }
  }
  return out;
}

// Wraps an angle into (-pi, pi].
double WrapAngle(double a) {
  a = std::remainder(a, 2.0 * std::numbers::pi);
  return a <= -std::numbers::pi ? a + 2.0 * std::numbers::pi : a;
}

// The hinge's world axis, reference (perpendicular) and binormal cross(axis, reference).
struct HingeBasis {
  glm::vec3 axis;
  glm::vec3 reference;
  glm::vec3 binormal;
};

HingeBasis MakeHingeBasis(const Frame& parent, const HingeLimits& hinge) {
  const bool local = hinge.space == HingeSpace::kParent;
  const glm::vec3 axis_in = local ? ToWorld(parent, hinge.axis) : hinge.axis;
  const glm::vec3 ref_in = local ? ToWorld(parent, hinge.reference) : hinge.reference;
  HingeBasis b;
  b.axis = Unit(axis_in, parent.right);
  b.reference = PerpendicularUnit(ref_in, b.axis);
  b.binormal = glm::cross(b.axis, b.reference);
  return b;
}

struct HingeAngle {
  bool degenerate = false;  // the direction is (nearly) along the axis
  double angle = 0.0;       // signed angle in the hinge plane from the reference
};

HingeAngle MeasureHinge(const HingeBasis& b, const glm::vec3& d) {
  const double u = glm::dot(d, b.reference);
  const double w = glm::dot(d, b.binormal);
  if (std::hypot(u, w) < 1e-6) return {true, 0.0};
  return {false, std::atan2(w, u)};
}

// The allowed angle nearest `angle`, measuring distance around the circle.
double ClampHingeAngle(double angle, double lo, double hi) {
  if (angle >= lo && angle <= hi) return angle;
  const double to_lo = std::fabs(WrapAngle(lo - angle));
  const double to_hi = std::fabs(WrapAngle(angle - hi));
  return to_lo <= to_hi ? lo : hi;
}

}  // namespace

bool IsWorldFixed(const JointConstraint& c) {
  return c.type == ConstraintType::kHinge && c.hinge.space == HingeSpace::kWorld;
}

Frame MakeFrame(const BaseFrame& base) {
  Frame f;
  f.forward = Unit(base.forward, glm::vec3(0.0f, 1.0f, 0.0f));
  f.up = PerpendicularUnit(base.up, f.forward);
  f.right = glm::normalize(glm::cross(f.up, f.forward));
  return f;
}

Frame TransportFrame(const Frame& parent, const glm::vec3& direction) {
  const glm::vec3 d = Unit(direction, parent.forward);
  // The smallest rotation taking a to d, as two reflections: through the plane normal to a,
  // then through the plane normal to the half vector h = (a + d) / |a + d|. Unlike Rodrigues'
  // formula, which divides by 1 + a.d (all cancellation near a half turn), this loses only
  // rounding / |a + d|, so frames stay reproducible for bends up to within 1e-4 of a half turn.
  const glm::dvec3 a(parent.forward);
  const glm::dvec3 dd(d);
  const glm::dvec3 u(parent.up);
  const glm::dvec3 sum = a + dd;
  const double sum_len = glm::length(sum);
  glm::dvec3 up;
  if (sum_len > 1e-4) {
    const glm::dvec3 h = sum / sum_len;
    const glm::dvec3 once = u - 2.0 * glm::dot(u, a) * a;
    up = once - 2.0 * glm::dot(once, h) * h;
  } else {
    up = -u;  // (nearly) a half turn: no unique smallest rotation; turn about parent.right
  }
  Frame f;
  f.forward = d;
  // Remove rounding drift so the frame stays orthonormal along long chains.
  f.up = PerpendicularUnit(glm::vec3(up), d);
  f.right = Unit(glm::cross(f.up, d), AnyPerpendicular(d));
  return f;
}

namespace {

// The projections on an already normalised direction `d`; an allowed direction comes back
// bit for bit, so ViolationAngle is exactly 0 for it.
glm::vec3 ConeUnit(const glm::vec3& d, const Frame& frame, const ConeLimits& cone) {
  const ConeOutcome o = ProjectIntoCone(glm::dot(d, frame.right), glm::dot(d, frame.up),
                                        glm::dot(d, frame.forward), cone);
  if (o.inside) return d;
  const glm::vec3 local(static_cast<float>(o.local.x), static_cast<float>(o.local.y),
                        static_cast<float>(o.local.z));
  return Unit(ToWorld(frame, local), frame.forward);
}

glm::vec3 HingeUnit(const glm::vec3& d, const Frame& parent, const HingeLimits& hinge) {
  const HingeBasis b = MakeHingeBasis(parent, hinge);
  const HingeAngle m = MeasureHinge(b, d);
  const double lo =
      std::clamp(static_cast<double>(hinge.min_angle), -std::numbers::pi, std::numbers::pi);
  const double hi = std::clamp(static_cast<double>(hinge.max_angle), lo, std::numbers::pi);
  // A direction along the axis says nothing about the angle: take the zero angle (clamped).
  const double angle = ClampHingeAngle(m.degenerate ? 0.0 : m.angle, lo, hi);
  const glm::vec3 out = b.reference * static_cast<float>(std::cos(angle)) +
                        b.binormal * static_cast<float>(std::sin(angle));
  return Unit(out, b.reference);
}

glm::vec3 ConstrainUnit(const JointConstraint& c, const Frame& parent, const glm::vec3& d) {
  switch (c.type) {
    case ConstraintType::kBall:
      return ConeUnit(d, parent, c.cone);
    case ConstraintType::kHinge:
      return HingeUnit(d, parent, c.hinge);
    case ConstraintType::kNone:
      break;
  }
  return d;
}

}  // namespace

glm::vec3 ConstrainToCone(const glm::vec3& direction, const Frame& frame, const ConeLimits& cone) {
  return ConeUnit(Unit(direction, frame.forward), frame, cone);
}

glm::vec3 ConstrainToHinge(const glm::vec3& direction, const Frame& parent,
                           const HingeLimits& hinge) {
  return HingeUnit(Unit(direction, parent.forward), parent, hinge);
}

glm::vec3 ConstrainDirection(const JointConstraint& constraint, const Frame& parent,
                             const glm::vec3& direction) {
  return ConstrainUnit(constraint, parent, Unit(direction, parent.forward));
}

float ViolationAngle(const JointConstraint& constraint, const Frame& parent,
                     const glm::vec3& direction) {
  if (!IsConstrained(constraint)) return 0.0f;
  const glm::vec3 d = Unit(direction, parent.forward);
  const glm::vec3 r = ConstrainUnit(constraint, parent, d);
  return r == d ? 0.0f : AngleBetween(d, r);
}

bool IsAtLimit(const JointConstraint& constraint, const Frame& parent, const glm::vec3& direction,
               float epsilon) {
  const glm::vec3 d = Unit(direction, parent.forward);
  const double eps = std::max(0.0f, std::isfinite(epsilon) ? epsilon : 0.0f);
  switch (constraint.type) {
    case ConstraintType::kNone:
      return false;
    case ConstraintType::kBall: {
      const double x = glm::dot(d, parent.right);
      const double y = glm::dot(d, parent.up);
      const double z = glm::dot(d, parent.forward);
      const ConeLimits& c = constraint.cone;
      if (!ProjectIntoCone(x, y, z, c).inside) return true;
      // Inside: at the limit when outside the cone shrunk by eps. A limit of pi is no limit
      // and is not shrunk; a limit below eps leaves nothing, so anything near it is at it.
      auto shrink = [eps](float a) {
        const double v = ClampAngle(a);
        return v >= std::numbers::pi ? v : v - eps;
      };
      const double up = shrink(c.up), down = shrink(c.down);
      const double left = shrink(c.left), right = shrink(c.right);
      if (std::hypot(x, y) < 1e-12) {
        if (z < 0.0) return false;  // the antipode is allowed only where there is no limit
        return std::min({up, down, left, right}) < 0.0;
      }
      if ((x >= 0.0 ? right : left) < 0.0 || (y >= 0.0 ? up : down) < 0.0) return true;
      const ConeLimits shrunk{static_cast<float>(up), static_cast<float>(down),
                              static_cast<float>(left), static_cast<float>(right)};
      if (!ProjectIntoCone(x, y, z, shrunk).inside) return true;
      // Near a quadrant border the shrunk test sees only one quadrant (a direction on the edge
      // of a zero-width fan, say); nudging eps sideways in the four axis directions covers it.
      const double nudges[4][2] = {{eps, 0.0}, {-eps, 0.0}, {0.0, eps}, {0.0, -eps}};
      for (const auto& n : nudges) {
        const glm::dvec3 v = glm::normalize(glm::dvec3(x + n[0], y + n[1], z));
        if (!ProjectIntoCone(v.x, v.y, v.z, c).inside) return true;
      }
      return false;
    }
    case ConstraintType::kHinge: {
      const HingeLimits& h = constraint.hinge;
      const HingeBasis b = MakeHingeBasis(parent, h);
      const HingeAngle m = MeasureHinge(b, d);
      if (m.degenerate) return true;
      if (AngleBetween(d, HingeUnit(d, parent, h)) > eps) return true;  // off the plane
      const double lo =
          std::clamp(static_cast<double>(h.min_angle), -std::numbers::pi, std::numbers::pi);
      const double hi = std::clamp(static_cast<double>(h.max_angle), lo, std::numbers::pi);
      if (hi - lo >= 2.0 * std::numbers::pi - eps) return false;  // a full circle has no limit
      return m.angle <= lo + eps || m.angle >= hi - eps;
    }
  }
  return false;
}

JointConstraint MirroredConstraint(const JointConstraint& constraint) {
  JointConstraint m = constraint;
  if (constraint.type == ConstraintType::kBall) {
    std::swap(m.cone.up, m.cone.down);
    std::swap(m.cone.left, m.cone.right);
  } else if (constraint.type == ConstraintType::kHinge &&
             constraint.hinge.space == HingeSpace::kParent) {
    // Half a turn about the local forward axis: (x, y, z) -> (-x, -y, z). A proper rotation,
    // so the sense of the hinge angles is kept.
    m.hinge.axis = {-constraint.hinge.axis.x, -constraint.hinge.axis.y, constraint.hinge.axis.z};
    m.hinge.reference = {-constraint.hinge.reference.x, -constraint.hinge.reference.y,
                         constraint.hinge.reference.z};
  }
  return m;
}

const JointConstraint& ConstraintAt(const ChainConstraints& cs, std::size_t i) {
  static const JointConstraint kFree{};
  return i < cs.joints.size() ? cs.joints[i] : kFree;
}

float MaxConstraintViolation(std::span<const glm::vec3> joints, const ChainConstraints& constraints,
                             int* worst_joint) {
  float worst = 0.0f;
  int worst_index = -1;
  Frame f = MakeFrame(constraints.base);
  for (std::size_t i = 0; i + 1 < joints.size(); ++i) {
    const glm::vec3 d = Unit(joints[i + 1] - joints[i], f.forward);
    const float v = ViolationAngle(ConstraintAt(constraints, i), f, d);
    if (v > worst) {
      worst = v;
      worst_index = static_cast<int>(i);
    }
    f = TransportFrame(f, d);
  }
  if (worst_joint) *worst_joint = worst_index;
  return worst;
}

int JointsAtLimit(std::span<const glm::vec3> joints, const ChainConstraints& constraints,
                  std::span<std::uint8_t> at_limit, float epsilon) {
  int count = 0;
  Frame f = MakeFrame(constraints.base);
  for (std::size_t i = 0; i < joints.size(); ++i) {
    bool limited = false;
    if (i + 1 < joints.size()) {
      const glm::vec3 d = Unit(joints[i + 1] - joints[i], f.forward);
      const JointConstraint& c = ConstraintAt(constraints, i);
      limited = IsConstrained(c) && IsAtLimit(c, f, d, epsilon);
      f = TransportFrame(f, d);
    }
    if (i < at_limit.size()) at_limit[i] = limited ? 1 : 0;
    count += limited ? 1 : 0;
  }
  return count;
}

}  // namespace fabrik

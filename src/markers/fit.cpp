// fit.cpp - rigid and sphere fits (fit.h).
#include "markers/fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <vector>

#include "ik/best_rotation.h"

namespace fabrik::markers {

bool SolveLinear(std::vector<double>& m, std::vector<double>& b, int n) {
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int r = col + 1; r < n; ++r)
      if (std::fabs(m[r * n + col]) > std::fabs(m[pivot * n + col])) pivot = r;
    if (std::fabs(m[pivot * n + col]) < 1e-300) return false;
    if (pivot != col) {
      for (int k = 0; k < n; ++k) std::swap(m[col * n + k], m[pivot * n + k]);
      std::swap(b[col], b[pivot]);
    }
    for (int r = col + 1; r < n; ++r) {
      const double f = m[r * n + col] / m[col * n + col];
      for (int k = col; k < n; ++k) m[r * n + k] -= f * m[col * n + k];
      b[r] -= f * b[col];
    }
  }
  for (int r = n - 1; r >= 0; --r) {
    double sum = b[r];
    for (int k = r + 1; k < n; ++k) sum -= m[r * n + k] * b[k];
    b[r] = sum / m[r * n + r];
  }
  return true;
}

glm::quat SmallestRotation(const glm::vec3& a, const glm::vec3& b) {
  const double la = glm::length(glm::dvec3(a)), lb = glm::length(glm::dvec3(b));
  if (!(la > 1e-9 && lb > 1e-9)) return glm::quat(1, 0, 0, 0);
  const glm::dvec3 u = glm::dvec3(a) / la, v = glm::dvec3(b) / lb;
  const double w = 1.0 + glm::dot(u, v);
  glm::dvec3 axis = glm::cross(u, v);
  if (w < 1e-12) {  // opposite: half a turn about any perpendicular
    axis = glm::cross(u, std::fabs(u.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0));
    return glm::quat(glm::normalize(glm::dquat(0.0, glm::normalize(axis))));
  }
  return glm::quat(glm::normalize(glm::dquat(w, axis.x, axis.y, axis.z)));
}

RigidFitResult RigidFit(std::span<const FitPoint> points) {
  glm::dvec3 lc(0.0), wc(0.0);
  double total = 0.0;
  for (const FitPoint& p : points) {
    if (!(p.weight > 0.0f)) continue;
    lc += double(p.weight) * glm::dvec3(p.local);
    wc += double(p.weight) * glm::dvec3(p.world);
    total += p.weight;
  }
  RigidFitResult result;
  if (total <= 0.0) return result;
  lc /= total, wc /= total;
  glm::dmat3 s(0.0);  // s[i][j] = sum w (local - lc)[i] (world - wc)[j]
  double spread = 0.0;
  for (const FitPoint& p : points) {
    if (!(p.weight > 0.0f)) continue;
    const glm::dvec3 l = glm::dvec3(p.local) - lc, w = glm::dvec3(p.world) - wc;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) s[i][j] += p.weight * l[i] * w[j];
    spread += p.weight * glm::dot(l, l);
  }
  // Three points not on a line: the local spread matrix has rank 2 at least.
  glm::dmat3 cov(0.0);
  for (const FitPoint& p : points) {
    if (!(p.weight > 0.0f)) continue;
    const glm::dvec3 l = glm::dvec3(p.local) - lc;
    cov += double(p.weight) * glm::outerProduct(l, l);
  }
  const double tr = cov[0][0] + cov[1][1] + cov[2][2];
  const double second = cov[0][0] * cov[1][1] + cov[1][1] * cov[2][2] + cov[0][0] * cov[2][2] -
                        cov[0][1] * cov[1][0] - cov[1][2] * cov[2][1] - cov[0][2] * cov[2][0];
  if (spread <= 0.0 || second <= 1e-6 * tr * tr) return result;
  result.pose.rotation = BestRotation(s);
  result.pose.translation = glm::vec3(wc) - result.pose.rotation * glm::vec3(lc);
  result.ok = true;
  return result;
}

namespace {

// One ridge-regularised algebraic fit over the samples with keep[i] set.
bool SphereFitOnce(std::span<const SphereSample> samples, const std::vector<char>& keep,
                   const glm::dvec3& prior, double ridge, glm::dvec3& centre,
                   std::array<double, kMaxSphereTracks>& k) {
  const int n = 3 + kMaxSphereTracks;
  std::vector<double> m(n * n, 0.0), b(n, 0.0);
  std::size_t used = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!keep[i]) continue;
    const glm::dvec3 x(samples[i].position);
    double row[3 + kMaxSphereTracks] = {2 * x.x, 2 * x.y, 2 * x.z};
    row[3 + samples[i].track] = 1.0;
    const double rhs = glm::dot(x, x);
    for (int r = 0; r < n; ++r) {
      if (row[r] == 0.0) continue;
      for (int c = 0; c < n; ++c) m[r * n + c] += row[r] * row[c];
      b[r] += row[r] * rhs;
    }
    ++used;
  }
  const double lambda = ridge * 4.0 * static_cast<double>(used);
  for (int r = 0; r < 3; ++r) m[r * n + r] += lambda, b[r] += lambda * prior[r];
  for (int r = 3; r < n; ++r) {
    if (m[r * n + r] == 0.0) m[r * n + r] = 1.0;  // an unused track
  }
  if (!SolveLinear(m, b, n)) return false;
  centre = glm::dvec3(b[0], b[1], b[2]);
  for (int t = 0; t < kMaxSphereTracks; ++t) k[t] = b[3 + t];
  return true;
}

}  // namespace

glm::vec3 SphereFit(std::span<const SphereSample> samples, const glm::vec3& prior, float ridge) {
  if (samples.size() < 4) return prior;
  std::vector<char> keep(samples.size(), 1);
  glm::dvec3 centre(prior);
  std::array<double, kMaxSphereTracks> k{};
  if (!SphereFitOnce(samples, keep, glm::dvec3(prior), ridge, centre, k)) return prior;
  // Distances to the sphere of each track; drop the far ones and fit again (three times).
  std::vector<double> deviation(samples.size()), sorted;
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const double r2 = k[samples[i].track] + glm::dot(centre, centre);
      const double r = std::sqrt(std::max(r2, 0.0));
      deviation[i] = std::fabs(glm::length(glm::dvec3(samples[i].position) - centre) - r);
    }
    sorted = deviation;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double limit = std::max(3.0 * sorted[sorted.size() / 2], 0.005);
    for (std::size_t i = 0; i < samples.size(); ++i) keep[i] = deviation[i] <= limit;
    glm::dvec3 next = centre;
    if (!SphereFitOnce(samples, keep, glm::dvec3(prior), ridge, next, k)) break;
    centre = next;
  }
  return glm::vec3(centre);
}

}  // namespace fabrik::markers

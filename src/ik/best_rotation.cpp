// best_rotation.cpp - Horn's closed-form best rotation (best_rotation.h).
#include "best_rotation.h"

#include <array>
#include <cmath>

namespace fabrik {

namespace {

using Mat4 = std::array<std::array<double, 4>, 4>;

// Eigenvector of the largest eigenvalue of a symmetric 4x4 matrix (cyclic Jacobi).
std::array<double, 4> LargestEigenvector(Mat4 a) {
  Mat4 v{};
  for (int i = 0; i < 4; ++i) v[i][i] = 1.0;
  for (int sweep = 0; sweep < 30; ++sweep) {
    double off = 0.0, diag = 0.0;
    for (int p = 0; p < 4; ++p) {
      diag += a[p][p] * a[p][p];
      for (int q = p + 1; q < 4; ++q) off += a[p][q] * a[p][q];
    }
    if (!(off > 1e-30 * diag) || !(off > 1e-300)) break;
    for (int p = 0; p < 4; ++p) {
      for (int q = p + 1; q < 4; ++q) {
        if (std::fabs(a[p][q]) < 1e-300) continue;
        const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
        const double t =
            (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 4; ++k) {
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 4; ++k) {
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 4; ++k) {
          const double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  int best = 0;
  for (int i = 1; i < 4; ++i)
    if (a[i][i] > a[best][best]) best = i;
  return {v[0][best], v[1][best], v[2][best], v[3][best]};
}

}  // namespace

glm::quat BestRotation(const glm::dmat3& m) {
  const double sxx = m[0][0], sxy = m[0][1], sxz = m[0][2], syx = m[1][0], syy = m[1][1],
               syz = m[1][2], szx = m[2][0], szy = m[2][1], szz = m[2][2];
  double size = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) size += m[i][j] * m[i][j];
  if (!(size > 0.0) || !std::isfinite(size)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  const Mat4 n = {{
      {sxx + syy + szz, syz - szy, szx - sxz, sxy - syx},
      {syz - szy, sxx - syy - szz, sxy + syx, szx + sxz},
      {szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy},
      {sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz},
  }};
  const std::array<double, 4> q = LargestEigenvector(n);
  glm::dquat r(q[0], q[1], q[2], q[3]);
  const double len = glm::length(r);
  if (!(len > 0.0) || !std::isfinite(len)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  r /= len;
  if (r.w < 0.0) r = -r;
  return glm::quat(static_cast<float>(r.w), static_cast<float>(r.x), static_cast<float>(r.y),
                   static_cast<float>(r.z));
}

void AddRotationPair(glm::dmat3& s, const glm::vec3& l, const glm::vec3& v, double w) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s[i][j] += w * double(l[i]) * double(v[j]);
}

void AddRotationPrior(glm::dmat3& s, const glm::quat& prior, double w) {
  for (int k = 0; k < 3; ++k) {
    glm::vec3 e(0.0f);
    e[k] = 1.0f;
    AddRotationPair(s, e, prior * e, w);
  }
}

}  // namespace fabrik

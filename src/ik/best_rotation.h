// best_rotation.h - the rotation that best turns one set of directions onto another.
//
// BestRotation(s) returns the unit quaternion R maximising sum_k w_k (R l_k) . v_k, that is
// minimising sum_k w_k |R l_k - v_k|^2 for pairs whose lengths R cannot change, given their
// correlation s = sum_k w_k l_k v_k^T (s[i][j] = sum_k w_k l_k[i] v_k[j]). It is Horn's
// closed form ("Closed-form solution of absolute orientation using unit quaternions", JOSA A
// 4(4), 1987): the eigenvector of the largest eigenvalue of a symmetric 4x4 matrix built from
// s, found by cyclic Jacobi rotations in double.
//
// The pairs must fix the rotation: directions l_k spanning at least a plane. Pairs on one line
// leave the turn about that line free; add a prior (AddRotationPrior) to fix it. When s is
// zero or not finite the result is the identity. Always a finite unit quaternion (w >= 0).
// No heap allocation.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

namespace fabrik {

// s[i][j] as above (glm::dmat3 is column-major: s[i][j] is column i, row j).
glm::quat BestRotation(const glm::dmat3& s);

// Adds to s the pair (l, v) with weight w: s[i][j] += w l[i] v[j].
void AddRotationPair(glm::dmat3& s, const glm::vec3& l, const glm::vec3& v, double w = 1.0);

// Adds a pull towards `prior` of weight w: the three pairs (e_i, prior e_i) each of weight w,
// so that directions the other pairs leave free keep the prior's turn.
void AddRotationPrior(glm::dmat3& s, const glm::quat& prior, double w);

}  // namespace fabrik

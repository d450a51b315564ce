// walker_test_util.h - terrains made in the tests and an independent height reference.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <glm/vec3.hpp>
#include <memory>
#include <vector>

#include "terrain/heightmap.h"

namespace fabrik::testing {

// A bumpy ground: W x W samples of overlapping waves in [0, 1], covering `size` units with
// bumps up to `height` high (about 2.5 bumps across a 20-unit walk).
struct BumpyGround {
  int side = 64;
  float size = 40.0f;
  float height = 3.0f;
  std::vector<float> samples;
  std::shared_ptr<const Heightmap> map;
};

inline BumpyGround MakeBumpyGround(int side = 64, float size = 40.0f, float height = 3.0f) {
  BumpyGround g{side, size, height, {}, nullptr};
  g.samples.resize(std::size_t(side) * std::size_t(side));
  for (int j = 0; j < side; ++j) {
    for (int i = 0; i < side; ++i) {
      const double u = double(i) / side, v = double(j) / side;
      const double h = 0.5 + 0.25 * std::sin(17.0 * u + 1.0) * std::cos(13.0 * v) +
                       0.2 * std::sin(29.0 * v + 5.0 * u) + 0.05 * std::cos(61.0 * u);
      g.samples[std::size_t(j * side + i)] = float(std::clamp(h, 0.0, 1.0));
    }
  }
  Result<Heightmap> map = Heightmap::FromSamples(side, side, g.samples, size, height);
  EXPECT_TRUE(map.ok()) << map.error();
  g.map = std::make_shared<const Heightmap>(std::move(map.value()));
  return g;
}

// The mapping written out again, in double, independently of Heightmap: pixel (i, j)
// centred at x = -S/2 + (i + 0.5) S / W, z = -S/2 + (j + 0.5) S / W; bilinear between
// centres, clamped outside.
inline double ReferenceHeight(const BumpyGround& g, double x, double z) {
  const int w = g.side;
  auto coord = [&](double world) {
    const double u = (world + g.size / 2.0) * w / g.size - 0.5;
    return std::clamp(u, 0.0, double(w - 1));
  };
  const double u = coord(x), v = coord(z);
  const int i0 = int(std::floor(u)), j0 = int(std::floor(v));
  const int i1 = std::min(i0 + 1, w - 1), j1 = std::min(j0 + 1, w - 1);
  const double tu = u - i0, tv = v - j0;
  auto s = [&](int i, int j) { return double(g.samples[std::size_t(j * w + i)]) * g.height; };
  return (1 - tu) * (1 - tv) * s(i0, j0) + tu * (1 - tv) * s(i1, j0) + (1 - tu) * tv * s(i0, j1) +
         tu * tv * s(i1, j1);
}

}  // namespace fabrik::testing

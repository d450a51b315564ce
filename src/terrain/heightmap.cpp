#include "terrain/heightmap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <string>

namespace fabrik {
namespace {

std::string Number(float v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", double(v));
  return buffer;
}

}  // namespace

Status ValidateTerrainScale(float size, float height_scale) {
  if (!std::isfinite(size) || size < Heightmap::kMinSize || size > Heightmap::kMaxSize) {
    return MakeError("terrain size must be a number in [" + Number(Heightmap::kMinSize) + ", " +
                     Number(Heightmap::kMaxSize) + "], got " + Number(size));
  }
  if (!std::isfinite(height_scale) || height_scale < 0.0f || height_scale > Heightmap::kMaxHeight) {
    return MakeError("terrain height must be a number in [0, " + Number(Heightmap::kMaxHeight) +
                     "], got " + Number(height_scale));
  }
  return Ok{};
}

Result<Heightmap> Heightmap::FromSamples(int width, int height, std::vector<float> samples,
                                         float size, float height_scale) {
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide) {
    return MakeError("heightmap of " + std::to_string(width) + " x " + std::to_string(height) +
                     " pixels: each side must be 1 to " + std::to_string(kMaxSide));
  }
  if (samples.size() != std::size_t(width) * std::size_t(height)) {
    return MakeError("heightmap of " + std::to_string(width) + " x " + std::to_string(height) +
                     " pixels needs as many samples, got " + std::to_string(samples.size()));
  }
  for (std::size_t k = 0; k < samples.size(); ++k) {
    if (!(samples[k] >= 0.0f && samples[k] <= 1.0f)) {
      return MakeError("heightmap sample " + std::to_string(k) + " is " + Number(samples[k]) +
                       ", outside [0, 1]");
    }
  }
  Status scale = ValidateTerrainScale(size, height_scale);
  if (!scale) return MakeError(scale.error());
  Heightmap map;
  map.width_ = width;
  map.height_ = height;
  map.size_ = size;
  map.height_scale_ = height_scale;
  map.samples_ = std::move(samples);
  return map;
}

Result<Heightmap> Heightmap::Flat(float size) { return FromSamples(1, 1, {0.0f}, size, 0.0f); }

Result<Heightmap> Heightmap::Rescaled(float size, float height_scale) const {
  Status scale = ValidateTerrainScale(size, height_scale);
  if (!scale) return MakeError(scale.error());
  Heightmap map = *this;
  map.size_ = size;
  map.height_scale_ = height_scale;
  return map;
}

float Heightmap::PixelHeight(int i, int j) const {
  i = std::clamp(i, 0, width_ - 1);
  j = std::clamp(j, 0, height_ - 1);
  return samples_[std::size_t(j) * std::size_t(width_) + std::size_t(i)] * height_scale_;
}

glm::vec2 Heightmap::PixelCentre(int i, int j) const {
  // Computed in double so that a centre fed back into HeightAt lands on its pixel exactly.
  const double s = size_;
  return {float(-0.5 * s + (i + 0.5) * s / width_), float(-0.5 * s + (j + 0.5) * s / height_)};
}

float Heightmap::PixelCoord(float world, int pixels) const {
  // Inverse of PixelCentre: u = (x + S/2) W / S - 1/2. fmax/fmin send NaN to the low edge.
  const double u = (double(world) + 0.5 * size_) * pixels / size_ - 0.5;
  return float(std::fmin(std::fmax(u, 0.0), double(pixels - 1)));
}

float Heightmap::HeightAt(float x, float z) const {
  const float u = PixelCoord(x, width_);
  const float v = PixelCoord(z, height_);
  const int i0 = std::min(int(u), width_ - 1);
  const int j0 = std::min(int(v), height_ - 1);
  const float tu = u - float(i0);
  const float tv = v - float(j0);
  const float h00 = PixelHeight(i0, j0);
  const float h10 = PixelHeight(i0 + 1, j0);
  const float h01 = PixelHeight(i0, j0 + 1);
  const float h11 = PixelHeight(i0 + 1, j0 + 1);
  const float top = h00 + (h10 - h00) * tu;
  const float bottom = h01 + (h11 - h01) * tu;
  return top + (bottom - top) * tv;
}

glm::vec3 Heightmap::PointAt(float x, float z) const { return {x, HeightAt(x, z), z}; }

glm::vec3 Heightmap::NormalAt(float x, float z) const {
  // The surface y = h(x, z) has the (unnormalised) normal (-dh/dx, 1, -dh/dz).
  const float dx = size_ / float(width_);
  const float dz = size_ / float(height_);
  const float dhdx = (HeightAt(x + dx, z) - HeightAt(x - dx, z)) / (2.0f * dx);
  const float dhdz = (HeightAt(x, z + dz) - HeightAt(x, z - dz)) / (2.0f * dz);
  return glm::normalize(glm::vec3(-dhdx, 1.0f, -dhdz));
}

bool Heightmap::Contains(float x, float z) const {
  const float half = 0.5f * size_;
  return x >= -half && x <= half && z >= -half && z <= half;
}

glm::vec2 Heightmap::ClampInside(glm::vec2 xz, float margin) const {
  const float half = std::max(0.0f, 0.5f * size_ - (std::isfinite(margin) ? margin : 0.0f));
  const auto clamp = [half](float c) { return std::isnan(c) ? 0.0f : std::clamp(c, -half, half); };
  return {clamp(xz.x), clamp(xz.y)};
}

}  // namespace fabrik

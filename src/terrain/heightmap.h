// heightmap.h - ground height from a grayscale image, the terrain the walker stands on.
//
// Mapping (docs/walker.md: Terrain). An image of width W and height H pixels covers the square
// [-S/2, S/2] x [-S/2, S/2] of the world's X-Z plane (S = size(), world units), centred on the
// origin, +Y up. Pixel (i, j) - column i, row j, row 0 the TOP row of the image - has its
// centre at
//   x = -S/2 + (i + 0.5) S / W,   z = -S/2 + (j + 0.5) S / H,
// so the top row of the image lies towards -Z. Its height is gray / max_gray x height_scale()
// (max_gray = 255 for 8-bit images, 65535 for 16-bit), world units, in [0, height_scale()].
// Between pixel centres the height is bilinear in the four surrounding centres; outside the
// outermost centres (the half-pixel border and anything beyond the square) coordinates are
// clamped to them, so the edge height continues flat forever.
//
// Everything here is pure math on a value type: no GL, no I/O (loading: heightmap_png.h).
// Queries never fail and never return NaN: non-finite coordinates clamp like far-away ones
// (NaN to the low edge, i.e. -S/2).
#pragma once

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "ik/result.h"

namespace fabrik {

class Heightmap {
 public:
  // Largest accepted image side, pixels (larger files are refused as absurd).
  static constexpr int kMaxSide = 8192;
  // Largest side kept after loading: a larger image is averaged down in blocks of k x k
  // pixels (k the smallest whole number that brings both sides to this or less). The ground
  // is drawn with 257 vertices a side, so nothing visible is lost.
  static constexpr int kMaxStoredSide = 1024;
  // Accepted ranges of the world size S and the height scale H (world units).
  static constexpr float kMinSize = 1e-3f;
  static constexpr float kMaxSize = 1e5f;
  static constexpr float kMaxHeight = 1e4f;

  // A heightmap from row-major samples gray / max_gray in [0, 1] (row 0 = top of the image),
  // `width` x `height` of them. Fails, naming the problem, on a side outside [1, kMaxSide], a
  // sample count that does not match, a sample outside [0, 1] or not finite, or a bad
  // size / height_scale (see ValidateTerrainScale).
  static Result<Heightmap> FromSamples(int width, int height, std::vector<float> samples,
                                       float size, float height_scale);

  // A flat ground at height 0 covering [-size/2, size/2]^2 (one pixel). Fails only on a bad
  // size.
  static Result<Heightmap> Flat(float size);

  // The same image with another size and height scale (the console's `terrain load PATH S H`
  // reuses this). Fails on a bad size / height_scale; *this is not changed.
  Result<Heightmap> Rescaled(float size, float height_scale) const;

  int width() const { return width_; }
  int height() const { return height_; }
  // S: the side of the square the image covers, world units.
  float size() const { return size_; }
  // H: the height of a white pixel, world units.
  float height_scale() const { return height_scale_; }
  // The normalised samples gray / max_gray, row-major, row 0 = top.
  std::span<const float> samples() const { return samples_; }

  // Height of pixel (i, j) in world units; i and j are clamped into the image.
  float PixelHeight(int i, int j) const;
  // World (x, z) of the centre of pixel (i, j) (not clamped).
  glm::vec2 PixelCentre(int i, int j) const;

  // Ground height at world (x, z), bilinear between pixel centres, clamped outside.
  float HeightAt(float x, float z) const;
  // The point on the ground above or below (x, z): (x, HeightAt(x, z), z).
  glm::vec3 PointAt(float x, float z) const;
  // Unit upward surface normal at (x, z), from central differences of HeightAt one pixel
  // apart in X and in Z (smooth enough for lighting and for tilting a body; y > 0 always).
  glm::vec3 NormalAt(float x, float z) const;

  // True when (x, z) lies inside the square [-S/2, S/2]^2 (edges included).
  bool Contains(float x, float z) const;
  // (x, z) moved into the square shrunk by `margin` on every side (towards the centre;
  // the centre itself when the margin leaves nothing). NaN coordinates become 0.
  glm::vec2 ClampInside(glm::vec2 xz, float margin) const;

 private:
  Heightmap() = default;
  // Continuous pixel coordinate of world x (or z) along an axis of `pixels` pixels, clamped
  // to [0, pixels - 1].
  float PixelCoord(float world, int pixels) const;

  int width_ = 1;
  int height_ = 1;
  float size_ = 1.0f;
  float height_scale_ = 0.0f;
  std::vector<float> samples_;
};

// Ok when size is finite and in [kMinSize, kMaxSize] and height_scale is finite and in
// [0, kMaxHeight]; otherwise an error naming the bad value ("terrain size must be ..., got -2").
Status ValidateTerrainScale(float size, float height_scale);

}  // namespace fabrik

// clip_load.cpp - BVH through Assimp into a Clip (clip.h).
#include <assimp/MemoryIOWrapper.h>
#include <assimp/anim.h>
#include <assimp/config.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>
#include <iterator>
#include <span>
#include <system_error>

#include "lang/text.h"
#include "mocap/clip.h"
#include "mocap/clip_guard.h"

namespace fabrik::mocap {

struct ClipBuilder {
  static Result<Clip> Build(const aiScene& scene, const BvhClaims& claims,
                            const std::string& source, const ClipLoadOptions& options);

 private:
  // The joints in pre-order from the node tree, each with its motion channel (null for an
  // End Site), and the subtree ranges.
  static Status ReadSkeleton(const aiScene& scene, Clip& clip,
                             std::vector<const aiNodeAnim*>& channel_of);
  // The up axis and the scale (given, or chosen from the rest pose's height); offsets and
  // rest positions in metres.
  static Status ScaleRestPose(const ClipLoadOptions& options, Clip& clip);
  // Every frame's rotations and root tracks, turned and scaled as the rest pose.
  static Status ReadChannels(std::span<const aiNodeAnim* const> channel_of, Clip& clip);
};

namespace {

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Finite and within kMaxMetres on every axis.
bool InRange(const glm::vec3& v) {
  return Finite(v) && std::fabs(v.x) <= kMaxMetres && std::fabs(v.y) <= kMaxMetres &&
         std::fabs(v.z) <= kMaxMetres;
}

// The scale rule of clip.h: the first common unit giving a plausible adult height, else the
// height normalised to kDefaultHeight. False when that normalised scale falls outside
// [kMinScale, kMaxScale] (a skeleton millions of units high, or a speck).
bool ChooseScale(float height_units, float& scale, ScaleSource& source) {
  struct Unit {
    float metres;
    ScaleSource source;
  };
  constexpr Unit kUnits[] = {{1.0f, ScaleSource::kUnitMetres},
                             {0.01f, ScaleSource::kUnitCentimetres},
                             {0.001f, ScaleSource::kUnitMillimetres},
                             {0.0254f, ScaleSource::kUnitInches}};
  for (const Unit& u : kUnits) {
    const float h = height_units * u.metres;
    if (h >= kMinPlausibleHeight && h <= kMaxPlausibleHeight) {
      scale = u.metres;
      source = u.source;
      return true;
    }
  }
  const float normalised = kDefaultHeight / height_units;
  if (!(normalised >= kMinScale && normalised <= kMaxScale)) return false;
  scale = normalised;
  source = ScaleSource::kHeightNormalised;
  return true;
}

// The extent (highest minus lowest) of `points` along each axis.
glm::vec3 Extent(const std::vector<glm::vec3>& points) {
  glm::vec3 low = points.front(), high = low;
  for (const glm::vec3& p : points) {
    low = glm::min(low, p);
    high = glm::max(high, p);
  }
  return high - low;
}

// The up-axis rule of clip.h: true when the rest pose is to be read as Z-up.
bool ReadAsZUp(const std::vector<glm::vec3>& rest, UpAxis up) {
  if (up != UpAxis::kDetect) return up == UpAxis::kZ;
  const glm::vec3 extent = Extent(rest);
  return extent.z > kZUpRatio * extent.y;
}

// -90 degrees about X: a Z-up file's +Z becomes +Y, its -Y becomes +Z.
glm::vec3 TurnUp(const glm::vec3& v) { return glm::vec3(v.x, v.z, -v.y); }
const glm::quat kTurnUp = glm::angleAxis(-glm::half_pi<float>(), glm::vec3(1.0f, 0.0f, 0.0f));

// Every joint's rest position: the offsets summed from the root, no rotation.
void SumOffsets(const std::vector<int>& parents, const std::vector<glm::vec3>& offsets,
                std::vector<glm::vec3>& rest) {
  rest.resize(offsets.size());
  for (std::size_t j = 0; j < offsets.size(); ++j) {
    const int p = parents[j];
    rest[j] = (p < 0 ? glm::vec3(0.0f) : rest[p]) + offsets[j];
  }
}

}  // namespace

Result<Clip> ClipBuilder::Build(const aiScene& scene, const BvhClaims& claims,
                                const std::string& source, const ClipLoadOptions& options) {
  if (scene.mRootNode == nullptr) return MakeError(source + ": no skeleton");
  if (scene.mNumAnimations < 1 || scene.mAnimations[0]->mNumChannels < 1) {
    return MakeError(source + ": no frames (no animation)");
  }
  const aiAnimation& anim = *scene.mAnimations[0];
  const int frames = static_cast<int>(anim.mChannels[0]->mNumRotationKeys);
  if (frames < 1) return MakeError(source + ": no frames");
  if (frames != claims.frames) {
    return MakeError(source + ": Assimp read " + std::to_string(frames) +
                     " frames where the file claims " + std::to_string(claims.frames));
  }

  Clip clip;
  clip.source_ = source;
  clip.frame_count_ = frames;
  clip.frame_time_ = claims.frame_time;
  std::vector<const aiNodeAnim*> channel_of;
  if (Status read = ReadSkeleton(scene, clip, channel_of); !read) {
    return MakeError(source + ": " + read.error());
  }
  const int joints = clip.joint_count();
  if (static_cast<std::size_t>(frames) * joints > kMaxSamples) {
    return MakeError(source + ": frames x joints exceed the limit of " +
                     std::to_string(kMaxSamples));
  }

  if (Status scaled = ScaleRestPose(options, clip); !scaled) return MakeError(scaled.error());
  // The file's channel names per joint: the guard read them in the same (file) order.
  clip.channel_layout_ = claims.channel_layout;
  clip.channel_layout_.resize(static_cast<std::size_t>(joints));
  if (Status read = ReadChannels(channel_of, clip); !read) return MakeError(read.error());
  return clip;
}

Status ClipBuilder::ReadSkeleton(const aiScene& scene, Clip& clip,
                                 std::vector<const aiNodeAnim*>& channel_of) {
  const aiAnimation& anim = *scene.mAnimations[0];
  // Depth-first walk (explicit stack): joints get indices in pre-order, parents first. Each
  // node with an animation channel is a joint with channels; Assimp creates the channels in
  // the same pre-order, skipping End Sites, which is how they are matched.
  struct Pending {
    const aiNode* node;
    int parent;
  };
  std::vector<Pending> stack{{scene.mRootNode, -1}};
  unsigned next_channel = 0;
  while (!stack.empty()) {
    const Pending p = stack.back();
    stack.pop_back();
    if (clip.names_.size() >= static_cast<std::size_t>(kMaxJoints)) {
      return MakeError(std::string() + "more than " + std::to_string(kMaxJoints) + " joints");
    }
    const aiMatrix4x4& m = p.node->mTransformation;
    const glm::vec3 offset(m.a4, m.b4, m.c4);
    if (!Finite(offset)) {
      return MakeError(std::string() + "joint " + p.node->mName.C_Str() +
                       " has a non-finite offset");
    }
    const aiNodeAnim* channel = nullptr;
    if (next_channel < anim.mNumChannels &&
        anim.mChannels[next_channel]->mNodeName == p.node->mName) {
      channel = anim.mChannels[next_channel++];
    } else if (p.node->mNumChildren > 0) {
      return MakeError(std::string() + "joint " + p.node->mName.C_Str() + " has no motion channel");
    }
    clip.names_.emplace_back(p.node->mName.C_Str());
    clip.parents_.push_back(p.parent);
    clip.offsets_.push_back(offset);
    channel_of.push_back(channel);
    const int self = static_cast<int>(clip.names_.size()) - 1;
    for (unsigned c = p.node->mNumChildren; c-- > 0;) {
      stack.push_back({p.node->mChildren[c], self});
    }
  }
  if (next_channel != anim.mNumChannels) {
    return MakeError(std::to_string(anim.mNumChannels - next_channel) +
                     " motion channels match no joint");
  }
  const int joints = clip.joint_count();
  // Subtree ranges: in pre-order a subtree ends where the next joint with a parent outside it
  // begins; walking backwards, each joint's end is the largest end among its children.
  clip.subtree_end_.resize(joints);
  for (int j = joints - 1; j >= 0; --j) clip.subtree_end_[j] = j + 1;
  for (int j = joints - 1; j > 0; --j) {
    int& parent_end = clip.subtree_end_[clip.parents_[j]];
    parent_end = std::max(parent_end, clip.subtree_end_[j]);
  }

  return Ok{};
}

Status ClipBuilder::ScaleRestPose(const ClipLoadOptions& options, Clip& clip) {
  const std::string& source = clip.source_;
  const int joints = clip.joint_count();
  // Rest pose, up axis and scale (file units until scaled below).
  SumOffsets(clip.parents_, clip.offsets_, clip.rest_positions_);
  clip.turned_from_z_up_ = ReadAsZUp(clip.rest_positions_, options.up);
  if (clip.turned_from_z_up_) {
    for (glm::vec3& offset : clip.offsets_) offset = TurnUp(offset);
    SumOffsets(clip.parents_, clip.offsets_, clip.rest_positions_);
  }
  float low = clip.rest_positions_[0].y, high = low;
  for (const glm::vec3& r : clip.rest_positions_) {
    low = std::min(low, r.y);
    high = std::max(high, r.y);
  }
  const float height_units = high - low;
  if (options.metres_per_unit != 0.0f) {
    if (!(options.metres_per_unit >= kMinScale && options.metres_per_unit <= kMaxScale)) {
      return MakeError("scale " + std::to_string(options.metres_per_unit) +
                       " metres per unit is outside [" + std::to_string(kMinScale) + ", " +
                       std::to_string(kMaxScale) + "]");
    }
    clip.scale_ = options.metres_per_unit;
    clip.scale_source_ = ScaleSource::kGiven;
  } else {
    if (!(height_units > 0.0f) || !std::isfinite(height_units)) {
      return MakeError(source +
                       ": the rest pose has no height to choose a scale from; give "
                       "the metres per file unit");
    }
    if (!ChooseScale(height_units, clip.scale_, clip.scale_source_)) {
      return MakeError(source + ": the rest pose is " + std::to_string(height_units) +
                       " file units high, too far from a person's height to choose a scale "
                       "from; give the metres per file unit");
    }
  }
  clip.rest_height_ = height_units * clip.scale_;
  for (int j = 0; j < joints; ++j) {
    clip.offsets_[j] *= clip.scale_;
    clip.rest_positions_[j] *= clip.scale_;
    if (!InRange(clip.rest_positions_[j])) {
      return MakeError(source + ": joint " + clip.names_[j] + " lies beyond " +
                       std::to_string(kMaxMetres) + " m in the rest pose");
    }
  }

  return Ok{};
}

Status ClipBuilder::ReadChannels(std::span<const aiNodeAnim* const> channel_of, Clip& clip) {
  const std::string& source = clip.source_;
  const int joints = clip.joint_count();
  const int frames = clip.frame_count_;
  // Channels: a joint whose position keys cover every frame gets a translation track.
  clip.translation_track_.assign(joints, -1);
  for (int j = 0; j < joints; ++j) {
    const aiNodeAnim* ch = channel_of[j];
    if (ch != nullptr && ch->mNumPositionKeys == static_cast<unsigned>(frames)) {
      clip.translation_track_[j] = clip.track_count_++;
    }
    if (ch != nullptr && ch->mNumRotationKeys != static_cast<unsigned>(frames)) {
      return MakeError(source + ": joint " + clip.names_[j] + " has " +
                       std::to_string(ch->mNumRotationKeys) + " rotation keys for " +
                       std::to_string(frames) + " frames");
    }
  }
  clip.rotations_.assign(static_cast<std::size_t>(frames) * joints, glm::quat(1, 0, 0, 0));
  clip.translations_.resize(static_cast<std::size_t>(frames) * clip.track_count_);
  for (int j = 0; j < joints; ++j) {
    const aiNodeAnim* ch = channel_of[j];
    if (ch == nullptr) continue;
    const int track = clip.translation_track_[j];
    for (int f = 0; f < frames; ++f) {
      const aiQuaternion& q = ch->mRotationKeys[f].mValue;
      glm::quat r(q.w, q.x, q.y, q.z);
      const float len = glm::length(r);
      if (!std::isfinite(len) || !(len > 0.5f)) {
        return MakeError(source + ": frame " + std::to_string(f) + ", joint " + clip.names_[j] +
                         ": a rotation channel is not finite");
      }
      r /= len;
      // Turned with the whole skeleton: the same rotation seen in the Y-up frame.
      if (clip.turned_from_z_up_) r = glm::normalize(kTurnUp * r * glm::conjugate(kTurnUp));
      clip.rotations_[static_cast<std::size_t>(f) * joints + j] = r;
      if (track >= 0) {
        const aiVector3D& t = ch->mPositionKeys[f].mValue;
        glm::vec3 v = glm::vec3(t.x, t.y, t.z) * clip.scale_;
        if (clip.turned_from_z_up_) v = TurnUp(v);
        if (!InRange(v)) {
          return MakeError(source + ": frame " + std::to_string(f) + ", joint " + clip.names_[j] +
                           ": a position channel is not finite or beyond " +
                           std::to_string(kMaxMetres) + " m");
        }
        clip.translations_[static_cast<std::size_t>(f) * clip.track_count_ + track] = v;
      }
    }
  }
  return Ok{};
}

Result<Clip> LoadClipFromMemory(std::string_view bytes, const std::string& source,
                                const ClipLoadOptions& options) {
  if (bytes.empty()) return MakeError(source + ": the file is empty");
  if (bytes.size() > kMaxFileBytes) {
    return MakeError(source + ": larger than the limit of " + std::to_string(kMaxFileBytes >> 20) +
                     " MiB");
  }
  // A UTF-8 byte-order mark, as some editors write, is dropped (as the project's other text
  // readers do, lang/text.h): neither the guard nor Assimp expects one.
  if (text::StartsWithByteOrderMark(bytes)) bytes.remove_prefix(text::kByteOrderMark.size());
  Result<BvhClaims> claims = GuardBvhText(bytes);
  if (!claims) return MakeError(source + ": " + claims.error());
  try {
    Assimp::Importer importer;
    importer.SetPropertyInteger(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, 1);
    // The "bvh" hint sends the bytes to the BVH importer whatever they look like.
    const aiScene* scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "bvh");
    if (scene == nullptr) {
      // Assimp names the bytes by an internal file name; say "line" instead.
      std::string why = importer.GetErrorString();
      const std::string internal = std::string(AI_MEMORYIO_MAGIC_FILENAME) + ".bvh:";
      if (why.rfind(internal, 0) == 0) why = "line " + why.substr(internal.size());
      return MakeError(source + ": Assimp cannot read it: " + why);
    }
    return ClipBuilder::Build(*scene, claims.value(), source, options);
  } catch (const std::exception& e) {
    return MakeError(source + ": reading failed: " + e.what());
  }
}

Result<Clip> LoadClipFile(const std::string& path, const ClipLoadOptions& options) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return MakeError(path + ": no such file");
  if (std::filesystem::is_directory(status))
    return MakeError(path + ": is a directory, not a BVH file");
  if (!std::filesystem::is_regular_file(status)) return MakeError(path + ": not a regular file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return MakeError(path + ": cannot read its size: " + ec.message());
  if (size > kMaxFileBytes) {
    return MakeError(path + ": " + std::to_string(size) + " bytes, larger than the limit of " +
                     std::to_string(kMaxFileBytes >> 20) + " MiB");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(path + ": cannot open it for reading");
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (static_cast<std::size_t>(in.gcount()) != bytes.size()) {
    return MakeError(path + ": read failed");
  }
  return LoadClipFromMemory(bytes, path, options);
}

const char* ScaleSourceName(ScaleSource source) {
  switch (source) {
    case ScaleSource::kGiven:
      return "given";
    case ScaleSource::kUnitMetres:
      return "metres";
    case ScaleSource::kUnitCentimetres:
      return "centimetres";
    case ScaleSource::kUnitMillimetres:
      return "millimetres";
    case ScaleSource::kUnitInches:
      return "inches";
    case ScaleSource::kHeightNormalised:
      return "height 1.7 m";
  }
  return "?";
}

}  // namespace fabrik::mocap

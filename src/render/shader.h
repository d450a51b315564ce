// shader.h - GLSL programs loaded from files at run time.
//
// Load() reads, compiles and links a vertex + fragment pair; a missing file or a compile or
// link failure returns an Error with the file name and the driver's log.
#pragma once

#include <cstddef>
#include <string>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "ik/result.h"

namespace fabrik {

// Vertex layout, matching a vertex shader's inputs: enables attribute `location` of the bound
// vertex array as `components` floats (kInt: ints, read unconverted) lying `offset` bytes into
// each vertex of `stride` bytes in the bound GL_ARRAY_BUFFER.
enum class AttributeType { kFloat, kInt };
void VertexAttribute(unsigned location, int components, std::size_t stride, std::size_t offset,
                     AttributeType type = AttributeType::kFloat);

class ShaderProgram {
 public:
  ShaderProgram() = default;
  ~ShaderProgram();
  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  static Result<ShaderProgram> Load(const std::string& vertex_path,
                                    const std::string& fragment_path);

  void Use() const;
  unsigned id() const { return id_; }
  // Uniform setters; a uniform the compiler removed is silently skipped.
  void Set(const char* name, const glm::mat4& m) const;
  void Set(const char* name, const glm::vec3& v) const;
  void Set(const char* name, const glm::vec4& v) const;
  void Set(const char* name, float f) const;
  void Set(const char* name, int i) const;

 private:
  unsigned id_ = 0;
};

}  // namespace fabrik

#include "render/shader.h"

#include <glad/gl.h>

#include <fstream>
#include <sstream>
#include <utility>

#include <glm/gtc/type_ptr.hpp>

namespace fabrik {
namespace {

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError("cannot open shader file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<GLuint> Compile(GLenum type, const std::string& source, const std::string& path) {
  const GLuint shader = glCreateShader(type);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
    glDeleteShader(shader);
    return MakeError("shader '" + path + "' failed to compile: " + log);
  }
  return shader;
}

}  // namespace

ShaderProgram::~ShaderProgram() {
  if (id_) glDeleteProgram(id_);
}

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (id_) glDeleteProgram(id_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

Result<ShaderProgram> ShaderProgram::Load(const std::string& vertex_path,
                                          const std::string& fragment_path) {
  auto vs_text = ReadFile(vertex_path);
  if (!vs_text) return MakeError(vs_text.error());
  auto fs_text = ReadFile(fragment_path);
  if (!fs_text) return MakeError(fs_text.error());
  auto vs = Compile(GL_VERTEX_SHADER, vs_text.value(), vertex_path);
  if (!vs) return MakeError(vs.error());
  auto fs = Compile(GL_FRAGMENT_SHADER, fs_text.value(), fragment_path);
  if (!fs) {
    glDeleteShader(vs.value());
    return MakeError(fs.error());
  }
  ShaderProgram program;
  program.id_ = glCreateProgram();
  glAttachShader(program.id_, vs.value());
  glAttachShader(program.id_, fs.value());
  glLinkProgram(program.id_);
  glDeleteShader(vs.value());
  glDeleteShader(fs.value());
  GLint ok = 0;
  glGetProgramiv(program.id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetProgramInfoLog(program.id_, sizeof(log), nullptr, log);
    return MakeError("shaders '" + vertex_path + "' + '" + fragment_path +
                     "' failed to link: " + log);
  }
  return program;
}

void VertexAttribute(unsigned location, int components, std::size_t stride, std::size_t offset,
                     AttributeType type) {
  glEnableVertexAttribArray(location);
  const auto gl_stride = static_cast<GLsizei>(stride);
  const void* gl_offset = reinterpret_cast<const void*>(offset);
  if (type == AttributeType::kInt) {
    glVertexAttribIPointer(location, components, GL_INT, gl_stride, gl_offset);
  } else {
    glVertexAttribPointer(location, components, GL_FLOAT, GL_FALSE, gl_stride, gl_offset);
  }
}

void ShaderProgram::Use() const { glUseProgram(id_); }

void ShaderProgram::Set(const char* name, const glm::mat4& m) const {
  const GLint loc = glGetUniformLocation(id_, name);
  if (loc >= 0) glUniformMatrix4fv(loc, 1, GL_FALSE, glm::value_ptr(m));
}
void ShaderProgram::Set(const char* name, const glm::vec3& v) const {
  const GLint loc = glGetUniformLocation(id_, name);
  if (loc >= 0) glUniform3fv(loc, 1, glm::value_ptr(v));
}
void ShaderProgram::Set(const char* name, const glm::vec4& v) const {
  const GLint loc = glGetUniformLocation(id_, name);
  if (loc >= 0) glUniform4fv(loc, 1, glm::value_ptr(v));
}
void ShaderProgram::Set(const char* name, float f) const {
  const GLint loc = glGetUniformLocation(id_, name);
  if (loc >= 0) glUniform1f(loc, f);
}
void ShaderProgram::Set(const char* name, int i) const {
  const GLint loc = glGetUniformLocation(id_, name);
  if (loc >= 0) glUniform1i(loc, i);
}

}  // namespace fabrik

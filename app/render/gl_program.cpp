// gl_program.cpp — shader compilation with the driver's log in the error.
#include "app/render/gl_program.h"

#include <glad/gl.h>

#include <algorithm>

#include "app/render/embedded_files.h"

namespace ts::render {
namespace {

std::string compile(GLenum type, std::string_view name, unsigned& shader, std::string_view defines = {}) {
  const embed::File* file = embed::find_file(embed::shader_files(), name);
  if (!file) return "shader " + std::string(name) + " is not embedded in this build";
  shader = glCreateShader(type);
  // The source up to the end of its #version line, the defines, the rest.
  const std::string_view text = file->text;
  const std::size_t version = text.find("#version");
  const std::size_t split = version == std::string_view::npos ? 0 : std::min(text.size(), text.find('\n', version) + 1);
  const char* parts[3] = {text.data(), defines.empty() ? "" : defines.data(), text.data() + split};
  const GLint lengths[3] = {static_cast<GLint>(split), static_cast<GLint>(defines.size()),
                            static_cast<GLint>(text.size() - split)};
  glShaderSource(shader, 3, parts, lengths);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok) return {};
  char log[2048] = {};
  glGetShaderInfoLog(shader, sizeof log, nullptr, log);
  return "shader " + std::string(name) + " did not compile: " + log;
}

}  // namespace

GlProgram::~GlProgram() {
  if (id_) glDeleteProgram(id_);
}

std::string GlProgram::build(std::string_view vertex_name, std::string_view fragment_name, std::string_view defines) {
  unsigned vs = 0, fs = 0;
  std::string err = compile(GL_VERTEX_SHADER, vertex_name, vs);
  if (err.empty()) err = compile(GL_FRAGMENT_SHADER, fragment_name, fs, defines);
  if (err.empty()) {
    id_ = glCreateProgram();
    glAttachShader(id_, vs);
    glAttachShader(id_, fs);
    glLinkProgram(id_);
    GLint ok = 0;
    glGetProgramiv(id_, GL_LINK_STATUS, &ok);
    if (!ok) {
      char log[2048] = {};
      glGetProgramInfoLog(id_, sizeof log, nullptr, log);
      err = "shader program " + std::string(vertex_name) + " + " + std::string(fragment_name) + " did not link: " + log;
      glDeleteProgram(id_);
      id_ = 0;
    }
  }
  if (vs) glDeleteShader(vs);
  if (fs) glDeleteShader(fs);
  return err;
}

int GlProgram::uniform(const char* name) const { return glGetUniformLocation(id_, name); }

}  // namespace ts::render

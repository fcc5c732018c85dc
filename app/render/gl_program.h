// gl_program.h — compile and link a GLSL program from the shaders embedded in
// the binary (shaders/, see trace/embedded_files.h).
#pragma once

#include <string>
#include <string_view>

namespace ts::render {

class GlProgram {
 public:
  GlProgram() = default;
  ~GlProgram();
  GlProgram(const GlProgram&) = delete;
  GlProgram& operator=(const GlProgram&) = delete;

  // Builds from two embedded shaders by name; `defines` ("#define X\n" lines)
  // go into the fragment shader after its #version line, for variants of one
  // source. Returns an error message, empty on success.
  std::string build(std::string_view vertex_name, std::string_view fragment_name, std::string_view defines = {});
  unsigned id() const { return id_; }
  int uniform(const char* name) const;

 private:
  unsigned id_ = 0;
};

}  // namespace ts::render

# layering_test.cmake — the layers' includes (CTest label cpu). From the bottom:
#   - trace/ (the vocabulary, and trace/model/) includes nothing of kernels/ or
#     app/, nor ImGui, OpenGL, GLFW or CUDA: every layer builds on it;
#   - kernels/ and include/ include nothing of app/;
#   - tracer/ (the recorder of unmodified kernels: raw records into traces)
#     includes nothing of kernels/ or app/;
#   - app/core includes nothing of kernels/, nor of app/ outside app/core;
#   - app/counters (kernels/ run and counted by app/core) includes nothing of
#     app/ui, app/cli or app/render;
#   - app/ui includes nothing of app/cli (the app's options are the app's;
#     app/cli/app_scene.cpp maps the command line onto them).
# An include that runs up the layers fails the test, naming it.
#   cmake -DSOURCE_DIR=... -P layering_test.cmake
cmake_minimum_required(VERSION 3.25)

set(failures "")
# scan(DIR FORBID [EXCEPT]): every source under DIR whose #include line
# matches the regex FORBID (applied to what follows "#include"), unless it
# also matches EXCEPT, is a failure.
function(scan dir forbid)
  set(except "${ARGV2}")
  set(found "")
  file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${dir}/*.h ${SOURCE_DIR}/${dir}/*.cpp
       ${SOURCE_DIR}/${dir}/*.cu ${SOURCE_DIR}/${dir}/*.cuh)
  foreach(f IN LISTS files)
    file(STRINGS ${SOURCE_DIR}/${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*${forbid}")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*([\"<][^\">]+[\">]).*" "\\1" header "${line}")
      if(except AND header MATCHES "^${except}")
        continue()
      endif()
      string(APPEND found "\n  ${f} includes ${header}")
    endforeach()
  endforeach()
  set(failures "${failures}${found}" PARENT_SCOPE)
endfunction()

scan(trace "\"(kernels|app)/")
scan(trace "<(imgui|GL/|GLFW/|glad/|cuda|cublas|nvrtc)")
scan(kernels "\"app/")
scan(tracer "\"(kernels|app)/")
scan(include "\"app/")
scan(app/core "\"(kernels|app)/" "\"app/core/")
scan(app/counters "\"app/(ui|cli|render)/")
scan(app/ui "\"app/cli/")

if(failures)
  message(FATAL_ERROR "layering: includes that run up the layers:${failures}")
endif()
message(STATUS "layering: trace/ includes nothing of kernels/, app/, ImGui, GL or CUDA; kernels/ and include/ nothing of app/; "
               "app/core nothing of kernels/ or the rest of app/; app/counters nothing of app/ui, app/cli, app/render; "
               "app/ui nothing of app/cli")

# layering_test.cmake — the layers' includes (CTest label cpu):
#   - nothing under app/ui includes a header of app/cli (the app's options are
#     the app's; app/cli/app_scene.cpp maps the command line onto them);
#   - nothing under kernels/ or include/ includes a header of app/, except the
#     includes listed in KNOWN below: what the layering of the trace
#     vocabulary (trace/) has not yet moved, each to leave this list, never to
#     join it. A new include of app/ from kernels/ fails the test, naming it.
#   cmake -DSOURCE_DIR=... -P layering_test.cmake
cmake_minimum_required(VERSION 3.25)
set(KNOWN
)

set(failures "")
set(seen "")
function(scan dir pattern rule)
  set(found "")
  set(known_seen "")
  file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${dir}/*.h ${SOURCE_DIR}/${dir}/*.cpp
       ${SOURCE_DIR}/${dir}/*.cu ${SOURCE_DIR}/${dir}/*.cuh)
  foreach(f IN LISTS files)
    file(STRINGS ${SOURCE_DIR}/${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"${pattern}")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE ".*\"([^\"]+)\".*" "\\1" header "${line}")
      if(rule STREQUAL "known" AND "${f}:${header}" IN_LIST KNOWN)
        list(APPEND known_seen "${f}:${header}")
        continue()
      endif()
      string(APPEND found "\n  ${f} includes ${header}")
    endforeach()
  endforeach()
  set(failures "${failures}${found}" PARENT_SCOPE)
  set(seen ${seen} ${known_seen} PARENT_SCOPE)
endfunction()

scan(app/ui "app/cli/" strict)
scan(kernels "app/" known)
scan(include "app/" known)
# A known include that is gone must leave the list: the list only shrinks.
foreach(entry IN LISTS KNOWN)
  if(NOT entry IN_LIST seen)
    string(APPEND failures "\n  ${entry} is gone: remove it from KNOWN in tests/layering_test.cmake")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "layering: includes that run up the layers:${failures}")
endif()
list(LENGTH KNOWN known)
message(STATUS "layering: app/ui includes nothing of app/cli; kernels/ and include/ include nothing of app/ but ${known} known includes")

# TilescopeTracer.cmake — the tracer's device side (included from tracer/):
#   tilescope_tracer_patches  the device patches, a --compile-as-tools-patch
#                             fatbin for the build's CUDA architectures;
#   tilescope_tracer          libtilescope_tracer.so, the injection library
#                             (needs libsanitizer-public.so to link).
# Both go next to the tilescope executable, where `record --exec` looks
# (TILESCOPE_TRACER_LIBRARY overrides at run time). Without the Compute
# Sanitizer API (CI, a toolkit without it) only the assembler is built, and
# this says so; with the headers but not the library (a machine without a
# driver's sanitizer), the injection library is compiled but not linked.
set(TILESCOPE_SANITIZER_DIR "" CACHE PATH
    "The Compute Sanitizer API: include/sanitizer.h and libsanitizer-public.so (default: the CUDA toolkit's compute-sanitizer)")
set(TILESCOPE_HAVE_TRACER OFF)
if(NOT TILESCOPE_HAVE_CUDA)
  message(STATUS "tilescope: tracer: assembler only (no CUDA: no device patches, no injection library)")
  return()
endif()
set(sanitizer_dir "${TILESCOPE_SANITIZER_DIR}")
if(NOT sanitizer_dir)
  get_filename_component(toolkit_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
  set(sanitizer_dir "${toolkit_root}/compute-sanitizer")
endif()
if(NOT EXISTS "${sanitizer_dir}/include/sanitizer.h")
  message(STATUS "tilescope: tracer: assembler only (no Compute Sanitizer API at ${sanitizer_dir}; set TILESCOPE_SANITIZER_DIR)")
  return()
endif()

set(tracer_out "${PROJECT_BINARY_DIR}/app/cli")
# The patches: one cubin per real architecture of the build (the API patches SASS).
set(patch_arches "")
foreach(arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
  string(REGEX MATCH "^[0-9]+" number "${arch}")
  if(number)
    list(APPEND patch_arches "-gencode=arch=compute_${number},code=sm_${number}")
  endif()
endforeach()
if(NOT patch_arches)
  set(patch_arches "-gencode=arch=compute_90,code=sm_90")  # "native" and the like: the machines we know
endif()
set(patches_fatbin "${tracer_out}/tilescope_tracer_patches.fatbin")
add_custom_command(OUTPUT ${patches_fatbin}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${tracer_out}
  COMMAND ${CMAKE_CUDA_COMPILER} --fatbin --compile-as-tools-patch ${patch_arches}
          -I${sanitizer_dir}/include -I${PROJECT_SOURCE_DIR}
          -o ${patches_fatbin} ${PROJECT_SOURCE_DIR}/tracer/patches/tracer_patches.cu
  DEPENDS ${PROJECT_SOURCE_DIR}/tracer/patches/tracer_patches.cu ${PROJECT_SOURCE_DIR}/tracer/raw_record.h
  COMMENT "Device patches of the tracer (${patch_arches})"
  VERBATIM)
add_custom_target(tilescope_tracer_patches ALL DEPENDS ${patches_fatbin})

set(tracer_sources
  ${PROJECT_SOURCE_DIR}/tracer/inject/tracer_inject.cpp
  ${PROJECT_SOURCE_DIR}/tracer/raw_file.cpp
  ${PROJECT_SOURCE_DIR}/tracer/cubin_shared.cpp)
find_library(TILESCOPE_SANITIZER_LIBRARY sanitizer-public PATHS "${sanitizer_dir}" NO_DEFAULT_PATH)
if(TILESCOPE_SANITIZER_LIBRARY)
  add_library(tilescope_tracer SHARED ${tracer_sources})
  target_include_directories(tilescope_tracer PRIVATE ${PROJECT_SOURCE_DIR} ${sanitizer_dir}/include)
  target_link_libraries(tilescope_tracer PRIVATE ${TILESCOPE_SANITIZER_LIBRARY} CUDA::cuda_driver ${CMAKE_DL_LIBS})
  target_compile_options(tilescope_tracer PRIVATE -Wall -Wextra)
  set_target_properties(tilescope_tracer PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${tracer_out}
    BUILD_RPATH "${sanitizer_dir}"
    INSTALL_RPATH "${sanitizer_dir}")
  add_dependencies(tilescope_tracer tilescope_tracer_patches)
  set(TILESCOPE_HAVE_TRACER ON)
  message(STATUS "tilescope: tracer: patches and libtilescope_tracer.so (Compute Sanitizer API at ${sanitizer_dir})")
else()
  # The headers without the library: compile the injection library's sources, link nothing.
  add_library(tilescope_tracer_compile_check OBJECT ${tracer_sources})
  target_include_directories(tilescope_tracer_compile_check PRIVATE ${PROJECT_SOURCE_DIR} ${sanitizer_dir}/include
                             ${CUDAToolkit_INCLUDE_DIRS})
  target_compile_options(tilescope_tracer_compile_check PRIVATE -Wall -Wextra)
  message(STATUS "tilescope: tracer: patches built, injection library compiled only "
                 "(no libsanitizer-public.so in ${sanitizer_dir}; build it on the GPU machine: scripts/gpu-checks.d/87-tracer.sh)")
endif()

# KernelResources.cmake — record at build time what the compiler gives each
# plain kernel (registers, static shared memory, barriers, stack, spills) on
# each architecture, and compile that table into tilescope.
#
# As a module: tilescope_kernel_resources(TARGET) adds the table to TARGET,
# and the shipped data (kernels/kernel_resources.csv) to every build.
# The architectures are the numeric entries of CMAKE_CUDA_ARCHITECTURES plus
# every GPU preset's (75 80 86 89 90 120), so presets have real compiler
# numbers even in a one-architecture build; those whose machine code is in
# the binary are listed separately. Without CUDA the table is empty and the
# shipped data stands in (kernels/kernel_resources.h). A CUDA build also has
# the target kernel-resources-data, which writes this build's table over
# kernels/kernel_resources.csv (with the compiler's version and the date).
#
# As a script (the build runs it once per architecture):
#   cmake -DNVCC=... -DARCH=90 -DSOURCE=plain_kernels.cu -DINCLUDE_DIR=... \
#         -DFLAGS="a|b|c" -DOUTPUT=sm_90.inc -P KernelResources.cmake
# compiles SOURCE to a cubin with ptxas's resource report and writes one
# C++ initializer row per plain_kernel<KIND, TILE> and per plain_rung<KIND>
# (the ladder's rungs: fixed tiles, written with TILE 0).

set(TILESCOPE_PRESET_ARCHES 75 80 86 89 90 120)

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED ARCH)
  string(REPLACE "|" ";" flags "${FLAGS}")
  execute_process(
    COMMAND ${NVCC} ${flags} -I${INCLUDE_DIR} -cubin -arch=sm_${ARCH} --resource-usage -o ${OUTPUT}.cubin ${SOURCE}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "KernelResources: nvcc failed for sm_${ARCH}:\n${out}${err}")
  endif()
  string(REPLACE "\n" ";" lines "${out}\n${err}")
  set(rows "")
  set(count 0)
  set(name "")
  foreach(line IN LISTS lines)
    if(line MATCHES "Compiling entry function '([^']+)'")
      set(name "${CMAKE_MATCH_1}")
      set(stack 0)
      set(spill 0)
    elseif(line MATCHES "([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads")
      set(stack ${CMAKE_MATCH_1})
      math(EXPR spill "${CMAKE_MATCH_2} + ${CMAKE_MATCH_3}")
    elseif(line MATCHES "Used ([0-9]+) registers")
      set(regs ${CMAKE_MATCH_1})
      set(barriers 0)
      set(smem 0)
      if(line MATCHES "used ([0-9]+) barriers")
        set(barriers ${CMAKE_MATCH_1})
      endif()
      if(line MATCHES "([0-9]+) bytes smem")
        set(smem ${CMAKE_MATCH_1})
      endif()
      # plain_kernel<KernelKind(K), TILE> mangles as ...KernelKindE<K>ELi<TILE>E...
      if(name MATCHES "plain_kernel.*KernelKindE([0-9]+)ELi([0-9]+)E")
        string(APPEND rows "    {${ARCH}, ::ts::KernelKind(${CMAKE_MATCH_1}), ${CMAKE_MATCH_2}, ${regs}, ${smem}, ${barriers}, ${stack}, ${spill}},\n")
        math(EXPR count "${count} + 1")
      # plain_rung<KernelKind(K)> mangles as ...KernelKindE<K>EE...
      elseif(name MATCHES "plain_rung.*KernelKindE([0-9]+)EE")
        string(APPEND rows "    {${ARCH}, ::ts::KernelKind(${CMAKE_MATCH_1}), 0, ${regs}, ${smem}, ${barriers}, ${stack}, ${spill}},\n")
        math(EXPR count "${count} + 1")
      endif()
    endif()
  endforeach()
  if(count EQUAL 0)
    message(FATAL_ERROR "KernelResources: no plain_kernel in ptxas's report for sm_${ARCH}:\n${out}${err}")
  endif()
  file(WRITE ${OUTPUT} "    // sm_${ARCH}: ${count} kernels\n${rows}")
  file(REMOVE ${OUTPUT}.cubin)
  return()
endif()

include(EmbedFiles)  # the shipped data is embedded (tilescope_embed_files)
function(tilescope_kernel_resources target)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/kernel_resources)
  set(includes "")
  set(binary_arches "")
  set(outputs "")
  if(TILESCOPE_HAVE_CUDA)
    set(arches ${TILESCOPE_PRESET_ARCHES})
    foreach(entry IN LISTS CMAKE_CUDA_ARCHITECTURES)
      if(entry MATCHES "^([0-9]+)[a-z]?(-real|-virtual)?$")
        list(APPEND arches ${CMAKE_MATCH_1})
        if(NOT CMAKE_MATCH_2 STREQUAL "-virtual")
          list(APPEND binary_arches ${CMAKE_MATCH_1})
        endif()
      else()
        message(STATUS "tilescope: kernel resources: '${entry}' is not a numbered architecture; recording the presets' only")
      endif()
    endforeach()
    list(REMOVE_DUPLICATES arches)
    list(SORT arches COMPARE NATURAL)
    list(REMOVE_DUPLICATES binary_arches)
    execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-code OUTPUT_VARIABLE supported ERROR_QUIET)

    # The flags the real build compiles plain_kernels.cu with (see kernels/CMakeLists.txt).
    string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
    separate_arguments(flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${config}}")
    list(APPEND flags -std=c++20 --expt-relaxed-constexpr)
    string(REPLACE ";" "|" flags "${flags}")

    set(source ${PROJECT_SOURCE_DIR}/kernels/cuda/plain_kernels.cu)
    file(GLOB kernel_headers ${PROJECT_SOURCE_DIR}/kernels/*.h ${PROJECT_SOURCE_DIR}/kernels/cuda/*.cuh)
    foreach(arch IN LISTS arches)
      if(NOT supported MATCHES "sm_${arch}[^0-9]")
        message(STATUS "tilescope: kernel resources: this nvcc cannot compile for sm_${arch}; skipped")
        continue()
      endif()
      set(out ${dir}/sm_${arch}.inc)
      add_custom_command(
        OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DNVCC=${CMAKE_CUDA_COMPILER} -DARCH=${arch} -DSOURCE=${source}
                -DINCLUDE_DIR=${PROJECT_SOURCE_DIR} -DFLAGS=${flags} -DOUTPUT=${out}
                -P ${PROJECT_SOURCE_DIR}/cmake/KernelResources.cmake
        DEPENDS ${source} ${kernel_headers} ${PROJECT_SOURCE_DIR}/cmake/KernelResources.cmake
        COMMENT "Recording the plain kernels' resource usage for sm_${arch}"
        VERBATIM)
      list(APPEND outputs ${out})
      string(APPEND includes "#include \"sm_${arch}.inc\"\n")
    endforeach()
  endif()
  set(compiler "")
  if(TILESCOPE_HAVE_CUDA)
    set(compiler "nvcc ${CMAKE_CUDA_COMPILER_VERSION}")
  endif()
  string(REPLACE ";" ", " binary_list "${binary_arches}")
  file(CONFIGURE OUTPUT ${dir}/kernel_resources_table.cpp CONTENT
"// Generated by cmake/KernelResources.cmake from ptxas's resource report: do not edit.
#include \"kernels/kernel_resources.h\"

namespace ts::generated {

extern const std::vector<CompiledResources> kCompiledResources;  // declared here for external linkage
extern const std::vector<int> kBinaryArches;
extern const char* const kCompiler;

const std::vector<CompiledResources> kCompiledResources{
@includes@};
const std::vector<int> kBinaryArches{@binary_list@};
const char* const kCompiler = \"@compiler@\";

}  // namespace ts::generated
" @ONLY)
  target_sources(${target} PRIVATE ${dir}/kernel_resources_table.cpp ${outputs})
  target_include_directories(${target} PRIVATE ${dir})

  # The shipped data, compiled into every build.
  set(data ${PROJECT_SOURCE_DIR}/kernels/kernel_resources.csv)
  tilescope_embed_files(OUTPUT ${dir}/kernel_resource_data.cpp FUNCTION ts::embed::kernel_resource_data FILES ${data})
  target_sources(${target} PRIVATE ${dir}/kernel_resource_data.cpp)

  # This build's table written over the shipped data (CUDA builds only).
  if(TILESCOPE_HAVE_CUDA)
    add_executable(kernel_resources_data ${PROJECT_SOURCE_DIR}/kernels/kernel_resources_data.cpp)
    target_link_libraries(kernel_resources_data PRIVATE ${target})
    add_custom_target(kernel-resources-data
      COMMAND kernel_resources_data ${data}
      COMMENT "Writing this build's kernel resources to kernels/kernel_resources.csv"
      VERBATIM)
  endif()
endfunction()

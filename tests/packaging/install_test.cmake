# install_test.cmake — installs the build into WORK/usr, runs the installed
# tilescope from elsewhere (it must find its assets in WORK/usr/share/tilescope,
# not in the source tree), then builds the Debian package with CPack and
# checks its files and Depends (skipped without dpkg-deb).
#   cmake -DBUILD_DIR=... -DWORK=... -DCPACK=... -DVERSION=... -DHAVE_GUI=ON|OFF -DHAVE_CUDA=ON|OFF \
#         -P install_test.cmake
function(fail message)
  message(FATAL_ERROR "packaging: ${message}")
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/usr
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT (rc EQUAL 0))
  fail("cmake --install failed:\n${out}${err}")
endif()

set(expected bin/tilescope include/tilescope/kernel.h share/tilescope/bench/h200.json share/tilescope/timelines/h200_tiled_t16_4096.json
             share/tilescope/timelines/h200_tiled_t32_4096.json share/tilescope/ncu/memory-vs-ncu.json)
if(HAVE_GUI)
  list(APPEND expected share/applications/tilescope.desktop share/icons/hicolor/scalable/apps/tilescope.svg)
endif()
foreach(f IN LISTS expected)
  if(NOT (EXISTS ${WORK}/usr/${f}))
    fail("the install lacks ${f}")
  endif()
endforeach()

# Run from WORK: no source tree in sight of the working directory, and the
# installed data directory must win over the source tree compiled in.
execute_process(COMMAND ${WORK}/usr/bin/tilescope --version WORKING_DIRECTORY ${WORK}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT (rc EQUAL 0))
  fail("tilescope --version failed: ${err}")
endif()
string(FIND "${out}" "tilescope ${VERSION}" at)
if(NOT (at GREATER_EQUAL 0))
  fail("--version does not say 'tilescope ${VERSION}': ${out}")
endif()

foreach(word "CUDA" "GUI" "assets: ${WORK}/usr/share/tilescope")
  string(FIND "${out}" "${word}" at)
  if(NOT (at GREATER_EQUAL 0))
    fail("--version does not say '${word}': ${out}")
  endif()
endforeach()

# A user kernel compiles against the installed headers alone (none from the source tree).
execute_process(COMMAND ${CMAKE_COMMAND} -E env TILESCOPE_CACHE_DIR=${WORK}/kernel-cache
                        ${WORK}/usr/bin/tilescope record --kernel-file ${SOURCE_DIR}/examples/kernels/first_tiled.cu
                        --entry matmul_tiled --block 8x8 -D TILE=8 --size 20 --device cpu -o ${WORK}/user.tstrace
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT (rc EQUAL 0))
  fail("the installed tilescope cannot record a user kernel: ${out}${err}")
endif()
execute_process(COMMAND ${WORK}/usr/bin/tilescope record --device cpu --size 8 --tile 4 -o ${WORK}/t.tstrace
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT (rc EQUAL 0))
  fail("the installed tilescope cannot record: ${err}")
endif()

find_program(DPKG_DEB dpkg-deb)
if(NOT DPKG_DEB OR HAVE_CUDA)
  message(STATUS "packaging: no dpkg-deb, or a CUDA build (the package is built without CUDA): the .deb is not checked")
  return()
endif()
execute_process(COMMAND ${CPACK} -G DEB --config ${BUILD_DIR}/CPackConfig.cmake -B ${WORK}/deb
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT (rc EQUAL 0))
  fail("cpack failed:\n${out}${err}")
endif()
file(GLOB debs ${WORK}/deb/tilescope_${VERSION}_*.deb)
list(LENGTH debs n)
if(NOT (n EQUAL 1))
  fail("cpack made no tilescope_${VERSION}_*.deb in ${WORK}/deb")
endif()
execute_process(COMMAND ${DPKG_DEB} -c ${debs} OUTPUT_VARIABLE files RESULT_VARIABLE rc)
if(NOT (rc EQUAL 0))
  fail("dpkg-deb -c failed")
endif()
foreach(f IN LISTS expected)
  string(FIND "${files}" "./usr/${f}" at)
  if(NOT (at GREATER_EQUAL 0))
    fail("the package lacks /usr/${f}:\n${files}")
  endif()
endforeach()
execute_process(COMMAND ${DPKG_DEB} -f ${debs} Depends OUTPUT_VARIABLE depends)
set(needed libc6 libstdc++6)
if(HAVE_GUI)
  list(APPEND needed libglfw3 fonts-dejavu-core)
endif()
foreach(d IN LISTS needed)
  string(FIND "${depends}" "${d}" at)
  if(NOT (at GREATER_EQUAL 0))
    fail("Depends lacks ${d}: ${depends}")
  endif()
endforeach()
message(STATUS "packaging: ${debs}\n  Depends: ${depends}")

# TilescopeInstall.cmake — what `cmake --install` puts where, and the Debian
# package CPack builds from it (scripts/package.sh):
#   bin/tilescope                                   the app and its commands (shaders are embedded)
#   share/tilescope/{bench,timelines,ncu}/          the GPU results the panels open (app/core/assets.h
#                                                   finds them next to the executable)
#   share/applications/tilescope.desktop            with the GUI
#   share/icons/hicolor/scalable/apps/tilescope.svg
#   include/tilescope/kernel.h                      what a user kernel includes, and under include/tilescope/
#                                                   the kernel API headers it needs, at their source-tree
#                                                   paths (kernels/user/user_kernel.h finds them there)
include(GNUInstallDirs)
# `install` and CPack need only what they install, not every test and benchmark.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(data ${CMAKE_INSTALL_DATADIR}/tilescope)
install(FILES ${PROJECT_SOURCE_DIR}/assets/bench/h200.json DESTINATION ${data}/bench)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/timelines/ DESTINATION ${data}/timelines FILES_MATCHING PATTERN "*.json")
install(FILES ${PROJECT_SOURCE_DIR}/assets/ncu/memory-vs-ncu.json DESTINATION ${data}/ncu)
# <tilescope/kernel.h> re-exports the kernel API; the headers keep their paths below include/tilescope.
set(inc ${CMAKE_INSTALL_INCLUDEDIR}/tilescope)
install(FILES ${PROJECT_SOURCE_DIR}/include/tilescope/kernel.h DESTINATION ${inc})
install(FILES ${PROJECT_SOURCE_DIR}/kernels/kernel_api.h ${PROJECT_SOURCE_DIR}/kernels/recorded_memory.h
        DESTINATION ${inc}/kernels)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/api/ DESTINATION ${inc}/kernels/api FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_SOURCE_DIR}/kernels/emu/mode_emulator.h ${PROJECT_SOURCE_DIR}/kernels/emu/kernel_args.h
        DESTINATION ${inc}/kernels/emu)
install(FILES ${PROJECT_SOURCE_DIR}/kernels/cuda/mode_recorded.cuh ${PROJECT_SOURCE_DIR}/kernels/cuda/recorded_thread.cuh
        ${PROJECT_SOURCE_DIR}/kernels/cuda/device_clock.cuh DESTINATION ${inc}/kernels/cuda)
install(FILES ${PROJECT_SOURCE_DIR}/trace/event.h ${PROJECT_SOURCE_DIR}/trace/dim3.h
        ${PROJECT_SOURCE_DIR}/trace/block_timing.h DESTINATION ${inc}/trace)
if(TILESCOPE_HAVE_GUI)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/tilescope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/tilescope.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tilescope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "watch tiled matrix multiplication on an NVIDIA GPU, access by access")
set(CPACK_PACKAGE_DESCRIPTION "Instrumented CUDA kernels (or a CPU emulator running the same kernel source) record every
memory access of tiled matrix multiplication; the app replays the tiles each block loads, what one cell
of C reads and when, shared-memory banks, coalescing and occupancy.")
set(CPACK_PACKAGE_CONTACT "tilescope developers <tilescope@users.noreply.github.com>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # tilescope_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)    # Depends from the libraries the binary links (dpkg-shlibdeps)
if(TILESCOPE_HAVE_CUDA)
  # cuBLAS and the driver come from NVIDIA, not from a Debian package: dpkg-shlibdeps
  # would fail on them. scripts/package.sh builds without CUDA for that reason.
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
  message(STATUS "tilescope: a Debian package of this CUDA build would need NVIDIA's CUDA libraries installed beside it")
endif()
if(TILESCOPE_HAVE_GUI)
  # Loaded at run time, so shlibdeps cannot see them: the fonts, and Mesa for machines without a GPU driver.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri, g++")
else()
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++")  # compiles the user's kernels (record --kernel-file)
endif()
include(CPack)

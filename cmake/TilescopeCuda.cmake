# Decides TILESCOPE_HAVE_CUDA from TILESCOPE_CUDA (ON / OFF / AUTO).
#
# Default architectures: one real target per GPU generation that the occupancy
# presets cover (Turing 75, Ampere 80/86, Ada 89, Hopper 90, Blackwell 120) and
# PTX for the newest so that later GPUs still run. Override with
# -DCMAKE_CUDA_ARCHITECTURES=90 for a small build for one GPU.
set(TILESCOPE_HAVE_CUDA OFF)
if(NOT TILESCOPE_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90-real 120)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    find_package(CUDAToolkit)
  endif()
  if(CMAKE_CUDA_COMPILER AND CUDAToolkit_FOUND)
    set(TILESCOPE_HAVE_CUDA ON)
    # CMake 3.25 does not know nvcc 13's C++20 flag: tell it.
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  elseif(TILESCOPE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "TILESCOPE_CUDA=ON but no CUDA compiler or toolkit was found")
  else()
    message(STATUS "tilescope: no CUDA toolkit found; building the CPU emulator only")
  endif()
endif()

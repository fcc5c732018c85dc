# TilescopeTracer.cmake — the tracer's device side, included from tracer/.
# Filled in below once the patches and the injection library exist.
message(STATUS "tilescope: tracer assembler only")

// grid.frag - a cell's colour from the matrix's colour texture (one texel per
// cell, computed on the CPU when the replay state changes), with cell lines
// when cells are large enough and tile boundaries while tiles are. Zoomed
// out, level u_level of the texture: a texel for 2^l x 2^l cells, at least a
// pixel wide (see renderer.h for how those texels are made).
//
// Built in four variants (renderer.cpp): TILE_LINES and CELL_LINES compile
// the lines in only at zooms where they show. llvmpipe runs every instruction
// for every pixel, and the line arithmetic cost about as much as the texel
// (docs/perf/large_frame_bench.md); zoomed out (cells under 5 pixels, tiles
// under 8), the shader is the texel alone, and the matrix's edge, which the
// lines' code draws here, comes from the renderer's rectangle pass instead.
#version 330 core

uniform sampler2D u_colors;  // RGBA8, width = cols, height = rows, levels 0..
uniform float u_scale;       // pixels per cell
uniform ivec2 u_cells;       // rows, cols of the matrix
uniform ivec2 u_tile;        // rows, cols of one tile (TILE_LINES)
uniform int u_level;         // the level to read
uniform vec4 u_cell_line;    // colour of the lines between cells
uniform vec4 u_tile_line;    // colour of tile boundaries and of the matrix's edge

in vec2 v_cell;
out vec4 frag;

#ifdef TILE_LINES
// Distance in cells to the nearest multiple of `period`.
float to_period(float x, float period) {
  float m = mod(x, period);
  return min(m, period - m);
}
#endif

void main() {
  ivec2 size = ivec2(u_cells.y, u_cells.x);
  ivec2 cell = clamp(ivec2(floor(v_cell)), ivec2(0), size - 1);
  ivec2 level_size = textureSize(u_colors, u_level);
  vec4 color = texelFetch(u_colors, min(cell >> u_level, level_size - 1), u_level);
#if defined(TILE_LINES) || defined(CELL_LINES)
  // Distance in pixels to the matrix's edge, and to the nearest tile edge.
  vec2 edge = min(v_cell, vec2(size) - v_cell);
  float tile_px = min(edge.x, edge.y);
#ifdef TILE_LINES
  tile_px = min(tile_px, min(to_period(v_cell.x, float(u_tile.y)), to_period(v_cell.y, float(u_tile.x))));
#endif
  tile_px *= u_scale;
#ifdef CELL_LINES
  vec2 f = fract(v_cell);
  float cell_px = min(min(f.x, 1.0 - f.x), min(f.y, 1.0 - f.y)) * u_scale;
  if (cell_px < 0.5) color = mix(color, u_cell_line, u_cell_line.a);
#endif
  if (tile_px < (u_scale >= 12.0 ? 1.0 : 0.6)) color = mix(color, u_tile_line, u_tile_line.a);
#endif
  frag = vec4(color.rgb, 1.0);
}

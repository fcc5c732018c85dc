// grid.frag - a cell's colour from the matrix's colour texture (one texel per
// cell, computed on the CPU when the replay state changes), with cell lines
// when cells are large enough and tile boundaries while tiles are. Zoomed
// out, level u_level of the texture: a texel for 2^l x 2^l cells, at least a
// pixel wide (see renderer.h for how those texels are made).
#version 330 core

uniform sampler2D u_colors;  // RGBA8, width = cols, height = rows, levels 0..
uniform float u_scale;       // pixels per cell
uniform ivec2 u_cells;       // rows, cols of the matrix
uniform ivec2 u_tile;        // rows, cols of one tile; 0: no tile lines
uniform int u_level;         // the level to read
uniform vec4 u_cell_line;    // colour of the lines between cells
uniform vec4 u_tile_line;    // colour of tile boundaries

in vec2 v_cell;
out vec4 frag;

// Distance in cells to the nearest multiple of `period` (the matrix's edges included).
float to_line(float x, float period, float extent) {
  float d = min(x, extent - x);
  if (period > 0.0) {
    float m = mod(x, period);
    d = min(d, min(m, period - m));
  }
  return d;
}

void main() {
  ivec2 size = ivec2(u_cells.y, u_cells.x);
  ivec2 cell = clamp(ivec2(floor(v_cell)), ivec2(0), size - 1);
  ivec2 level_size = textureSize(u_colors, u_level);
  vec4 color = texelFetch(u_colors, min(cell >> u_level, level_size - 1), u_level);
  // Distances in pixels to the nearest cell edge and tile edge.
  vec2 f = fract(v_cell);
  float cell_px = min(min(f.x, 1.0 - f.x), min(f.y, 1.0 - f.y)) * u_scale;
  float tile_px = min(to_line(v_cell.x, float(u_tile.y), float(size.x)),
                      to_line(v_cell.y, float(u_tile.x), float(size.y))) * u_scale;
  if (u_scale >= 5.0 && cell_px < 0.5) color = mix(color, u_cell_line, u_cell_line.a);
  if (tile_px < (u_scale >= 12.0 ? 1.0 : 0.6)) color = mix(color, u_tile_line, u_tile_line.a);
  frag = vec4(color.rgb, 1.0);
}

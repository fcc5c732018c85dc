// grid.frag - a cell's colour from the matrix's colour texture (one texel per
// cell, computed on the CPU when the replay state changes), with cell lines
// when cells are large enough and tile boundaries always.
#version 330 core

uniform sampler2D u_colors;  // RGBA8, width = cols, height = rows
uniform float u_scale;       // pixels per cell
uniform vec4 u_cell_line;    // colour of the lines between cells
uniform vec4 u_tile_line;    // colour of tile boundaries

in vec2 v_cell;
flat in vec4 v_tile_rect;
out vec4 frag;

void main() {
  ivec2 cell = ivec2(floor(v_cell));
  cell = min(cell, ivec2(v_tile_rect.zw) - 1);
  vec4 color = texelFetch(u_colors, ivec2(cell.x, cell.y), 0);
  // Distances in pixels to the nearest cell edge and tile edge.
  vec2 f = fract(v_cell);
  float cell_px = min(min(f.x, 1.0 - f.x), min(f.y, 1.0 - f.y)) * u_scale;
  vec2 to_tile = min(v_cell - v_tile_rect.xy, v_tile_rect.zw - v_cell) * u_scale;
  float tile_px = min(to_tile.x, to_tile.y);
  if (u_scale >= 5.0 && cell_px < 0.5) color = mix(color, u_cell_line, u_cell_line.a);
  if (tile_px < (u_scale >= 12.0 ? 1.0 : 0.6)) color = mix(color, u_tile_line, u_tile_line.a);
  frag = vec4(color.rgb, 1.0);
}

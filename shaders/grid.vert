// grid.vert - one instance per tile of a matrix; the fragment shader picks
// the cell. Instancing by tile keeps the vertex count tiny at N = 256 (the
// software rasterizer's cost is per pixel, not per cell).
#version 330 core

uniform vec2 u_viewport;    // canvas size in pixels
uniform vec2 u_origin;      // pixel position of the matrix's cell (0, 0) corner
uniform float u_scale;      // pixels per cell
uniform ivec2 u_cells;      // rows, cols of the matrix
uniform ivec2 u_tile;       // rows, cols of one tile
uniform int u_tiles_per_row;

out vec2 v_cell;            // position in cells: x = column, y = row
flat out vec4 v_tile_rect;  // the tile in cells: col0, row0, col1, row1

void main() {
  int ti = gl_InstanceID / u_tiles_per_row;
  int tj = gl_InstanceID % u_tiles_per_row;
  vec2 lo = vec2(tj * u_tile.y, ti * u_tile.x);
  vec2 hi = min(lo + vec2(u_tile.y, u_tile.x), vec2(u_cells.y, u_cells.x));
  vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);  // triangle strip 0..3
  v_cell = mix(lo, hi, corner);
  v_tile_rect = vec4(lo, hi);
  vec2 px = u_origin + v_cell * u_scale;
  gl_Position = vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0);
}
